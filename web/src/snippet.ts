// A search result's snippet: the message as plain text (its Markdown marks taken out, so no `**`
// or `#` shows) with the words searched for highlighted. Built from text nodes and <mark>s only.
import { h } from './dom';
import { stripMarker } from './markers';

/** Markdown to one line of its words: code fences, emphasis, headings, links and list marks go. */
export function plainText(markdown: string): string {
  return stripMarker(markdown)
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|\*|_|~~|`)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The snippet around the first match of `words` (case-insensitive), matches in <mark>. */
export function highlighted(text: string, words: string, width = 200): HTMLElement {
  const plain = plainText(text);
  const terms = words
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const lower = plain.toLowerCase();
  const first = Math.min(...terms.map((w) => lower.indexOf(w)).filter((i) => i >= 0), plain.length);
  const start = first > width / 2 && first < plain.length ? first - Math.floor(width / 4) : 0;
  const shown = (start > 0 ? '…' : '') + plain.slice(start, start + width);
  const out = h('span', { class: 'rec-snippet', testid: 'search-snippet' });
  const shownLower = shown.toLowerCase();
  let at = 0;
  while (at < shown.length) {
    let next = -1;
    let term = '';
    for (const w of terms) {
      const i = shownLower.indexOf(w, at);
      if (i >= 0 && (next < 0 || i < next)) [next, term] = [i, w];
    }
    if (next < 0) break;
    if (next > at) out.append(shown.slice(at, next));
    out.append(h('mark', {}, shown.slice(next, next + term.length)));
    at = next + term.length;
  }
  if (at < shown.length) out.append(shown.slice(at));
  return out;
}
