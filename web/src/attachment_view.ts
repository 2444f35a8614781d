// A user message's image or recording in the transcript, with the words that stand for it: an
// image's caption, a recording's transcription, and who wrote them when the team's captioner or
// transcriber did. The bytes are fetched through the REST client (the route needs the token) and
// shown from an object URL, which the transcript frees when it is thrown away.
import { rest } from './api';
import { h, tr } from './dom';
import type { MessageAttachment } from './types';

function sizeText(a: MessageAttachment): string {
  return [a.format, a.sizeKb !== undefined ? `${a.sizeKb} KB` : ''].filter(Boolean).join(', ');
}

/** `keep` takes every object URL made, to be revoked with the view. */
export function attachmentEl(a: MessageAttachment, keep: (objectUrl: string) => void): HTMLElement {
  const media =
    a.kind === 'image'
      ? h('img', { class: 'att-image', testid: 'attachment-media', alt: a.caption ?? '' })
      : h('audio', { class: 'att-audio', testid: 'attachment-media', controls: true, preload: 'metadata' });
  const words = a.kind === 'image' ? a.caption : a.transcription;
  const figure = h(
    'figure',
    { class: `attachment ${a.kind}`, testid: 'attachment', 'data-kind': a.kind, 'data-upload': a.uploadId },
    media,
    h(
      'figcaption',
      {},
      words
        ? h('span', { class: 'att-words', testid: a.kind === 'image' ? 'attachment-caption' : 'attachment-transcription' }, words)
        : h('span', { class: 'muted' }, tr(a.kind === 'image' ? 'noCaption' : 'noTranscription')),
      h('span', { class: 'muted small att-meta' }, ` ${sizeText(a)}`, a.describedBy ? ` · @${a.describedBy}` : ''),
    ),
  );
  rest
    .uploadBytes(a.url)
    .then((blob) => {
      const url = URL.createObjectURL(blob);
      keep(url);
      media.setAttribute('src', url);
      figure.dataset.loaded = 'true';
    })
    .catch(() => {
      figure.dataset.loaded = 'false';
      media.replaceWith(h('div', { class: 'muted small', testid: 'attachment-missing' }, tr('attachmentMissing')));
    });
  return figure;
}
