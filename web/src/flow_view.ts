// A flow's dialog (seed 004) drawn as its thread: the phase as a badge, the first-level messages,
// and each sub-thread (a message's meta._thread) as a block under the message that holds it —
// closed until opened, with its own phase and its own sub-threads, to any depth. The page reads
// the thread from `GET /api/dialogs/{id}/thread`; the composer's answer to the flow comes back
// with the thread as the flow left it (`render`).
import { rest } from './api';
import { h, tr } from './dom';
import type { FlowMessage, FlowThread, FlowThreadView } from './flow_types';
import { setMarkdown } from './markdown';

export class FlowView {
  readonly el: HTMLElement;
  private view: FlowThreadView | null = null;
  private working = false;

  constructor(
    readonly dialogId: string,
    private readonly changed: () => void,
  ) {
    this.el = h('div', { class: 'flow-view', testid: 'flow-view', 'data-dialog': dialogId });
  }

  async load(): Promise<void> {
    this.render(await rest.flowThread(this.dialogId));
  }

  /** Whether the flow takes no more messages. */
  get completed(): boolean {
    return this.view?.completed ?? false;
  }

  /** While the flow works on the user's message (the POST answers once it waits again). */
  setWorking(working: boolean): void {
    this.working = working;
    this.renderState();
  }

  render(view: FlowThreadView): void {
    this.view = view;
    // Sub-threads the user opened stay open when the thread is drawn again.
    const open = new Set([...this.el.querySelectorAll<HTMLDetailsElement>('details.flow-sub[open]')].map((d) => d.dataset.path));
    const head = h(
      'div',
      { class: 'flow-head' },
      h('span', { class: 'flow-label' }, tr('flowPhase')),
      h('span', { class: 'badge flow-phase', testid: 'flow-phase', 'data-phase': view.phase }, view.phase),
      h('span', { class: 'flow-state', testid: 'flow-state' }),
    );
    this.el.replaceChildren(head, renderThread(view.thread, view.path, open));
    this.renderState();
    this.changed();
  }

  private renderState(): void {
    const state = this.el.querySelector<HTMLElement>('[data-testid="flow-state"]');
    if (!state || !this.view) return;
    const key = this.working || this.view.working ? 'flowWorking' : this.view.completed ? 'flowCompleted' : 'flowWaits';
    state.replaceChildren(tr(key));
    this.el.dataset.state = key;
  }
}

function childPath(parent: string, index: number): string {
  return `${parent ? `${parent}.` : ''}messages.${index}.meta._thread`;
}

function renderThread(thread: FlowThread, path: string, open: Set<string | undefined>): HTMLElement {
  const list = h('div', { class: 'tx-list flow-thread', testid: 'flow-thread', 'data-path': path });
  thread.messages.forEach((message, index) => {
    list.append(renderMessage(message));
    const sub = message.meta?._thread;
    if (sub) list.append(renderSubThread(sub, childPath(path, index), open));
  });
  return list;
}

function renderMessage(message: FlowMessage): HTMLElement {
  const body = h('div', { class: 'md' });
  setMarkdown(body, message.text);
  return h(
    'div',
    {
      class: `msg flow-msg ${message.sender === 'user' ? 'user' : 'assistant'}${message.isVirtual ? ' virtual' : ''}`,
      testid: 'flow-msg',
      'data-sender': message.sender,
      'data-id': message.id,
    },
    body,
  );
}

function renderSubThread(sub: FlowThread, path: string, open: Set<string | undefined>): HTMLElement {
  const phase = sub.settings.briefStatus.phase;
  const details = h(
    'details',
    { class: 'flow-sub', testid: 'flow-subthread', 'data-path': path, open: open.has(path) },
    h(
      'summary',
      { testid: 'flow-sub-summary' },
      tr('flowSubThread'),
      ' ',
      h('span', { class: 'badge small flow-phase', testid: 'flow-sub-phase', 'data-phase': phase }, phase),
      h('span', { class: 'flow-count' }, ` · ${sub.messages.length}`),
    ),
  );
  details.append(renderThread(sub, path, open));
  return details;
}
