// "Fork from here" on each message of a root's transcript (docs/fork.md, web/README.md): a new
// root tree that shares the history through the message's event, opened at once. A point the server
// refuses (inside an unfinished step: a tool call without its result, a generation under way) is
// said beside the message, with the nearest valid points the server names, until dismissed.
import { rest } from './api';
import { h, tr } from './dom';
import { showErrorAt } from './errors';
import type { ForkedSummary } from './eval_types';
import { t } from './i18n';
import { diffHref, dialogHref } from './route';
import type { DialogSummary } from './types';

/** Adds the action to `el` (after it, for a folded tool call whose body would hide it). */
export function addForkAction(el: HTMLElement, rootId: string, seq: number, forked: (id: string) => void): void {
  if (el.dataset.forkSeq) return;
  el.dataset.forkSeq = String(seq);
  const error = h('div', { class: 'form-error fork-error', testid: 'fork-error', role: 'alert' });
  error.hidden = true;
  const button = h(
    'button',
    { type: 'button', class: 'link fork-btn', testid: 'fork-here', 'data-seq': seq, 'aria-label': `${t('forkHereLabel')} ${seq}` },
    '↱ ',
    tr('forkHere'),
  );
  button.addEventListener('click', () => {
    button.disabled = true;
    rest
      .fork(rootId, seq)
      .then((d) => forked(d.id))
      .catch((e) => showErrorAt(error, e))
      .finally(() => (button.disabled = false));
  });
  // Beside a result's head (no height added); else on a line of its own under the message.
  const head = el.tagName === 'DETAILS' ? null : el.querySelector<HTMLElement>(':scope > .call-head');
  if (head) {
    head.append(h('span', { class: 'head-actions' }, button));
    el.append(error);
  } else if (el.tagName === 'DETAILS') {
    el.after(h('div', {}, h('div', { class: 'msg-actions' }, button), error));
  } else {
    el.append(h('div', { class: 'msg-actions' }, button), error);
  }
}

/** A root's message gets the action at its event (`seq`); a subdialog's none: a tree forks at its root. */
export function forkableAt(el: HTMLElement, dialog: DialogSummary, seq: number | undefined, forked: (id: string) => void): HTMLElement {
  if (dialog.kind === 'root' && typeof seq === 'number' && seq > 0) addForkAction(el, dialog.id, seq, forked);
  return el;
}

/** Where a forked root came from, with the side-by-side view of its origin beside it. */
export function forkOriginNote(dialog: ForkedSummary): HTMLElement | null {
  const origin = dialog.forkedFrom;
  if (!origin) return null;
  return h(
    'div',
    { class: 'tx-note fork-origin', testid: 'fork-origin' },
    tr('forkedFrom'),
    ' ',
    h('a', { href: dialogHref(origin.dialog), testid: 'fork-origin-link' }, origin.dialog),
    ` · ${t('forkedAt')} ${origin.at} · `,
    h('a', { href: diffHref(origin.dialog, dialog.id), testid: 'fork-compare' }, tr('forkCompare')),
  );
}
