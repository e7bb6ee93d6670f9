// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// The test environment (jest.environment.js) keeps jsdom's computed styles until the document
// changes. Each case reads a style, changes what the selectors see, and reads it again: a kept
// answer that outlived the change shows here, not as a test elsewhere passing on a stale style.
import { screen } from '@testing-library/dom';

function addSheet(css: string): HTMLStyleElement {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.appendChild(style);
  return style;
}

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

it('keeps an answer while nothing changes', () => {
  document.body.innerHTML = '<p>text</p>';
  const p = document.querySelector('p')!;
  expect(getComputedStyle(p)).toBe(getComputedStyle(p));
});

it('sees a class added or removed', () => {
  addSheet('.gone { display: none; }');
  document.body.innerHTML = '<button>Run</button>';
  const button = screen.getByRole('button', { name: 'Run' });
  button.classList.add('gone');
  expect(screen.queryByRole('button', { name: 'Run' })).toBeNull();
  button.classList.remove('gone');
  expect(screen.getByRole('button', { name: 'Run' })).toBe(button);
});

it('sees rules added as text, through the style sheet API, and removed', () => {
  const style = addSheet('');
  document.body.innerHTML = '<button class="menu">Open</button>';
  const button = screen.getByRole('button');
  expect(getComputedStyle(button).display).toBe('inline-block');
  style.textContent = '.menu { display: none; }';
  expect(getComputedStyle(button).display).toBe('none');
  style.textContent = '';
  expect(getComputedStyle(button).display).toBe('inline-block');
  style.sheet!.insertRule('.menu { display: flex; }');
  expect(getComputedStyle(button).display).toBe('flex');
  style.sheet!.deleteRule(0);
  expect(getComputedStyle(button).display).toBe('inline-block');
});

it('sees an inherited visibility change on an ancestor', () => {
  document.body.innerHTML = '<div id="outer"><div><span>deep</span></div></div>';
  const span = screen.getByText('deep');
  expect(getComputedStyle(span).visibility).toBe('visible');
  document.getElementById('outer')!.style.visibility = 'hidden';
  expect(getComputedStyle(span).visibility).toBe('hidden');
});

it('sees focus move', () => {
  addSheet('input:focus + span { visibility: hidden; }');
  document.body.innerHTML = '<input aria-label="name" /><span>hint</span><button>other</button>';
  const hint = screen.getByText('hint');
  expect(getComputedStyle(hint).visibility).toBe('visible');
  screen.getByLabelText('name').focus();
  expect(getComputedStyle(hint).visibility).toBe('hidden');
  screen.getByRole('button').focus();
  expect(getComputedStyle(hint).visibility).toBe('visible');
});

it('sees a checkbox toggled by a click and by a script', () => {
  addSheet('input:checked + span { display: none; }');
  document.body.innerHTML = '<input type="checkbox" aria-label="hide" /><span>details</span>';
  const box = screen.getByRole<HTMLInputElement>('checkbox');
  const details = screen.getByText('details');
  expect(getComputedStyle(details).display).not.toBe('none');
  box.click();
  expect(getComputedStyle(details).display).toBe('none');
  box.checked = false;
  expect(getComputedStyle(details).display).not.toBe('none');
  box.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  expect(getComputedStyle(details).display).toBe('none');
});

it('sees a typed value', () => {
  addSheet('input:invalid + span { display: none; }');
  document.body.innerHTML = '<input placeholder="query" required /><span>clear</span>';
  const input = screen.getByPlaceholderText<HTMLInputElement>('query');
  const clear = screen.getByText('clear');
  expect(getComputedStyle(clear).display).toBe('none');
  input.value = 'cpu';
  expect(getComputedStyle(clear).display).not.toBe('none');
});

it('answers for an element outside the document as it is now', () => {
  addSheet('.gone { display: none; }');
  const loose = document.createElement('div');
  expect(getComputedStyle(loose).display).toBe('block');
  loose.className = 'gone';
  expect(getComputedStyle(loose).display).toBe('none');
  document.body.appendChild(loose);
  loose.className = '';
  expect(getComputedStyle(loose).display).toBe('block');
});
