// Errors, said until the user dismisses them: the page's banner for what has no place of its own,
// and `showErrorAt` for a failure beside the control that caused it (the dialog head, a form).
// The server's messages already name the field ("title: …"), so nothing is prefixed to them but
// the word "Error".
import { ApiError } from './api';
import { byTestId, h } from './dom';
import { errorCodeText, lang, t } from './i18n';

/**
 * What a failure says. The server writes its messages in English, naming the field and the value
 * verbatim; in Chinese its error code is said first in Chinese, then that message (docs/web-ui.md,
 * "Language").
 */
export const messageOf = (e: unknown): string => {
  const text = e instanceof Error ? e.message : String(e);
  return e instanceof ApiError && lang() === 'zh' ? `${errorCodeText(e.code)}：${text}` : text;
};

export function showError(e: unknown): void {
  if (e instanceof ApiError && e.status === 401) return; // the auth banner says it
  byTestId('error-text').textContent = `${t('error')}: ${messageOf(e)}`;
  byTestId('error-banner').hidden = false;
}

export function wireErrorBanner(): void {
  byTestId('error-dismiss').addEventListener('click', () => (byTestId('error-banner').hidden = true));
}

/** Says `e` in `el` (a `.form-error` beside its cause) with a close button, until dismissed. */
export function showErrorAt(el: HTMLElement, e: unknown): void {
  if (e instanceof ApiError && e.status === 401) return;
  const close = h('button', { type: 'button', class: 'dismiss link', testid: 'error-dismiss-here', 'aria-label': t('dismiss'), title: t('dismiss') }, '×');
  close.addEventListener('click', () => (el.hidden = true));
  el.replaceChildren(h('span', {}, messageOf(e)), ' ', close);
  el.hidden = false;
}
