// The form that starts a root dialog: its first message, the member who answers it and an
// optional Taskdoc path. The server titles an untitled root from its first message.
import { rest, newMsgId, type NewDialog } from './api';
import { byTestId as q } from './dom';
import { showError } from './errors';
import type { DialogSummary } from './types';

function field(id: string): HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement {
  const el = q(id);
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el;
  throw new Error(`${id} is not a form field`);
}

export function wireNewDialogForm(started: (d: DialogSummary) => Promise<void>): void {
  q('new-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const content = field('new-content').value.trim();
    if (!content) return;
    const body: NewDialog = { content, msgId: newMsgId() };
    const member = field('new-member').value;
    if (member) body.memberId = member;
    const taskDocPath = field('new-taskdoc').value.trim();
    if (taskDocPath) body.taskDocPath = taskDocPath;
    const btn = q('new-start');
    btn.toggleAttribute('disabled', true);
    try {
      const dialog = await rest.createDialog(body);
      field('new-content').value = '';
      field('new-taskdoc').value = '';
      await started(dialog);
    } catch (err) {
      showError(err);
    } finally {
      btn.toggleAttribute('disabled', false);
    }
  });
}
