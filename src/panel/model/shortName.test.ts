// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

import { fitName, nameForms, nameFormsCache } from './shortName';

const GO = 'github.com/emberscope/emberscope/pkg/demo.(*Service).handleCar';

describe('name shortening', () => {
  it('shortens Go names from the left: module path, then package, then ellipsis', () => {
    expect(nameForms(GO)).toEqual([GO, 'demo.(*Service).handleCar', '(*Service).handleCar', '…handleCar']);
    expect(fitName(GO, 80)).toBe(GO);
    expect(fitName(GO, 30)).toBe('demo.(*Service).handleCar');
    expect(fitName(GO, 22)).toBe('(*Service).handleCar');
    expect(fitName(GO, 12)).toBe('…handleCar');
    // only then truncation, of the function itself
    expect(fitName(GO, 8)).toBe('handleC…');
    expect(fitName(GO, 8, 'right')).toBe('…ndleCar');
    expect(fitName(GO, 2)).toBe('');
  });

  it('handles Go names without a module path, closures and generic brackets', () => {
    expect(nameForms('runtime.mallocgc')).toEqual(['runtime.mallocgc', 'mallocgc']);
    expect(nameForms('net/http.(*conn).serve')).toEqual([
      'net/http.(*conn).serve',
      'http.(*conn).serve',
      '(*conn).serve',
      '…serve',
    ]);
    expect(nameForms('main.work.func1')).toEqual(['main.work.func1', 'work.func1', '…func1']);
    expect(nameForms('example.com/x/y.Map[go.shape.int].Get')).toEqual([
      'example.com/x/y.Map[go.shape.int].Get',
      'y.Map[go.shape.int].Get',
      'Map[go.shape.int].Get',
      '…Get',
    ]);
  });

  it('drops a Java package up to the class', () => {
    expect(nameForms('com.foo.Bar.baz')).toEqual(['com.foo.Bar.baz', 'Bar.baz', '…baz']);
    expect(fitName('com.foo.Bar.baz', 7)).toBe('Bar.baz');
    expect(fitName('com.foo.Bar.baz', 5)).toBe('…baz');
    expect(nameForms('org.acme.http.Server$Handler.lambda$run$0')).toEqual([
      'org.acme.http.Server$Handler.lambda$run$0',
      'Server$Handler.lambda$run$0',
      '…lambda$run$0',
    ]);
  });

  it('drops C++ and Rust namespaces, keeping class and method', () => {
    expect(nameForms('ns::Class::method')).toEqual(['ns::Class::method', 'Class::method', '…method']);
    expect(nameForms('std::vector<std::pair<int, int>>::push_back(int const&)')).toEqual([
      'std::vector<std::pair<int, int>>::push_back(int const&)',
      'vector<std::pair<int, int>>::push_back(int const&)',
      '…push_back(int const&)',
    ]);
    expect(nameForms('Class::method')).toEqual(['Class::method', '…method']);
  });

  it('keeps names without a package whole until they must be truncated', () => {
    expect(nameForms('total')).toEqual(['total']);
    expect(nameForms('main')).toEqual(['main']);
    expect(fitName('main', 3)).toBe('ma…');
    expect(nameForms('app.py:handler')).toEqual(['app.py:handler', 'handler']);
    // a path with no package after its last slash
    expect(nameForms('github.com/acme/tool')).toEqual(['github.com/acme/tool', 'tool']);
    // a binary path (unsymbolised frame): only the file name, never split at its dots
    expect(nameForms('/usr/lib/x86_64-linux-gnu/libc.so.6')).toEqual([
      '/usr/lib/x86_64-linux-gnu/libc.so.6',
      'libc.so.6',
    ]);
    expect(fitName('/usr/lib/x86_64-linux-gnu/libc.so.6', 6)).toBe('libc.…');
  });

  it('caches forms per name index', () => {
    const names = [GO, 'runtime.mallocgc'];
    const c = nameFormsCache(names);
    expect(c.fit(0, 12)).toBe('…handleCar');
    expect(c.get(0)).toBe(c.get(0));
    expect(nameFormsCache(names)).toBe(c);
    expect(c.fit(1, 10)).toBe('mallocgc');
  });
});
