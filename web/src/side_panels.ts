// The side panels of the open dialog: its reminders, the Type B registry of its root, and the
// root's Taskdoc. Drawn from REST when a dialog opens or its hierarchy changes; reminders also
// from reminders_update_evt.
import { rest } from './api';
import { $, h, tr } from './dom';
import type { DialogSummary, RegistryEntry, Reminder, Taskdoc } from './types';

const box = (id: string) => $(`[data-testid="${id}"]`);

/**
 * Fetches and draws the panels of `d` (`root`: its root's summary, when known). `stillCurrent`
 * says whether `d` is still open once the answers arrive; `open` follows a registry entry.
 */
export async function fetchSidePanels(
  d: DialogSummary,
  root: DialogSummary | undefined,
  stillCurrent: () => boolean,
  open: (id: string) => void,
): Promise<void> {
  const rootId = d.rootId || d.id;
  const [rem, reg, doc] = await Promise.allSettled([
    rest.reminders(d.id),
    rest.registry(rootId),
    // Only a root created with a Taskdoc has one: asking for it otherwise is a request that fails.
    root?.taskDocPath ? rest.taskdoc(rootId) : Promise.resolve(null),
  ]);
  if (!stillCurrent()) return;
  renderReminders(rem.status === 'fulfilled' ? rem.value : []);
  renderRegistry(reg.status === 'fulfilled' ? reg.value : [], open);
  renderTaskdoc(doc.status === 'fulfilled' ? doc.value : null);
}

export function renderReminders(list: Reminder[]): void {
  const panel = box('reminders');
  panel.replaceChildren();
  if (list.length === 0) {
    panel.append(h('div', { class: 'muted' }, tr('noReminders')));
    return;
  }
  const ol = h('ol', { class: 'reminders' });
  // Numbered by position: REST numbers reminders from 1 and reminders_update_evt from 0.
  for (const r of list) ol.append(h('li', { testid: 'reminder', 'data-index': r.index }, r.content));
  panel.append(ol);
}

function renderRegistry(list: RegistryEntry[], open: (id: string) => void): void {
  const panel = box('registry');
  panel.replaceChildren();
  if (list.length === 0) {
    panel.append(h('div', { class: 'muted' }, tr('noRegistry')));
    return;
  }
  const ul = h('ul', { class: 'registry' });
  for (const e of list) {
    const a = h('a', { href: '#', testid: 'registry-entry', 'data-id': e.subdialogId }, `@${e.agentId} · ${e.sessionSlug}`);
    a.addEventListener('click', (ev) => {
      ev.preventDefault();
      open(e.subdialogId);
    });
    ul.append(h('li', {}, a, e.locked ? ' 🔒' : ''));
  }
  panel.append(ul);
}

function renderTaskdoc(doc: Taskdoc | null): void {
  const panel = box('taskdoc');
  panel.replaceChildren();
  if (!doc) {
    panel.append(h('div', { class: 'muted' }, tr('noTaskdoc')));
    return;
  }
  panel.append(h('div', { class: 'muted small', testid: 'taskdoc-path' }, doc.path));
  for (const key of ['goals', 'constraints', 'progress'] as const) {
    const text = doc.sections?.[key];
    if (!text) continue;
    panel.append(h('h3', {}, tr(key)), h('pre', { class: 'taskdoc-section', testid: `taskdoc-${key}` }, text));
  }
}
