// The page's one error banner: a failure is said for a few seconds, in the page's language.
import { ApiError } from './api';
import { byTestId } from './dom';
import { t } from './i18n';

let errTimer: number | undefined;

export function showError(e: unknown): void {
  if (e instanceof ApiError && e.status === 401) return; // the auth banner says it
  const el = byTestId('error-banner');
  el.textContent = `${t('error')}: ${e instanceof Error ? e.message : String(e)}`;
  el.hidden = false;
  window.clearTimeout(errTimer);
  errTimer = window.setTimeout(() => (el.hidden = true), 8000);
}
