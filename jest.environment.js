// Copyright 2026 The Emberscope Authors
// SPDX-License-Identifier: Apache-2.0

// Jest's jsdom environment, with jsdom's computed styles kept until the document changes.
//
// jsdom 20 (Jest 29's) answers getComputedStyle by matching the element against every rule of every
// style sheet, and then again for each of its ancestors, to inherit `visibility`. Grafana's
// components put thousands of emotion rules in the document, and Testing Library's *ByRole queries
// ask for the style of every element and each of its ancestors (is it hidden?), as Floating UI does
// when it places a menu: that matching was most of a component test's time. jsdom 21.1 keeps such
// answers itself; this does the same for jsdom 20, and nothing with another jsdom.
//
// What the answers depend on is what selectors see, so they are dropped when any of these happens:
// a DOM change anywhere in the document (class and inline style are attributes), a style sheet or
// rule added or removed, the focused element changing, an event dispatched (a click toggles a
// checkbox), or a script setting the state of a form control (React sets `checked` and `value` as
// properties). Elements outside the document, and pseudo-elements, are not kept.
const { TestEnvironment } = require('jest-environment-jsdom');
const jsdomVersion = require('jsdom/package.json').version;

const PATCHED_JSDOM = /^20\./.test(jsdomVersion);

/** document impl → its kept answers (one jsdom module serves every test file of a worker). */
const cachesByDocument = new WeakMap();

if (PATCHED_JSDOM) {
  // Must run before jsdom's Window module loads: it takes this function when it loads.
  const styleRules = require('jsdom/lib/jsdom/living/helpers/style-rules.js');
  const matchEveryRule = styleRules.forEachMatchingSheetRuleOfElement;
  styleRules.forEachMatchingSheetRuleOfElement = (element, handleRule) => {
    const cache = cachesByDocument.get(element._ownerDocument);
    if (cache === undefined || !cache.keeps(element)) {
      return matchEveryRule(element, handleRule);
    }
    cache.forgetIfChanged();
    let rules = cache.rules.get(element);
    if (rules === undefined) {
      rules = [];
      matchEveryRule(element, (rule) => rules.push(rule));
      cache.rules.set(element, rules);
    }
    rules.forEach(handleRule);
  };
}

class StyleCache {
  constructor(window) {
    this.window = window;
    this.document = window.document;
    this.forget();
    this.focused = this.document.activeElement;
    this.sheetSize = this.countRules();
    this.observer = new window.MutationObserver(() => this.forget());
    this.observer.observe(this.document, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  forget() {
    this.rules = new WeakMap(); // element impl → the rules that match it
    this.styles = new WeakMap(); // element → its getComputedStyle answer
  }

  /** Drops the kept answers when the document may have changed since they were computed. */
  forgetIfChanged() {
    const size = this.countRules();
    const focused = this.document.activeElement;
    if (this.observer.takeRecords().length > 0 || focused !== this.focused || size !== this.sheetSize) {
      this.forget();
      this.focused = focused;
      this.sheetSize = size;
    }
  }

  countRules() {
    let n = 0;
    for (const sheet of this.document.styleSheets) {
      n += 1 + sheet.cssRules.length;
    }
    return n;
  }

  /** Whether answers for the element impl are kept: only in the document, where changes are seen. */
  keeps(element) {
    return element.getRootNode({}) === element._ownerDocument;
  }
}

function installStyleCache(window) {
  const { implForWrapper } = require('jsdom/lib/jsdom/living/generated/utils.js');
  const cache = new StyleCache(window);
  cachesByDocument.set(implForWrapper(window.document), cache);

  const getComputedStyle = window.getComputedStyle;
  window.getComputedStyle = function (element, pseudoElement) {
    const plain = pseudoElement === undefined || pseudoElement === null || pseudoElement === '';
    if (!plain || !(element instanceof window.Element) || !cache.keeps(implForWrapper(element))) {
      return getComputedStyle.call(window, element, pseudoElement);
    }
    cache.forgetIfChanged();
    let style = cache.styles.get(element);
    if (style === undefined) {
      style = getComputedStyle.call(window, element);
      cache.styles.set(element, style);
    }
    return style;
  };

  const forgetAround = (proto, name) => {
    const method = proto[name];
    proto[name] = function (...args) {
      cache.forget();
      try {
        return method.apply(this, args);
      } finally {
        cache.forget();
      }
    };
  };
  forgetAround(window.EventTarget.prototype, 'dispatchEvent');
  forgetAround(window.HTMLElement.prototype, 'click');

  const forgetOnSet = (proto, name) => {
    const property = Object.getOwnPropertyDescriptor(proto, name);
    Object.defineProperty(proto, name, {
      ...property,
      set(value) {
        cache.forget();
        property.set.call(this, value);
      },
    });
  };
  for (const name of ['value', 'checked', 'indeterminate']) {
    forgetOnSet(window.HTMLInputElement.prototype, name);
  }
  forgetOnSet(window.HTMLTextAreaElement.prototype, 'value');
  forgetOnSet(window.HTMLSelectElement.prototype, 'value');
  forgetOnSet(window.HTMLSelectElement.prototype, 'selectedIndex');
  forgetOnSet(window.HTMLOptionElement.prototype, 'selected');
}

class CachedStyleEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    if (PATCHED_JSDOM) {
      installStyleCache(this.global);
    }
  }
}

module.exports = CachedStyleEnvironment;
