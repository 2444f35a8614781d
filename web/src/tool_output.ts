// Tool arguments and results shown as they are (issue 24): never through Markdown, which ate
// `<cstdio>`, indentation and turned a `# note` into a page-sized heading. Monospace with the
// whitespace kept; a text that is one JSON value is pretty-printed; a long one is collapsed to a
// few lines with a button to expand it, and every block can be copied whole.
import { h, tr } from './dom';
import { t } from './i18n';

/** Past either limit a block starts collapsed. */
const COLLAPSE_LINES = 14;
const COLLAPSE_CHARS = 1600;

/** The text as shown: a JSON object or array pretty-printed, anything else unchanged. */
export function asShown(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value ?? {}, null, 2);
  const trimmed = value.trim();
  if (!/^[[{]/.test(trimmed)) return value;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return value;
  }
}

function isLong(text: string): boolean {
  if (text.length > COLLAPSE_CHARS) return true;
  let lines = 1;
  for (let i = 0; i < text.length && lines <= COLLAPSE_LINES; i++) if (text.charCodeAt(i) === 10) lines++;
  return lines > COLLAPSE_LINES;
}

/** Copies `text`; the Clipboard API needs focus and permission, so selecting the block is the fallback. */
async function copyText(text: string, pre: HTMLElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const range = document.createRange();
    range.selectNodeContents(pre);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    return false;
  }
}

/** A block of raw text (tool arguments or output) with copy, and expand when it is long. */
export function rawBlock(value: unknown, testid: string): HTMLElement {
  const text = asShown(value);
  const pre = h('pre', { class: 'raw', testid: `${testid}-text` }, text);
  const copy = h('button', { type: 'button', class: 'link', testid: `${testid}-copy` }, tr('copy'));
  copy.addEventListener('click', async (e) => {
    e.stopPropagation();
    const copied = await copyText(text, pre);
    copy.dataset.i18n = copied ? 'copied' : 'selected';
    copy.textContent = t(copied ? 'copied' : 'selected');
    window.setTimeout(() => {
      copy.dataset.i18n = 'copy';
      copy.textContent = t('copy');
    }, 1500);
  });
  const tools = h('div', { class: 'raw-tools' }, copy);
  const block = h('div', { class: 'raw-block', testid }, pre, tools);
  if (isLong(text)) {
    block.dataset.collapsed = 'true';
    const toggle = h('button', { type: 'button', class: 'link', testid: `${testid}-expand`, 'aria-expanded': 'false' }, tr('expand'));
    toggle.addEventListener('click', (e) => {
      e.stopPropagation();
      const collapsed = block.dataset.collapsed !== 'true';
      block.dataset.collapsed = String(collapsed);
      toggle.setAttribute('aria-expanded', String(!collapsed));
      const key = collapsed ? 'expand' : 'collapse';
      const label = toggle.firstElementChild as HTMLElement;
      label.dataset.i18n = key;
      label.textContent = t(key);
    });
    tools.prepend(toggle);
  }
  return block;
}
