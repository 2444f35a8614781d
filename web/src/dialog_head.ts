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
  // Seed 001's root lifecycle: running → completed → archived, and reopen.
  const root = d.kind === 'root';
  q('btn-complete').hidden = !root || d.status !== 'running';
  q('btn-archive').hidden = !root || d.status === 'archived';
  q('btn-reopen').hidden = !root || d.status === 'running';
}

/** The top bar's run control: how many dialogs run, and how many resume would drive. */
export function renderRunCounts(counts: { running: number; resumable: number } | undefined): void {
  const running = counts?.running ?? 0;
  const resumable = counts?.resumable ?? 0;
  q('running-count').textContent = String(running);
  q('resumable-count').textContent = String(resumable);
  q('btn-stop-all').toggleAttribute('disabled', running === 0);
  // A phone's top bar has room for run control only when there is something to control.
  q('btn-stop-all').closest<HTMLElement>('.run-control')!.dataset.idle = String(running === 0 && resumable === 0);
  q('btn-resume-all').toggleAttribute('disabled', resumable === 0);
  q('btn-stop-all').title = t('stopAllTitle');
  q('btn-resume-all').title = t('resumeAllTitle');
}
