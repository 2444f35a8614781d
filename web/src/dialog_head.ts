// The open dialog's header: its name, its state, and Stop / Resume when the server says they apply.
import { byTestId as q } from './dom';
import { t, type Key } from './i18n';
import { dialogLabel, statusBadge } from './status_label';
import type { DialogSummary } from './types';

function resumeReasonKey(reason: DialogSummary['resumeReason']): Key {
  if (reason === 'failed') return 'resumeFailed';
  if (reason === 'unanswered_calls') return 'resumeCalls';
  if (reason === 'unread_input') return 'resumeInput';
  return 'resumeInterrupted';
}

export function renderDialogHead(d: DialogSummary | null): void {
  q('dialog-head').hidden = !d;
  if (!d) return;
  q('dialog-title').textContent = `${dialogLabel(d)}${d.kind === 'root' && d.title ? ` · @${d.memberId}` : ''}`;
  q('dialog-status').replaceWith(statusBadge(d, 'dialog-status'));
  const stop = q('btn-interrupt');
  stop.toggleAttribute('disabled', !d.generating);
  stop.title = t(d.generating ? 'stopApplies' : 'stopNotApplies');
  // Resume only when the server says it would do something (a stopped or failed drive, calls
  // without results, unread input): an idle dialog would just repeat its last answer.
  const resume = q('btn-resume');
  resume.toggleAttribute('disabled', d.resumable !== true || !!d.generating);
  resume.dataset.reason = d.resumeReason ?? '';
  resume.title = t(d.resumable === true ? resumeReasonKey(d.resumeReason) : 'resumeNotApplies');
}
