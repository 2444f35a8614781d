// A tool's result as a card: the tool's name and whether it worked, a line that sums up the
// output (an object's plain fields, or a text's size), then the output itself as it is
// (tool_output.ts). Words of members and humans are not tool output: transcript.ts draws those.
import { h, tr } from './dom';
import { rawBlock } from './tool_output';

const MAX_FIELDS = 6;
const MAX_VALUE = 60;

function objectOf(text: string): Record<string, unknown> | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value)) : null;
  } catch {
    return null;
  }
}

const short = (text: string) => (text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text);

const isPlain = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The plain (string, number, boolean) fields of an object and of the objects directly in it. */
function plainFields(obj: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (isPlain(value)) out.push([key, value]);
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, v] of Object.entries(value)) if (isPlain(v)) out.push([`${key}.${inner}`, v]);
    }
  }
  return out;
}

/** An object's plain fields, or its keys when it has none. */
function fieldsEl(obj: Record<string, unknown>): HTMLElement {
  const dl = h('dl', { class: 'card-fields', testid: 'tool-card-fields' });
  const plain = plainFields(obj);
  const shown = plain.length > 0 ? plain : Object.entries(obj);
  for (const [key, value] of shown.slice(0, MAX_FIELDS)) {
    const text = isPlain(value) ? short(String(value)) : Array.isArray(value) ? `[${value.length}]` : '{…}';
    dl.append(h('dt', {}, key), h('dd', { 'data-key': key }, text));
  }
  return dl;
}

function textSummary(text: string): HTMLElement {
  const lines = text === '' ? 0 : text.split('\n').length;
  const bytes = new TextEncoder().encode(text).length;
  return h('div', { class: 'muted small card-summary', testid: 'tool-card-summary' }, `${lines} `, tr(lines === 1 ? 'line' : 'lines'), ` · ${bytes} B`);
}

export function toolResultCard(callId: string, name: string, ok: boolean, content: string): HTMLElement {
  const obj = objectOf(content);
  return h(
    'div',
    { class: `result card ${ok ? 'ok' : 'fail'}`, testid: 'tool-result', 'data-tool': name, 'data-call-id': callId || null },
    h(
      'div',
      { class: 'call-head' },
      h('span', { class: 'icon' }, ok ? '✓' : '✗'),
      tr('toolResult'),
      ' ',
      h('code', {}, name),
      ok ? null : tr('failed', 'tag fail'),
    ),
    obj ? fieldsEl(obj) : textSummary(content),
    rawBlock(content, 'tool-output'),
  );
}
