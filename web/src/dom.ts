// Tiny DOM helpers.
import { t, type Key } from './i18n';

type Attrs = Record<string, string | number | boolean | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    else if (k === 'testid') el.dataset.testid = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return el;
}

/** A span whose text follows the language toggle. */
export function tr(key: Key, cls?: string): HTMLSpanElement {
  const el = h('span', { class: cls, 'data-i18n': key }, t(key));
  return el;
}

export function $(sel: string, root: ParentNode = document): HTMLElement {
  const el = root.querySelector<HTMLElement>(sel);
  if (!el) throw new Error('missing element ' + sel);
  return el;
}

export function fmtArgs(args: unknown): string {
  if (typeof args === 'string') {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  return JSON.stringify(args ?? {}, null, 2);
}

export function argsObject(args: unknown): Record<string, unknown> {
  if (typeof args === 'string') {
    try {
      const v = JSON.parse(args);
      return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
}

/** The page's element with `data-testid="id"` (the layout names every element the code drives). */
export function byTestId(id: string): HTMLElement {
  return $(`[data-testid="${id}"]`);
}

/** Says `text` to a screen reader through the page's polite live region (new answers, questions). */
export function announce(text: string): void {
  const el = byTestId('announcer');
  // The same words twice in a row are announced again only if the region changes: clear it first.
  el.textContent = '';
  window.setTimeout(() => (el.textContent = text), 50);
}
