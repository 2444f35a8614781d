// The transcript of one dialog: its messages from REST, then its live events in arrival order.
// Only this dialog's view data is kept; switching dialogs throws the view away.
import { rest } from './api';
import { argsObject, fmtArgs, h, tr } from './dom';
import { setMarkdown } from './markdown';
import { attachmentEl } from './attachment_view';
import { forkableAt, forkOriginNote } from './fork_action';
import { toolResultCard } from './tool_card';
import { rawBlock } from './tool_output';
import type { ForkedSummary } from './eval_types';
import type { DialogSummary, Message, MessageAttachment, Packet } from './types';

const TELLASK_NAMES = new Set(['tellask', 'tellaskSessionless', 'tellaskBack', 'freshBootsReasoning']);

export interface TranscriptHost {
  openDialog(id: string): void;
  /** The open question asked by this call, if any (to offer "Answer"). */
  questionForCall(dialogId: string, callId: string): { id: string } | null;
  startAnswer(dialogId: string, callId: string): void;
  /** The transcript was (re)fetched: anything else shown about the dialog may be stale too. */
  loaded(dialogId: string): void;
}

interface Segment {
  el: HTMLElement;
  body: HTMLElement;
  text: string;
  kind: 'thinking' | 'saying';
}

interface Gen {
  el: HTMLElement;
  live: boolean; // built from stream events (not yet confirmed by generating_finish_evt)
  segments: Segment[];
  open: Segment | null;
}

export class TranscriptView {
  readonly el: HTMLElement;
  private list: HTMLElement;
  private loaded = false;
  private loadId = 0;
  private buffer: Packet[] = [];
  private maxLogSeq = 0;
  private gen: Gen | null = null;
  private callEls = new Map<string, HTMLElement>();
  private resultEls = new Map<string, HTMLElement>();
  private renderQueued = new Set<Segment>();
  private rafId = 0;
  private disposed = false;
  private objectUrls: string[] = []; // attachments' bytes, freed with the view

  constructor(
    readonly dialog: ForkedSummary,
    private readonly host: TranscriptHost,
  ) {
    this.list = h('div', { class: 'tx-list', testid: 'transcript-list' });
    this.el = h('div', { class: 'transcript', testid: 'transcript', 'data-dialog': dialog.id }, this.list);
  }

  dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.rafId);
    for (const url of this.objectUrls) URL.revokeObjectURL(url);
    this.objectUrls = [];
  }

  /** (Re)loads the current course over REST, then plays the events that arrived meanwhile. */
  async load(): Promise<void> {
    const loadId = ++this.loadId;
    this.loaded = false; // from here on, events wait in the buffer until the transcript is drawn
    const data = await rest.transcript(this.dialog.id);
    if (this.disposed || loadId !== this.loadId) return; // a newer load (resync) took over
    this.list.replaceChildren();
    this.callEls.clear();
    this.resultEls.clear();
    this.gen = null;
    this.maxLogSeq = 0;
    const origin = forkOriginNote(this.dialog);
    if (origin) this.list.append(origin);
    if (data.total > data.messages.length) {
      this.list.append(h('div', { class: 'tx-note' }, tr('loadOlder')));
    }
    if (data.courses > 1) this.list.append(this.courseDivider(data.course));
    for (const m of data.messages) {
      this.renderMessage(m);
      if (typeof m.seq === 'number') this.maxLogSeq = Math.max(this.maxLogSeq, m.seq);
    }
    this.loaded = true;
    this.scrollToEnd(true);
    this.host.loaded(this.dialog.id);
    this.flush();
    void this.linkTellasks();
  }

  /** Plays buffered events in order; a `resync` among them starts a new load and leaves the rest buffered. */
  private flush(): void {
    while (this.loaded && this.buffer.length > 0) this.apply(this.buffer.shift()!);
  }

  onEvent(p: Packet): void {
    if (!this.loaded) {
      this.buffer.push(p);
      return;
    }
    this.apply(p);
  }

  callElement(callId: string): HTMLElement | undefined {
    return this.callEls.get(callId);
  }

  /** Re-evaluates the "Answer" buttons on askHuman calls after the question list changed. */
  refreshQuestions(): void {
    for (const [callId, el] of this.callEls) {
      if (el.dataset.name !== 'askHuman') continue;
      const btn = el.querySelector<HTMLElement>('.answer-btn');
      const open = !!this.host.questionForCall(this.dialog.id, callId);
      if (btn) btn.hidden = !open;
      el.classList.toggle('open-question', open);
    }
  }

  // ---- rendering of REST messages ----

  private renderMessage(m: Message): void {
    if (m.role === 'user') {
      this.list.append(this.forkable(this.userEl(m.content ?? '', m.origin, m.attachment), m.seq));
    } else if (m.role === 'assistant') {
      const gen = this.newGen(false);
      if (m.thinking) this.addSegment(gen, 'thinking', m.thinking, false);
      if (m.content) this.addSegment(gen, 'saying', m.content, false);
      if (m.interrupted) gen.el.append(this.interruptedEl());
      const callsOnly = gen.segments.length === 0 && !m.interrupted;
      if (callsOnly) gen.el.remove(); // a turn of tool calls only: its first call carries the action
      else this.forkable(gen.el, m.seq);
      this.gen = null;
      const calls = (m.toolCalls ?? []).map((c) => this.appendCall(c.id, c.name, c.arguments));
      if (callsOnly && calls[0]) this.forkable(calls[0], m.seq);
    } else if (m.role === 'tool') {
      this.forkable(this.appendResult(m.toolCallId ?? '', m.toolName ?? '', m.ok !== false, m.content ?? '', null), m.seq);
    }
  }

  private forkable<T extends HTMLElement | undefined>(el: T, seq: number | undefined): T {
    if (el) forkableAt(el, this.dialog, seq, (id) => this.host.openDialog(id));
    return el;
  }

  private userEl(content: string, origin?: string, attachment?: MessageAttachment): HTMLElement {
    const body = h('div', { class: 'md' });
    setMarkdown(body, content);
    return h(
      'div',
      { class: 'msg user', testid: 'msg-user', 'data-origin': origin ?? '' },
      origin && origin !== 'user' ? h('div', { class: 'msg-origin' }, origin) : null,
      attachment ? attachmentEl(attachment, (url) => this.objectUrls.push(url)) : null,
      content || !attachment ? body : null,
    );
  }

  private interruptedEl(): HTMLElement {
    return h('div', { class: 'tag warn', testid: 'interrupted' }, tr('interrupted'));
  }

  private courseDivider(course: number): HTMLElement {
    return h('div', { class: 'course-divider', testid: 'course-divider' }, tr('course'), ' ', String(course));
  }

  private newGen(live: boolean): Gen {
    const el = h('div', { class: 'msg assistant', testid: 'msg-assistant' });
    this.list.append(el);
    const gen: Gen = { el, live, segments: [], open: null };
    this.gen = gen;
    return gen;
  }

  private addSegment(gen: Gen, kind: 'thinking' | 'saying', text: string, streaming: boolean): Segment {
    let el: HTMLElement;
    let body: HTMLElement;
    if (kind === 'thinking') {
      body = h('div', { class: 'thinking-body', testid: 'thinking-body' });
      const details = h(
        'details',
        { class: 'thinking', testid: 'thinking' },
        h('summary', { testid: 'thinking-toggle' }, tr('thinking')),
        body,
      );
      if (streaming) (details as HTMLDetailsElement).open = true;
      el = details;
      body.textContent = text;
    } else {
      body = h('div', { class: 'md' });
      el = h('div', { class: 'saying', testid: 'saying' }, body);
      if (text) setMarkdown(body, text);
    }
    if (streaming) el.classList.add('streaming');
    gen.el.append(el);
    const seg: Segment = { el, body, text, kind };
    gen.segments.push(seg);
    return seg;
  }

  private appendCall(callId: string, name: string, args: unknown): HTMLElement {
    const existing = this.callEls.get(callId);
    if (existing) return existing;
    const a = argsObject(args);
    let el: HTMLElement;
    if (name === 'askHuman') {
      const btn = h('button', { class: 'answer-btn', testid: 'answer-question', type: 'button' }, tr('answerThis'));
      btn.hidden = !this.host.questionForCall(this.dialog.id, callId);
      btn.addEventListener('click', () => this.host.startAnswer(this.dialog.id, callId));
      const body = h('div', { class: 'md' });
      setMarkdown(body, String(a.tellaskContent ?? fmtArgs(args)));
      el = h(
        'div',
        { class: 'call askhuman', testid: 'askhuman-call' },
        h('div', { class: 'call-head' }, h('span', { class: 'icon' }, '?'), tr('askHuman')),
        body,
        btn,
      );
      el.classList.toggle('open-question', !btn.hidden);
    } else if (TELLASK_NAMES.has(name)) {
      const target = String(a.targetAgentId ?? '');
      const slug = a.sessionSlug ? ` · ${String(a.sessionSlug)}` : '';
      const body = h('div', { class: 'md' });
      setMarkdown(body, String(a.tellaskContent ?? fmtArgs(args)));
      el = h(
        'div',
        { class: 'call tellask', testid: 'tellask-call', 'data-target': target, 'data-slug': String(a.sessionSlug ?? '') },
        h('div', { class: 'call-head' }, h('span', { class: 'icon' }, '→'), tr('tellask'), ` ${name}`, target ? ` @${target}${slug}` : ''),
        body,
        h('div', { class: 'tellask-link-slot' }),
      );
    } else {
      el = h(
        'details',
        { class: 'call tool', testid: 'tool-call' },
        h('summary', { class: 'call-head' }, h('span', { class: 'icon' }, 'ƒ'), tr('toolCall'), ' ', h('code', {}, name)),
        rawBlock(args, 'tool-args'),
      );
    }
    el.dataset.callId = callId;
    el.dataset.name = name;
    el.id = 'call-' + callId;
    this.callEls.set(callId, el);
    this.list.append(el);
    return el;
  }

  private setTellaskLink(el: HTMLElement, subdialogId: string): void {
    const slot = el.querySelector('.tellask-link-slot');
    if (!slot || !subdialogId || el.dataset.subdialog === subdialogId) return;
    el.dataset.subdialog = subdialogId;
    const a = h('a', { href: '#', class: 'tellask-link', testid: 'tellask-link', 'data-id': subdialogId }, tr('openSubdialog'));
    a.addEventListener('click', (e) => {
      e.preventDefault();
      this.host.openDialog(subdialogId);
    });
    slot.replaceChildren(a);
  }

  /** The new result's element (none when this call's result is already shown). */
  private appendResult(callId: string, name: string, ok: boolean, content: string, from: string | null): HTMLElement | undefined {
    const existing = this.resultEls.get(callId);
    if (existing) return undefined;
    const isTellask = TELLASK_NAMES.has(name) || name === 'askHuman';
    // Words of a member or a human render as Markdown; a tool's output is a card (tool_card.ts).
    const el = isTellask ? this.replyEl(callId, name, ok, content, from) : toolResultCard(callId, name, ok, content);
    if (callId) {
      el.dataset.callId = callId;
      this.resultEls.set(callId, el);
    }
    this.list.append(el);
    return el;
  }

  private replyEl(callId: string, name: string, ok: boolean, content: string, from: string | null): HTMLElement {
    const body = h('div', { class: 'md' });
    setMarkdown(body, content);
    const target = this.callEls.get(callId)?.dataset.target;
    if (!from && TELLASK_NAMES.has(name) && target) from = `@${target}`;
    return h(
      'div',
      { class: `result ${ok ? 'ok' : 'fail'} tellask-result`, testid: 'tellask-result' },
      h(
        'div',
        { class: 'call-head' },
        h('span', { class: 'icon' }, ok ? '✓' : '✗'),
        name === 'askHuman' ? tr('yourAnswer') : tr('replyFrom'),
        ' ',
        name === 'askHuman' ? null : from ? h('span', { class: 'from' }, from) : h('code', {}, name),
        ok ? null : tr('failed', 'tag fail'),
      ),
      body,
    );
  }

  /** REST messages do not name the subdialog a Tellask made: match the children to the calls in order. */
  private async linkTellasks(): Promise<void> {
    const unlinked = [...this.callEls.values()].filter(
      (el) => el.dataset.testid === 'tellask-call' && !el.dataset.subdialog,
    );
    if (unlinked.length === 0) return;
    let children: DialogSummary[];
    try {
      children = await rest.children(this.dialog.id);
    } catch {
      return;
    }
    if (this.disposed) return;
    const used = new Set<string>();
    for (const el of unlinked) {
      const target = el.dataset.target ?? '';
      const slug = el.dataset.slug ?? '';
      const match = children.find(
        (c) =>
          c.memberId === target &&
          (slug ? c.sessionSlug === slug : !used.has(c.id) && !c.sessionSlug),
      );
      if (match) {
        used.add(match.id);
        this.setTellaskLink(el, match.id);
      }
    }
  }

  // ---- live events ----

  private isDuplicate(p: Packet): boolean {
    return 'logSeq' in p && typeof p.logSeq === 'number' && p.logSeq <= this.maxLogSeq;
  }

  private liveGen(): Gen {
    if (this.gen) return this.gen;
    return this.newGen(true);
  }

  private apply(p: Packet): void {
    const near = this.nearBottom();
    switch (p.type) {
      case 'resync':
        this.load().catch(() => {});
        return;
      case 'user_message_evt':
        if (this.isDuplicate(p)) return;
        this.list.append(this.forkable(this.userEl(p.content, p.origin, p.attachment), p.logSeq));
        break;
      case 'generating_start_evt':
        if (this.isDuplicate(p)) return;
        this.newGen(true);
        break;
      case 'thinking_start_evt':
      case 'saying_start_evt': {
        const gen = this.liveGen();
        gen.open = this.addSegment(gen, p.type === 'thinking_start_evt' ? 'thinking' : 'saying', '', true);
        break;
      }
      case 'thinking_chunk_evt':
      case 'saying_chunk_evt': {
        const kind = p.type === 'thinking_chunk_evt' ? 'thinking' : 'saying';
        const gen = this.liveGen();
        let seg = gen.open;
        if (!seg || seg.kind !== kind) seg = gen.open = this.addSegment(gen, kind, '', true);
        seg.text += p.content;
        if (kind === 'thinking') seg.body.textContent = seg.text;
        else this.queueRender(seg);
        break;
      }
      case 'thinking_finish_evt':
      case 'saying_finish_evt': {
        const seg = this.gen?.open;
        if (seg) {
          seg.el.classList.remove('streaming');
          if (seg.kind === 'saying') setMarkdown(seg.body, seg.text);
          else (seg.el as HTMLDetailsElement).open = false; // thinking folds away once done
          this.gen!.open = null;
        }
        break;
      }
      case 'generating_finish_evt': {
        if (this.isDuplicate(p)) {
          // Already in the REST transcript: drop what we streamed of it.
          if (this.gen?.live) this.gen.el.remove();
          this.gen = null;
          return;
        }
        const gen = this.gen ?? this.newGen(true);
        this.finishGen(gen, p.thinking, p.saying, p.interrupted);
        if (gen.el.isConnected) this.forkable(gen.el, p.logSeq);
        this.gen = null;
        this.maxLogSeq = Math.max(this.maxLogSeq, p.logSeq);
        break;
      }
      case 'tool_call_evt':
        if (this.callEls.has(p.callId)) return;
        this.appendCall(p.callId, p.name, p.arguments);
        break;
      case 'tellask_call_evt': {
        const callId = p.callId;
        const el =
          this.callEls.get(callId) ??
          this.appendCall(callId, p.name, {
            targetAgentId: p.targetAgentId,
            sessionSlug: p.sessionSlug,
            tellaskContent: p.tellaskContent,
          });
        if (p.subdialogId) this.setTellaskLink(el, p.subdialogId);
        break;
      }
      case 'tool_result_evt':
        this.forkable(this.appendResult(p.callId, p.name, p.ok, p.content, null), p.logSeq);
        break;
      case 'question_answered_evt':
        // The human's answer, live: the result of the askHuman call that asked.
        this.forkable(this.appendResult(p.callId, 'askHuman', true, p.content, null), p.logSeq);
        break;
      case 'tellask_result_evt':
        this.forkable(this.appendResult(p.callId, p.name, p.ok, p.content, p.fromMemberId ? `@${p.fromMemberId}` : null), p.logSeq);
        break;
      case 'course_update_evt':
        if (this.isDuplicate(p)) return;
        this.list.append(this.courseDivider(p.course));
        break;
      case 'genseq_discard_evt': {
        // The provider's stream broke and the call is asked again: what streamed so far is void.
        if (this.isDuplicate(p)) return;
        const gen = this.gen;
        if (gen) {
          for (const seg of gen.segments) seg.el.remove();
          gen.segments = [];
          gen.open = null;
        }
        this.list.append(
          h('div', { class: 'msg notice', testid: 'genseq-discard' }, tr('streamRetried'), ': ', p.reason),
        );
        break;
      }
      case 'stream_error_evt':
        this.list.append(
          h('div', { class: 'msg error', testid: 'stream-error' }, tr('streamError'), ': ', p.message),
        );
        break;
      default:
        return;
    }
    if ('logSeq' in p && typeof p.logSeq === 'number' && p.type !== 'tool_call_evt') this.maxLogSeq = Math.max(this.maxLogSeq, p.logSeq);
    this.scrollToEnd(near);
  }

  private finishGen(gen: Gen, thinking: string, saying: string, interrupted: boolean): void {
    for (const seg of gen.segments) {
      seg.el.classList.remove('streaming');
      if (seg.kind === 'saying') setMarkdown(seg.body, seg.text);
    }
    gen.open = null;
    // The log's text is authoritative: fill in what the stream did not deliver (e.g. joined late).
    const streamed = (kind: 'thinking' | 'saying') =>
      gen.segments.filter((s) => s.kind === kind).map((s) => s.text).join('');
    const fix = (kind: 'thinking' | 'saying', text: string) => {
      if (!text || streamed(kind) === text) return;
      const segs = gen.segments.filter((s) => s.kind === kind);
      if (segs.length === 0) {
        this.addSegment(gen, kind, text, false);
      } else {
        segs.slice(1).forEach((s) => s.el.remove());
        gen.segments = gen.segments.filter((s) => s.kind !== kind || s === segs[0]);
        segs[0].text = text;
        if (kind === 'thinking') segs[0].body.textContent = text;
        else setMarkdown(segs[0].body, text);
      }
    };
    fix('thinking', thinking);
    fix('saying', saying);
    gen.live = false;
    if (interrupted) gen.el.append(this.interruptedEl());
    if (gen.segments.length === 0 && !interrupted) gen.el.remove();
  }

  private queueRender(seg: Segment): void {
    this.renderQueued.add(seg);
    if (this.rafId) return;
    this.rafId = requestAnimationFrame(() => {
      this.rafId = 0;
      for (const s of this.renderQueued) setMarkdown(s.body, s.text);
      this.renderQueued.clear();
    });
  }

  private nearBottom(): boolean {
    const sc = this.el.parentElement;
    if (!sc) return true;
    return sc.scrollHeight - sc.scrollTop - sc.clientHeight < 80;
  }

  private scrollToEnd(force: boolean): void {
    const sc = this.el.parentElement;
    if (sc && force) sc.scrollTop = sc.scrollHeight;
  }
}
