// The records view of a dialog (seed 002, docs/records.md): its sessions on a timeline, each with
// its turns — who asked whom, when, how long the answer took — unresponded turns marked, a turn's
// messages on a click, and full-text search over the dialogue. Read-only: it asks the REST API
// and draws. Words are rendered as sanitised Markdown, tool arguments and output as they are
// (tool_output.ts); labels are words in the page's language, never internal names.
import { ApiError, rest } from './api';
import { messageOf } from './errors';
import { h, tr } from './dom';
import { lang, t, type Key } from './i18n';
import { setMarkdown } from './markdown';
import type { RecordMessage, RecordSession, RecordTurn } from './records_types';
import { highlighted } from './snippet';
import { rawBlock } from './tool_output';

/** A time in the page's language (the toggle, not the browser's locale). */
const clock = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(lang() === 'zh' ? 'zh-CN' : 'en-US') : '—';

const ROLE_KEYS: Record<string, Key> = { human: 'roleHuman', ai: 'roleAi', system: 'roleSystem' };
const TURN_KEYS: Record<string, Key> = {
  human_query: 'turnHumanQuery',
  ai_prompt: 'turnAiPrompt',
  system_prompt: 'turnSystemPrompt',
  unresponded_turn: 'turnUnresponded',
};
const CONTENT_KEYS: Record<string, Key> = {
  text: 'ctText',
  markdown: 'ctText',
  image: 'ctImage',
  audio: 'ctAudio',
  tool_input: 'ctToolInput',
  tool_output: 'ctToolOutput',
  system_context: 'ctSystemContext',
  prompt: 'ctPrompt',
  quote_reply: 'ctQuoteReply',
};

/** A word for an internal name, in the page's language; an unknown name is shown as it is. */
function word(keys: Record<string, Key>, name: string): HTMLElement | string {
  const key = keys[name];
  return key ? tr(key) : name;
}

/** Who sent a message: the member or user by name, else their role in words. */
function sender(m: RecordMessage): (HTMLElement | string)[] {
  const role = word(ROLE_KEYS, m.sender_role);
  return m.sender_id ? [role, ` @${m.sender_id}`] : [role];
}

/** A message's body: tool calls and output as they are, words as Markdown. */
function messageBody(m: RecordMessage): HTMLElement {
  const box = h('div', { class: 'rec-content' });
  if (m.content_type === 'tool_input') {
    if (m.content) {
      const said = h('div', { class: 'md' });
      setMarkdown(said, m.content);
      box.append(said);
    }
    for (const call of m.metadata?.toolCalls ?? []) {
      box.append(
        h('div', { class: 'rec-tool', testid: 'record-tool-call' }, h('span', { class: 'rec-tool-name' }, 'ƒ ', h('code', {}, call.name ?? '?'))),
        rawBlock(call.arguments ?? {}, 'record-tool-args'),
      );
    }
    return box;
  }
  if (m.content_type === 'tool_output') {
    box.append(
      h('div', { class: 'rec-tool', testid: 'record-tool-output' }, tr('resultOf'), ' ', h('code', {}, m.metadata?.name ?? '?')),
      rawBlock(m.content, 'record-output'),
    );
    return box;
  }
  const body = h('div', { class: 'md' });
  setMarkdown(body, messageText(m));
  box.append(body);
  return box;
}

function seconds(ms: number | null): string {
  if (ms === null || ms === undefined) return '';
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
}

/** The words a message shows: an image or recording shows its caption or transcription. */
function messageText(m: RecordMessage): string {
  if (m.content_type === 'image' || m.content_type === 'audio') {
    const meta = m.content_meta ?? {};
    const said = m.content_type === 'image' ? meta.caption : meta.transcription;
    return [`[${m.content_type}] ${said ?? ''}`.trim(), meta.text ?? ''].filter(Boolean).join('\n');
  }
  return m.content;
}

export class RecordsView {
  readonly el: HTMLElement;
  private readonly timeline = h('div', { class: 'rec-timeline', testid: 'records-timeline' });
  private readonly results = h('ul', { class: 'rec-results', testid: 'search-results' });
  private readonly searchError = h('div', { class: 'rec-error', testid: 'records-search-error', role: 'alert' });
  private readonly count = h('span', { class: 'rec-count', testid: 'unresponded-count', 'data-count': '0' }, '0');
  private readonly input = h('input', {
    type: 'search',
    testid: 'records-search',
    placeholder: t('searchRecords'),
    'data-i18n-ph': 'searchRecords',
  });
  private disposed = false;
  private loading: Promise<void> | null = null;
  private reloadAgain = false;

  /** `closed`: whether the dialog is over (completed or archived): its open-ended sessions ended. */
  constructor(
    private readonly dialogId: string,
    private readonly closed: () => boolean = () => false,
  ) {
    const refresh = h('button', { type: 'button', testid: 'records-refresh' }, tr('refresh'));
    refresh.addEventListener('click', () => void this.load());
    const form = h(
      'form',
      { class: 'rec-search', testid: 'records-search-form' },
      this.input,
      h('button', { type: 'submit', testid: 'records-search-go' }, tr('searchGo')),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void this.search(this.input.value.trim());
    });
    this.searchError.hidden = true;
    this.el = h(
      'div',
      { class: 'records', testid: 'records', 'data-dialog': dialogId },
      h('div', { class: 'rec-bar', testid: 'records-bar' }, h('span', {}, tr('unrespondedTurns'), ': '), this.count, refresh),
      form,
      this.searchError,
      this.results,
      this.timeline,
    );
  }

  dispose(): void {
    this.disposed = true;
  }

  /** Loads (or reloads) the timeline; a reload asked for while one runs happens once after it. */
  load(): Promise<void> {
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.loading = this.fetchAndDraw().finally(() => {
      this.loading = null;
      if (this.reloadAgain && !this.disposed) {
        this.reloadAgain = false;
        void this.load();
      }
    });
    return this.loading;
  }

  private async fetchAndDraw(): Promise<void> {
    let sessions: RecordSession[];
    try {
      sessions = await rest.recordSessions(this.dialogId);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) sessions = []; // no message yet
      else throw e;
    }
    const turnsOf = await Promise.all(
      sessions.map((s) => rest.recordTurns(s.id)),
    );
    if (this.disposed) return;
    const open = new Set(
      [...this.timeline.querySelectorAll<HTMLElement>('[data-testid="record-turn"].open')].map((el) => el.dataset.turnId),
    );
    let unresponded = 0;
    const blocks = sessions.map((s, i) => {
      const turns = turnsOf[i];
      unresponded += turns.filter((turn) => turn.status === 'unresponded').length;
      return this.sessionBlock(s, turns, open);
    });
    this.timeline.replaceChildren(...(blocks.length ? blocks : [h('div', { class: 'empty' }, tr('noRecords'))]));
    this.count.textContent = String(unresponded);
    this.count.dataset.count = String(unresponded);
  }

  private sessionBlock(s: RecordSession, turns: RecordTurn[], open: Set<string | undefined>): HTMLElement {
    const head = h(
      'div',
      { class: 'rec-session-head' },
      h('strong', {}, tr(s.session_type === 'self_reflection' ? 'selfReflection' : 'session')),
      // A session without an end in a dialogue that is over has ended with it, not "ongoing".
      ` ${clock(s.start_at)} → ${s.end_at ? clock(s.end_at) : t(this.closed() ? 'ended' : 'ongoing')}`,
    );
    const extra: HTMLElement[] = [];
    if (s.goal) extra.push(h('div', { class: 'rec-goal' }, tr('goal'), ': ', s.goal));
    if (s.summary) extra.push(h('div', { class: 'rec-summary', testid: 'session-summary' }, tr('summary'), ': ', s.summary));
    return h(
      'section',
      { class: 'rec-session', testid: 'record-session', 'data-session-type': s.session_type, 'data-session-id': s.id },
      head,
      ...extra,
      h('ol', { class: 'rec-turns' }, ...turns.map((turn) => this.turnItem(turn, open.has(turn.id)))),
    );
  }

  private turnItem(turn: RecordTurn, expanded: boolean): HTMLElement {
    const ended =
      turn.status === 'pending'
        ? `${t('deadline')} ${clock(turn.deadline_at)}`
        : `${clock(turn.closed_at)}${turn.status === 'responded' ? ` · ${seconds(turn.response_time)}` : ''}`;
    const line = h(
      'div',
      { class: 'rec-turn-line' },
      h('span', { class: 'rec-who', testid: 'record-who' }, word(ROLE_KEYS, turn.initiator_role), ' → ', word(ROLE_KEYS, turn.responder_role)),
      h('span', { class: 'rec-type', testid: 'record-turn-type' }, word(TURN_KEYS, turn.turn_type)),
      h('span', { class: `rec-status rs-${turn.status}` }, tr(`turn_${turn.status}` as Key)),
      turn.status === 'unresponded' ? h('span', { class: 'rec-mark', testid: 'unresponded-mark' }, '⚠') : null,
      h('span', { class: 'rec-time' }, `${clock(turn.started_at)} → ${ended}`),
    );
    const list = h(
      'ul',
      { class: 'rec-messages' },
      ...(turn.messages ?? []).map((m) =>
        h(
          'li',
          { class: `rec-message rm-${m.sender_role}`, testid: 'record-message', 'data-role': m.sender_role },
          h('span', { class: 'rec-sender' }, ...sender(m)),
          h('span', { class: 'rec-ctype', 'data-content-type': m.content_type }, word(CONTENT_KEYS, m.content_type)),
          messageBody(m),
        ),
      ),
    );
    const item = h(
      'li',
      {
        class: `rec-turn st-${turn.status}${expanded ? ' open' : ''}`,
        testid: 'record-turn',
        'data-status': turn.status,
        'data-turn-id': turn.id,
      },
      line,
      list,
    );
    line.addEventListener('click', () => item.classList.toggle('open'));
    return item;
  }

  /** Full-text search within this dialogue; a result leads to its turn. */
  async search(words: string): Promise<void> {
    this.searchError.hidden = true;
    if (!words) {
      this.results.replaceChildren();
      return;
    }
    let found: RecordMessage[];
    try {
      found = await rest.searchRecordMessages(this.dialogId, words);
    } catch (e) {
      this.results.replaceChildren();
      this.searchError.textContent = messageOf(e);
      this.searchError.hidden = false;
      return;
    }
    if (this.disposed) return;
    if (!found.length) {
      this.results.replaceChildren(h('li', { class: 'empty', testid: 'no-matches' }, tr('noMatches')));
      return;
    }
    this.results.replaceChildren(
      ...found.map((m) => {
        const li = h(
          'li',
          { class: 'rec-result', testid: 'search-result', 'data-turn-id': m.turn_id },
          h('span', { class: 'rec-sender' }, ...sender(m)),
          h('span', { class: 'rec-time' }, clock(m.created_at)),
          highlighted(messageText(m), words),
        );
        li.addEventListener('click', () => this.reveal(m.turn_id));
        return li;
      }),
    );
  }

  private reveal(turnId: string): void {
    this.timeline.querySelectorAll('.rec-turn.highlight').forEach((el) => el.classList.remove('highlight'));
    const turn = this.timeline.querySelector<HTMLElement>(`[data-testid="record-turn"][data-turn-id="${CSS.escape(turnId)}"]`);
    if (!turn) return;
    turn.classList.add('highlight', 'open');
    turn.scrollIntoView({ block: 'center' });
  }
}
