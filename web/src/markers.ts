// Seed markers (docs/hierarchy.md): the first-line tags the protocol puts on a reply — 【最终完成】,
// 【FBR-直接回复】, 【FBR-仅推理】, 【tellaskBack】. They are protocol, not words for people: the page
// shows them as a badge in its own language, and leaves them out of titles.
import { h } from './dom';
import { t, type Key } from './i18n';

const MARKERS: readonly (readonly [string, Key])[] = [
  ['【最终完成】', 'mk_final'],
  ['【FBR-直接回复】', 'mk_fbr_direct'],
  ['【FBR-仅推理】', 'mk_fbr_reasoning'],
  ['【tellaskBack】', 'mk_tellask_back'],
];

/** The marker a text starts with (after blank space), and the text after it; or null. */
export function leadingMarker(text: string): { key: Key; rest: string } | null {
  const start = text.trimStart();
  for (const [marker, key] of MARKERS) {
    if (start.startsWith(marker)) return { key, rest: start.slice(marker.length).replace(/^[ \t]*\n?/, '') };
  }
  return null;
}

/** The text without its leading marker (for titles and one-line labels). */
export function stripMarker(text: string): string {
  return leadingMarker(text)?.rest.trim() ?? text;
}

/** The badge a marker is shown as; its words follow the language toggle. */
export function markerBadge(key: Key): HTMLElement {
  return h('span', { class: 'seed-marker', testid: 'seed-marker', 'data-marker': key.slice(3), 'data-i18n': key }, t(key));
}
