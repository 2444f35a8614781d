// A flow's dialog (seed 004) drawn as its thread: the phase as a badge, the first-level messages,
// and each sub-thread (a message's meta._thread) as a block under the message that holds it —
// closed until opened, with its own phase and its own sub-threads, to any depth. The page reads
// the thread from `GET /api/dialogs/{id}/thread`; the composer's answer to the flow comes back
// with the thread as the flow left it (`render`). While the flow works — on this page's message or
// on anyone's — the dialog's packets keep it live: `flow_thread_evt` when the thread changed (read
// again, one read at a time) and `flow_chunk_evt` with the main thread's reply as it streams.
import { rest } from './api';
import { h, tr } from './dom';
import { showError } from './errors';
import type { FlowMessage, FlowThread, FlowThreadView } from './flow_types';
import { setMarkdown } from './markdown';
import type { FlowChunkEvtPacket, FlowThreadEvtPacket } from './protocol.gen';

export class FlowView {
  readonly el: HTMLElement;
  private view: FlowThreadView | null = null;
  private working = false;
  /** What the last flow_thread_evt said: a step is under way (the user's, or anyone's). */
  private stepUnderWay = false;
  private loading = false;
  private loadAgain = false;
  /** The main thread's reply as it streams, until the thread is read again after it was saved. */
  private streamed = '';
  private streamSaved = false;

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

  /** A packet of this dialog: the thread changed, or its reply streams. */
  onPacket(p: FlowThreadEvtPacket | FlowChunkEvtPacket): void {
    if (p.type === 'flow_chunk_evt') {
      this.streamed += p.content;
      this.renderStreamed();
      return;
    }
    this.stepUnderWay = p.working;
    // A change after a streamed reply is its saving: the next read has it as a message.
    if (this.streamed) this.streamSaved = true;
    this.renderState();
    void this.reload();
  }

  /** Reads the thread again; a change told while a read is under way reads once more after it. */
  private async reload(): Promise<void> {
    if (this.loading) {
      this.loadAgain = true;
      return;
    }
    this.loading = true;
    try {
      do {
        this.loadAgain = false;
        const view = await rest.flowThread(this.dialogId);
        this.render(view);
      } while (this.loadAgain);
    } catch (e) {
      showError(e);
    } finally {
      this.loading = false;
    }
  }

  render(view: FlowThreadView): void {
    if (this.streamSaved) {
      this.streamed = '';
      this.streamSaved = false;
    }
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
    this.renderStreamed();
    this.renderState();
    this.changed();
  }

  /** The streaming reply as the last message of the main thread, while there is one. */
  private renderStreamed(): void {
    const list = this.el.querySelector<HTMLElement>('[data-testid="flow-thread"]');
    let live = this.el.querySelector<HTMLElement>('[data-testid="flow-live"]');
    if (!this.streamed || !list) {
      live?.remove();
      return;
    }
    if (!live) {
      live = h('div', { class: 'msg flow-msg assistant streaming', testid: 'flow-live', 'data-sender': 'bot' });
      list.append(live);
    }
    live.textContent = this.streamed;
  }

  private renderState(): void {
    const state = this.el.querySelector<HTMLElement>('[data-testid="flow-state"]');
    if (!state || !this.view) return;
    const key = this.working || this.stepUnderWay || this.view.working ? 'flowWorking' : this.view.completed ? 'flowCompleted' : 'flowWaits';
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
