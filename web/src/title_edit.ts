// Renaming a dialog from its header: PUT /api/dialogs/{id}/title {title} (docs/server.md). The
// page checks what the server would refuse (empty, over 200 characters, control characters) so
// the message comes at once and names the field once; the server's own refusal is shown the same
// way, beside the field. Escape or Cancel leaves the title as it was.
import { rest } from './api';
import { byTestId as q } from './dom';
import { showErrorAt } from './errors';
import { t } from './i18n';
import type { DialogSummary } from './types';

export const TITLE_MAX = 200;

/** Why the server would refuse `title`, in the page's language; null when it would take it. */
export function titleProblem(title: string): string | null {
  if (title.trim() === '') return t('titleEmpty');
  // C0 and C1 control characters, DEL among them: what the server refuses in a title.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(title)) return t('titleControl');
  const length = [...title].length;
  if (length > TITLE_MAX) return t('titleTooLong').replace('N', String(length));
  return null;
}

export interface TitleHost {
  current(): DialogSummary | null;
  renamed(d: DialogSummary): void;
}

function input(): HTMLInputElement {
  const el = q('title-input');
  if (!(el instanceof HTMLInputElement)) throw new Error('title-input is not an input');
  return el;
}

function close(): void {
  q('title-form').hidden = true;
  q('title-error').hidden = true;
  q('title-edit').hidden = false;
  q('dialog-title').hidden = false;
  q('title-edit').focus();
}

export function wireTitleEdit(host: TitleHost): void {
  q('title-edit').addEventListener('click', () => {
    const d = host.current();
    if (!d) return;
    input().value = d.title ?? '';
    q('title-form').hidden = false;
    q('title-edit').hidden = true;
    q('dialog-title').hidden = true;
    input().focus();
    input().select();
  });
  q('title-cancel').addEventListener('click', close);
  q('title-form').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close();
  });
  q('title-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const d = host.current();
    if (!d) return;
    const title = input().value;
    const problem = titleProblem(title);
    if (problem) {
      showErrorAt(q('title-error'), new Error(problem));
      return;
    }
    q('title-save').toggleAttribute('disabled', true);
    try {
      const saved = await rest.setTitle(d.id, title.trim());
      close();
      host.renamed({ ...d, title: saved.title });
    } catch (err) {
      showErrorAt(q('title-error'), err);
    } finally {
      q('title-save').toggleAttribute('disabled', false);
    }
  });
}

/** Leaves the rename form (another dialog was opened). */
export function closeTitleEdit(): void {
  if (!q('title-form').hidden) close();
}
