// How a dialog is named and what state it is shown in, the same in the list, the tree and the head.
import { h } from './dom';
import { t, type Key } from './i18n';
import { stripMarker } from './markers';
import type { DialogSummary } from './types';

export function displayState(d: DialogSummary): Key {
  if (d.dead) return 'st_dead';
  if (d.status === 'completed') return 'st_completed';
  if (d.status === 'archived') return 'st_archived';
  if (d.generating) return 'st_generating';
  if ((d.openQuestions ?? 0) > 0) return 'st_waiting_human';
  if ((d.pendingSubdialogs ?? 0) > 0) return 'st_waiting_subdialogs';
  if (d.lastError) return 'st_failed';
  if (d.needsDrive) return 'st_queued';
  return 'st_idle';
}

export function statusBadge(d: DialogSummary, testid?: string): HTMLElement {
  const key = displayState(d);
  return h(
    'span',
    { class: `status st-${key.slice(3)}`, testid, 'data-status': key.slice(3), 'data-i18n': key },
    t(key),
  );
}

// A subdialog is told apart by its task (its title), then its Type B session, then how it was called.
export function dialogLabel(d: DialogSummary): string {
  const who = `@${d.memberId}`;
  if (d.kind === 'sub') {
    const what = stripMarker(d.title ?? '') || d.sessionSlug || d.callKind || '';
    const slug = d.title && d.sessionSlug ? ` (${d.sessionSlug})` : '';
    return what ? `${who} · ${what}${slug}` : who;
  }
  return d.title ? stripMarker(d.title) : who;
}
