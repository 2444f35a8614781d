// Markdown of model output: rendered by marked, then sanitised by DOMPurify before it touches the DOM.
import { Marked } from 'marked';
import DOMPurify from 'dompurify';
import { leadingMarker, markerBadge } from './markers';

const marked = new Marked({ gfm: true, breaks: true, async: false });

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

export function renderMarkdown(text: string): string {
  const html = marked.parse(text) as string;
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}

/** Renders `text` into `el`; a leading seed marker becomes a badge before it (markers.ts). */
export function setMarkdown(el: HTMLElement, text: string): void {
  const found = leadingMarker(text);
  el.innerHTML = renderMarkdown(found ? found.rest : text);
  if (found) el.prepend(markerBadge(found.key));
}
