// The open dialog's header: its name, its state, and Stop / Resume when the server says they apply.
import { byTestId as q } from './dom';
import { t, type Key } from './i18n';
import { renderReplayAction } from './replay_action';
import { dialogLabel, statusBadge } from './status_label';
import type { DialogSummary } from './types';

function resumeReasonKey(reason: DialogSummary['resumeReason']): Key {
  if (reason === 'failed') return 'resumeFailed';
  if (reason === 'unanswered_calls') return 'resumeCalls';
  if (reason === 'unread_input') return 'resumeInput';
  return 'resumeInterrupted';
}

/** `flowCompleted`: the open dialog is a flow's whose main flow is over (seed 004): a completed
 *  flow is shown as completed and offers no "Mark done" (there is nothing left to finish). */
export function renderDialogHead(d: DialogSummary | null, flowCompleted = false): void {
  q('dialog-head').hidden = !d;
  renderReplayAction(d);
  if (!d) return;
  const text = `${dialogLabel(d)}${d.kind === 'root' && d.title ? ` · @${d.memberId}` : ''}`;
  q('dialog-title').textContent = text;
  q('dialog-title').title = d.title ? `${d.title} · @${d.memberId}` : text; // the whole title, however narrow the header
  q('dialog-status').replaceWith(statusBadge(flowCompleted ? { ...d, status: 'completed' } : d, 'dialog-status'));
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
  q('btn-complete').hidden = !root || d.status !== 'running' || flowCompleted;
  q('btn-archive').hidden = !root || d.status === 'archived';
  q('btn-reopen').hidden = !root || d.status === 'running';
}

/** The top bar's run control: how many dialogs run, and how many resume would drive. */
export function renderRunCounts(counts: { running: number; resumable: number } | undefined): void {
  const running = counts?.running ?? 0;
  const resumable = counts?.resumable ?? 0;
  q('running-count').textContent = String(running);
  q('resumable-count').textContent = String(resumable);
  // A zero is not an alarm: only counts above zero wear the coloured badge.
  for (const [id, n] of [['running-count', running], ['resumable-count', resumable]] as const) {
    q(id).classList.toggle('zero', n === 0);
    q(id).dataset.count = String(n);
  }
  q('btn-stop-all').toggleAttribute('disabled', running === 0);
  q('btn-resume-all').toggleAttribute('disabled', resumable === 0);
  q('btn-stop-all').title = t('stopAllTitle');
  q('btn-resume-all').title = t('resumeAllTitle');
}
