// Parley web UI. The backend drives every dialog; this page only subscribes to PubChan and posts input.
// It keeps render-scope data only: the open dialog's transcript, the visible tree levels, the visible list.
import './style.css';
import { ApiError, captureToken, get, newMsgId, onAuthError, post, UNREACHABLE } from './api';
import { $, h, tr } from './dom';
import { applyI18n, setLang, t, type Key, type Lang } from './i18n';
import { LAYOUT_HTML } from './layout';
import { RecordsView } from './records_view';
import { fetchSidePanels, renderReminders } from './side_panels';
import { dialogInAddress, onAddressChange, showDialogInAddress } from './route';
import { TranscriptView } from './transcript';
import type { DialogSummary, Packet, Question, Reminder, Status, Team } from './types';
import { PubChan, type ConnState } from './ws';

captureToken();

// ---------- theme and language (remembered) ----------

const THEME_KEY = 'parley.theme';
const LANG_KEY = 'parley.lang';

function applyTheme(theme: string): void {
  document.documentElement.dataset.theme = theme === 'dark' ? 'dark' : 'light';
}
function applyLang(l: Lang): void {
  setLang(l);
  document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
  applyI18n(document);
  renderThemeButton();
  renderAll();
  // Its dates are written in the language they were drawn in.
  if (state.records && state.mode === 'records') void state.records.load();
}

// ---------- layout ----------

const app = $('#app');
app.innerHTML = LAYOUT_HTML;

const q = (id: string) => $(`[data-testid="${id}"]`);

// ---------- narrow windows: one pane at a time, chosen by the tabs (wide ones show all three) ----------

type Pane = 'left' | 'center' | 'right';
function showPane(pane: Pane): void {
  document.body.dataset.pane = pane;
  document.querySelectorAll<HTMLElement>('.pane-tabs [data-pane]').forEach((b) => b.setAttribute('aria-selected', String(b.dataset.pane === pane)));
}
document.querySelectorAll<HTMLElement>('.pane-tabs [data-pane]').forEach((b) => b.addEventListener('click', () => showPane(b.dataset.pane as Pane)));
showPane('left');

// ---------- state (render scope only) ----------

interface TreeNode {
  summary: DialogSummary;
  children: string[] | null; // loaded only while expanded
  expanded: boolean;
}

const state = {
  status: null as Status | null,
  team: null as Team | null,
  tab: 'running' as 'running' | 'completed' | 'archived',
  query: '',
  dialogs: [] as DialogSummary[],
  current: null as DialogSummary | null,
  view: null as TranscriptView | null,
  mode: 'transcript' as 'transcript' | 'records',
  records: null as RecordsView | null,
  treeRoot: null as string | null,
  tree: new Map<string, TreeNode>(),
  questions: [] as Question[],
  answering: null as Question | null,
  authFailed: false,
};

// ---------- errors ----------

let errTimer: number | undefined;
function showError(e: unknown): void {
  if (e instanceof ApiError && e.status === 401) return; // the auth banner says it
  const el = q('error-banner');
  el.textContent = `${t('error')}: ${e instanceof Error ? e.message : String(e)}`;
  el.hidden = false;
  window.clearTimeout(errTimer);
  errTimer = window.setTimeout(() => (el.hidden = true), 8000);
}

onAuthError(() => {
  state.authFailed = true;
  q('auth-error').hidden = false;
});

// ---------- status labels ----------

function displayState(d: DialogSummary): Key {
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

function statusBadge(d: DialogSummary, testid?: string): HTMLElement {
  const key = displayState(d);
  return h(
    'span',
    { class: `status st-${key.slice(3)}`, testid, 'data-status': key.slice(3), 'data-i18n': key },
    t(key),
  );
}

// A subdialog is told apart by its task (its title), then its Type B session, then how it was called.
function dialogLabel(d: DialogSummary): string {
  const who = `@${d.memberId}`;
  if (d.kind === 'sub') {
    const what = d.title || d.sessionSlug || d.callKind || '';
    const slug = d.title && d.sessionSlug ? ` (${d.sessionSlug})` : '';
    return what ? `${who} · ${what}${slug}` : who;
  }
  return d.title ? `${d.title}` : who;
}

// ---------- team ----------

function renderTeam(): void {
  const ul = q('members');
  const sel = q('new-member') as HTMLSelectElement;
  const team = state.team;
  ul.replaceChildren();
  const prev = sel.value;
  sel.replaceChildren();
  if (!team) return;
  for (const m of team.members) {
    ul.append(
      h(
        'li',
        { testid: 'member', 'data-id': m.id },
        h('strong', {}, m.name || m.id),
        ' ',
        h('span', { class: 'muted' }, `@${m.id}`),
        // What answers, not what the team file asked for: a live provider that fell back to the
        // scripted model does not claim its model.
        m.providerKind === 'scripted'
          ? h('div', { class: 'muted small', testid: 'member-model' }, tr('scriptedModel'))
          : h('div', { class: 'muted small', testid: 'member-model' }, [m.provider, m.model].filter(Boolean).join(' · ')),
      ),
    );
    sel.append(h('option', { value: m.id }, m.name && m.name !== m.id ? `${m.name} (@${m.id})` : `@${m.id}`));
  }
  sel.value = prev || team.defaultMember || team.members[0]?.id || '';
}

// ---------- dialog list ----------

async function loadDialogs(): Promise<void> {
  const params = new URLSearchParams({ status: state.tab, limit: '50' });
  if (state.query) params.set('q', state.query);
  try {
    const res = await get<{ dialogs: DialogSummary[]; total: number }>(`/api/dialogs?${params}`);
    state.dialogs = res.dialogs;
    renderDialogs();
  } catch (e) {
    showError(e);
  }
}

function renderDialogs(): void {
  document.querySelectorAll<HTMLElement>('.tabs [data-tab]').forEach((b) => {
    b.classList.toggle('active', b.dataset.tab === state.tab);
    b.setAttribute('aria-selected', String(b.dataset.tab === state.tab));
  });
  const ul = q('dialog-list');
  ul.replaceChildren();
  if (state.dialogs.length === 0) {
    ul.append(h('li', { class: 'muted' }, tr('noDialogs')));
    return;
  }
  for (const d of state.dialogs) {
    const li = h(
      'li',
      { testid: 'dialog-item', 'data-id': d.id, class: state.current?.rootId === d.id ? 'active' : '' },
      h('div', { class: 'di-title' }, d.title || `@${d.memberId}`),
      h('div', { class: 'di-meta' }, `@${d.memberId} `, statusBadge(d), (d.openQuestions ?? 0) > 0 ? h('span', { class: 'badge small' }, String(d.openQuestions)) : null),
    );
    li.addEventListener('click', () => void openDialog(d.id));
    ul.append(li);
  }
}

let searchTimer: number | undefined;
q('dialog-search').addEventListener('input', (e) => {
  window.clearTimeout(searchTimer);
  searchTimer = window.setTimeout(() => {
    state.query = (e.target as HTMLInputElement).value.trim();
    void loadDialogs();
  }, 250);
});
document.querySelectorAll<HTMLElement>('.tabs [data-tab]').forEach((b) =>
  b.addEventListener('click', () => {
    state.tab = b.dataset.tab as typeof state.tab;
    void loadDialogs();
  }),
);

function upsertListed(d: DialogSummary): void {
  if (d.kind !== 'root') return;
  const i = state.dialogs.findIndex((x) => x.id === d.id);
  const belongs = d.status === state.tab && !state.query;
  if (i >= 0 && d.status !== state.tab) state.dialogs.splice(i, 1);
  else if (i >= 0) state.dialogs[i] = d;
  else if (belongs) state.dialogs.unshift(d);
  else if (state.query) {
    void loadDialogs();
    return;
  }
  renderDialogs();
}

// ---------- new dialog ----------

q('new-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const content = (q('new-content') as HTMLTextAreaElement).value.trim();
  if (!content) return;
  // The server titles an untitled root from its first message.
  const body: Record<string, string> = { content, msgId: newMsgId() };
  const member = (q('new-member') as HTMLSelectElement).value;
  if (member) body.memberId = member;
  const taskDocPath = (q('new-taskdoc') as HTMLInputElement).value.trim();
  if (taskDocPath) body.taskDocPath = taskDocPath;
  const btn = q('new-start') as HTMLButtonElement;
  btn.disabled = true;
  try {
    const res = await post<{ dialog: DialogSummary }>('/api/dialogs', body);
    (q('new-content') as HTMLTextAreaElement).value = '';
    (q('new-taskdoc') as HTMLInputElement).value = '';
    if (state.tab !== 'running' || state.query) {
      state.tab = 'running';
      state.query = '';
      (q('dialog-search') as HTMLInputElement).value = '';
    }
    upsertListed(res.dialog);
    await openDialog(res.dialog.id, res.dialog);
  } catch (err) {
    showError(err);
  } finally {
    btn.disabled = false;
  }
});

// ---------- the open dialog ----------

const chan = new PubChan(onPacket, onConnState);

async function openDialog(id: string, known?: DialogSummary): Promise<TranscriptView | null> {
  let d = known;
  try {
    d ??= (await get<{ dialog: DialogSummary }>(`/api/dialogs/${encodeURIComponent(id)}`)).dialog;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) showMissingDialog(id);
    else showError(e);
    return null;
  }
  showDialogInAddress(d.id);
  showPane('center');
  if (state.answering && state.answering.dialog.selfId !== d.id) setAnswering(null);
  state.view?.dispose();
  state.records?.dispose();
  state.records = null;
  state.current = d;
  const view = new TranscriptView(d, transcriptHost);
  state.view = view;
  const scroll = q('transcript-scroll');
  scroll.replaceChildren(view.el);
  q('composer').hidden = false;
  renderHead();
  renderDialogs();
  syncSubscriptions();
  if (state.mode === 'records') showMode('records');
  await ensureTree(d);
  try {
    await view.load();
  } catch (e) {
    showError(e);
  }
  return view;
}

/** A link to a dialog that does not exist (or that this user may not see): said where it would be. */
function showMissingDialog(id: string): void {
  state.view?.dispose();
  state.view = null;
  state.current = null;
  renderHead();
  renderDialogs();
  syncSubscriptions();
  q('composer').hidden = true;
  q('tree-box').hidden = true;
  q('transcript-scroll').replaceChildren(h('div', { class: 'empty', testid: 'missing-dialog' }, tr('noSuchDialog'), ` ${id}`));
}

function renderHead(): void {
  const d = state.current;
  q('dialog-head').hidden = !d;
  if (!d) return;
  q('dialog-title').textContent = `${dialogLabel(d)}${d.kind === 'root' && d.title ? ` · @${d.memberId}` : ''}`;
  const st = statusBadge(d, 'dialog-status');
  q('dialog-status').replaceWith(st);
  const stop = q('btn-interrupt') as HTMLButtonElement;
  stop.disabled = !d.generating;
  stop.title = t(d.generating ? 'stopApplies' : 'stopNotApplies');
  // Resume only when the server says it would do something (a stopped or failed drive, calls
  // without results, unread input): an idle dialog would just repeat its last answer.
  const resume = q('btn-resume') as HTMLButtonElement;
  resume.disabled = d.resumable !== true || !!d.generating;
  resume.dataset.reason = d.resumeReason ?? '';
  resume.title = t(d.resumable === true ? resumeReasonKey(d.resumeReason) : 'resumeNotApplies');
  renderComposerState(d);
}

/** A dialog that takes no more messages says so in the composer instead of failing a send. */
function renderComposerState(d: DialogSummary): void {
  let closed: Key | null = null;
  if (d.dead) closed = 'composerDead';
  else if (d.status === 'completed') closed = 'composerCompleted';
  else if (d.status === 'archived') closed = 'composerArchived';
  const note = q('composer-note');
  note.hidden = !closed;
  if (closed) {
    note.dataset.i18n = closed;
    note.textContent = t(closed);
  }
  (q('input') as HTMLTextAreaElement).disabled = !!closed;
  (q('send') as HTMLButtonElement).disabled = !!closed;
  q('composer').classList.toggle('closed', !!closed);
}

function resumeReasonKey(reason: DialogSummary['resumeReason']): Key {
  if (reason === 'failed') return 'resumeFailed';
  if (reason === 'unanswered_calls') return 'resumeCalls';
  if (reason === 'unread_input') return 'resumeInput';
  return 'resumeInterrupted';
}

function updateSummary(d: DialogSummary): void {
  if (state.current?.id === d.id) {
    // List packets do not say whether resume applies; the last dialog_state_evt or GET does.
    if (d.resumable === undefined && state.current.status === d.status) {
      d = { ...d, resumable: state.current.resumable, resumeReason: state.current.resumeReason };
    }
    state.current = d;
    renderHead();
  }
  const node = state.tree.get(d.id);
  if (node) {
    node.summary = d;
    renderTree();
  }
  if (d.kind === 'root' && state.dialogs.some((x) => x.id === d.id)) upsertListed(d);
  else if (d.kind === 'root') renderDialogs();
}

// ---------- transcript or records (seed 002's sessions and turns) ----------

function showMode(mode: 'transcript' | 'records'): void {
  state.mode = mode;
  const records = mode === 'records' && !!state.current;
  q('transcript-scroll').hidden = records;
  q('records-scroll').hidden = !records;
  q('composer').hidden = records || !state.current;
  q('view-transcript').setAttribute('aria-pressed', String(!records));
  q('view-records').setAttribute('aria-pressed', String(records));
  if (!records || !state.current) return;
  if (!state.records) {
    state.records = new RecordsView(state.current.id);
    q('records-scroll').replaceChildren(state.records.el);
  }
  state.records.load().catch(showError);
}
q('view-transcript').addEventListener('click', () => showMode('transcript'));
q('view-records').addEventListener('click', () => showMode('records'));

let recordsTimer: number | undefined;
function scheduleRecordsReload(): void {
  window.clearTimeout(recordsTimer);
  recordsTimer = window.setTimeout(() => {
    if (state.mode === 'records') state.records?.load().catch(showError);
  }, 300);
}

async function control(kind: 'interrupt' | 'resume'): Promise<void> {
  const d = state.current;
  if (!d) return;
  try {
    if (chan.isOpen) await chan.request({ type: kind, dialog: { selfId: d.id } }, kind);
    else await post(`/api/dialogs/${encodeURIComponent(d.id)}/${kind}`);
  } catch (e) {
    showError(e);
  }
}
q('btn-interrupt').addEventListener('click', () => void control('interrupt'));
q('btn-resume').addEventListener('click', () => void control('resume'));

// ---------- composer: messages and Q4H answers in the same box ----------

function setAnswering(question: Question | null): void {
  state.answering = question;
  const box = q('answer-mode');
  box.hidden = !question;
  q('answer-question-text').textContent = question ? question.tellaskContent.split('\n')[0] : '';
  const input = q('input') as HTMLTextAreaElement;
  input.dataset.i18nPh = question ? 'answerPlaceholder' : 'inputPlaceholder';
  input.placeholder = t(question ? 'answerPlaceholder' : 'inputPlaceholder');
  q('composer').classList.toggle('answering', !!question);
  if (question) input.focus();
}
q('answer-cancel').addEventListener('click', () => setAnswering(null));

q('composer').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = q('input') as HTMLTextAreaElement;
  const content = input.value.trim();
  const d = state.current;
  if (!content || !d) return;
  const msgId = newMsgId();
  const answering = state.answering;
  const send = q('send') as HTMLButtonElement;
  send.disabled = true;
  try {
    if (answering) {
      const selfId = answering.dialog.selfId;
      if (chan.isOpen) {
        await chan.request(
          { type: 'drive_dialog_by_user_answer', dialog: { selfId }, content, msgId, questionId: answering.id, continuationType: 'answer' },
          msgId,
        );
      } else {
        await post(`/api/dialogs/${encodeURIComponent(selfId)}/answer`, { questionId: answering.id, content, msgId });
      }
      setAnswering(null);
      scheduleQuestions();
    } else if (chan.isOpen) {
      await chan.request({ type: 'drive_dlg_by_user_msg', dialog: { selfId: d.id }, content, msgId }, msgId);
    } else {
      await post(`/api/dialogs/${encodeURIComponent(d.id)}/messages`, { content, msgId });
    }
    input.value = '';
  } catch (err) {
    // Said as what it means for the text in the box, not as a failed fetch.
    showError(err instanceof ApiError && err.status === UNREACHABLE ? new Error(t('sendUnreachable')) : err);
  } finally {
    send.disabled = false;
    if (state.current) renderComposerState(state.current);
  }
});
q('input').addEventListener('keydown', (e) => {
  const ke = e as KeyboardEvent;
  if (ke.key === 'Enter' && (ke.ctrlKey || ke.metaKey)) {
    e.preventDefault();
    (q('composer') as HTMLFormElement).requestSubmit();
  }
});

// ---------- dialog tree (lazy; collapsed subtrees are dropped and refetched on expand) ----------

async function ensureTree(d: DialogSummary): Promise<void> {
  const rootId = d.rootId || d.id;
  if (state.treeRoot !== rootId) {
    state.treeRoot = rootId;
    state.tree.clear();
    let root: DialogSummary;
    try {
      root = d.id === rootId ? d : (await get<{ dialog: DialogSummary }>(`/api/dialogs/${encodeURIComponent(rootId)}`)).dialog;
    } catch (e) {
      showError(e);
      return;
    }
    state.tree.set(rootId, { summary: root, children: null, expanded: false });
    await expand(rootId);
  }
  // Make the open dialog visible: expand its ancestors, top down.
  if (!state.tree.has(d.id)) {
    const chain: string[] = [];
    let parent = d.parentId;
    while (parent && !state.tree.get(parent)?.expanded) {
      chain.unshift(parent);
      if (state.tree.has(parent)) break;
      try {
        parent = (await get<{ dialog: DialogSummary }>(`/api/dialogs/${encodeURIComponent(parent)}`)).dialog.parentId;
      } catch {
        break;
      }
    }
    for (const id of chain) if (state.tree.has(id)) await expand(id);
  }
  q('tree-box').hidden = false;
  renderTree();
}

async function expand(id: string): Promise<void> {
  const node = state.tree.get(id);
  if (!node) return;
  try {
    const res = await get<{ children: DialogSummary[] }>(`/api/dialogs/${encodeURIComponent(id)}/children`);
    node.children = res.children.map((c) => c.id);
    for (const c of res.children) {
      const existing = state.tree.get(c.id);
      state.tree.set(c.id, { summary: c, children: existing?.children ?? null, expanded: existing?.expanded ?? false });
    }
    node.expanded = true;
  } catch (e) {
    showError(e);
  }
  syncSubscriptions();
  renderTree();
}

function collapse(id: string): void {
  const node = state.tree.get(id);
  if (!node) return;
  const drop = (nid: string) => {
    const n = state.tree.get(nid);
    for (const c of n?.children ?? []) {
      drop(c);
      state.tree.delete(c);
    }
  };
  drop(id);
  node.children = null;
  node.expanded = false;
  syncSubscriptions();
  renderTree();
}

function renderTree(): void {
  const ul = q('tree');
  ul.replaceChildren();
  if (!state.treeRoot) return;
  const build = (id: string): HTMLElement | null => {
    const node = state.tree.get(id);
    if (!node) return null;
    const d = node.summary;
    const canExpand = d.hasChildren || (node.children?.length ?? 0) > 0;
    const toggle = h(
      'button',
      { type: 'button', class: 'twisty', testid: 'tree-toggle', 'aria-expanded': String(node.expanded), disabled: !canExpand && !node.expanded },
      node.expanded ? '▾' : canExpand ? '▸' : '·',
    );
    toggle.addEventListener('click', (e) => {
      e.stopPropagation();
      if (node.expanded) collapse(id);
      else void expand(id);
    });
    const text = d.kind === 'root' ? `@${d.memberId}${d.title ? ` · ${d.title}` : ''}` : dialogLabel(d);
    const label = h('span', { class: 'tree-label', testid: 'tree-label', title: text }, text);
    const row = h(
      'div',
      { class: `tree-row ${state.current?.id === id ? 'current' : ''}` },
      toggle,
      label,
      ' ',
      statusBadge(d),
      (d.openQuestions ?? 0) > 0 ? h('span', { class: 'badge small', testid: 'tree-q4h' }, String(d.openQuestions)) : null,
    );
    row.addEventListener('click', () => void openDialog(id));
    const li = h('li', { testid: 'tree-node', 'data-id': id, 'data-kind': d.kind, 'data-member': d.memberId }, row);
    if (node.expanded && node.children && node.children.length > 0) {
      const sub = h('ul', {});
      for (const c of node.children) {
        const cel = build(c);
        if (cel) sub.append(cel);
      }
      li.append(sub);
    }
    return li;
  };
  const rootEl = build(state.treeRoot);
  if (rootEl) ul.append(rootEl);
}

function onSubdialogCreated(parentId: string, sub: DialogSummary): void {
  const parent = state.tree.get(parentId);
  if (!parent) return;
  parent.summary = { ...parent.summary, hasChildren: true };
  if (parent.expanded && parent.children && !parent.children.includes(sub.id)) {
    parent.children.push(sub.id);
    state.tree.set(sub.id, { summary: sub, children: null, expanded: false });
    syncSubscriptions();
  }
  renderTree();
}

/** Subscribed: the open dialog and every expanded tree node (to see their new subdialogs and states). */
function syncSubscriptions(): void {
  const want = new Set<string>();
  if (state.current) want.add(state.current.id);
  for (const id of state.tree.keys()) want.add(id);
  for (const id of chan.subscribed()) if (!want.has(id)) chan.unsubscribe(id);
  for (const id of want) chan.subscribe(id);
}

// ---------- Q4H ----------

async function loadQuestions(): Promise<void> {
  try {
    const res = await get<{ questions: Question[] }>('/api/questions');
    state.questions = res.questions;
    renderQuestions();
    state.view?.refreshQuestions();
  } catch (e) {
    showError(e);
  }
}

let qTimer: number | undefined;
function scheduleQuestions(): void {
  window.clearTimeout(qTimer);
  qTimer = window.setTimeout(() => void loadQuestions(), 60);
}

function renderQuestions(): void {
  const n = state.questions.length;
  const badge = q('q4h-badge');
  badge.textContent = String(n);
  badge.dataset.count = String(n);
  badge.classList.toggle('zero', n === 0);
  q('q4h-panel-count').textContent = String(n);
  q('pane-q4h-count').textContent = String(n);
  q('pane-q4h-count').classList.toggle('zero', n === 0);
  const ul = q('q4h-list');
  ul.replaceChildren();
  if (n === 0) {
    ul.append(h('li', { class: 'muted' }, tr('noQuestions')));
    return;
  }
  for (const question of state.questions) {
    const [head, ...rest] = question.tellaskContent.split('\n');
    const link = h('a', { href: '#', class: 'q-link', testid: 'q4h-link' }, head || question.mentionList || question.id);
    link.addEventListener('click', (e) => {
      e.preventDefault();
      void goToQuestion(question);
    });
    ul.append(
      h(
        'li',
        { testid: 'q4h-item', 'data-id': question.id, 'data-dialog': question.dialog.selfId },
        link,
        rest.length ? h('div', { class: 'q-body' }, rest.join('\n')) : null,
        h('div', { class: 'muted small' }, tr('askedBy'), ` @${question.memberId}`),
      ),
    );
  }
}

async function goToQuestion(question: Question): Promise<void> {
  let view = state.view;
  if (!view || state.current?.id !== question.dialog.selfId) view = await openDialog(question.dialog.selfId);
  if (!view) return;
  setAnswering(question);
  const el = question.callId ? view.callElement(question.callId) : undefined;
  if (el) {
    el.scrollIntoView({ block: 'center' });
    el.classList.add('flash');
    window.setTimeout(() => el.classList.remove('flash'), 1500);
  }
}

const transcriptHost = {
  openDialog: (id: string) => void openDialog(id),
  questionForCall: (dialogId: string, callId: string) =>
    state.questions.find((x) => x.dialog.selfId === dialogId && x.callId === callId) ?? null,
  loaded: (dialogId: string) => {
    if (state.current?.id === dialogId) void loadSidePanels();
  },
  startAnswer: (dialogId: string, callId: string) => {
    const question = state.questions.find((x) => x.dialog.selfId === dialogId && x.callId === callId);
    if (question) void goToQuestion(question);
  },
};

q('q4h-button').addEventListener('click', () => {
  showPane('right');
  q('q4h-panel').scrollIntoView({ block: 'start' });
  const first = state.questions[0];
  if (first) void goToQuestion(first);
});

// ---------- side panels: reminders, registry, Taskdoc (side_panels.ts) ----------

async function loadSidePanels(): Promise<void> {
  const d = state.current;
  if (!d) return;
  const rootId = d.rootId || d.id;
  const root = rootId === d.id ? d : state.tree.get(rootId)?.summary;
  await fetchSidePanels(d, root, () => state.current?.id === d.id, (id) => void openDialog(id));
}

// ---------- PubChan packets ----------

let everConnected = false;
function onConnState(s: ConnState): void {
  const el = q('ws-status');
  el.dataset.state = s;
  const key: Key = s === 'open' ? 'connected' : s === 'connecting' ? 'connecting' : 'disconnected';
  el.dataset.i18n = key;
  el.textContent = s === 'unauthorized' ? '✗' : t(key);
  // Said plainly once a connection that worked is lost (not while the first one is being made).
  if (s === 'open') everConnected = true;
  q('conn-banner').hidden = !(everConnected && (s === 'closed' || s === 'connecting'));
  if (s === 'open') {
    // Anything may have changed while we were away.
    scheduleQuestions();
  }
}

// Packets after which a dialog's records have changed.
const RECORD_CHANGES = new Set(['user_message_evt', 'generating_finish_evt', 'tool_result_evt', 'dialog_state_evt']);

function onPacket(p: Packet): void {
  switch (p.type) {
    case 'questions_count_update':
      scheduleQuestions();
      return;
    case 'dialog_list_evt':
      if (p.dialog && typeof p.dialog === 'object' && 'id' in p.dialog) {
        const d = p.dialog as unknown as DialogSummary;
        upsertListed(d);
        updateSummary(d);
      } else {
        void loadDialogs();
      }
      return;
    case 'error':
      showError(new Error(String(p.message ?? p.code ?? 'error')));
      return;
  }
  const id = p.dialog?.selfId;
  if (!id) return;
  if (p.type === 'subdialog_created_evt' && p.subdialog) {
    onSubdialogCreated(id, p.subdialog as DialogSummary);
    if (state.current && (state.current.rootId || state.current.id) === (p.dialog?.rootId ?? '')) void loadSidePanels();
  }
  if (p.type === 'dialog_state_evt' && p.state) updateSummary(p.state as DialogSummary);
  if (p.type === 'reminders_update_evt' && state.current?.id === id) renderReminders((p.reminders as Reminder[]) ?? []);
  if (p.type === 'tellask_call_evt' && state.current && state.current.rootId === p.dialog?.rootId) void loadSidePanels();
  if (p.type === 'tool_result_evt' && p.name === 'change_mind' && state.current?.rootId === p.dialog?.rootId) void loadSidePanels();
  if (state.current?.id === id && state.mode === 'records' && RECORD_CHANGES.has(p.type)) scheduleRecordsReload();
  if (state.current?.id === id && state.view) {
    if (p.type === 'generating_start_evt' && !state.current.generating) updateSummary({ ...state.current, generating: true });
    state.view.onEvent(p);
  }
}

// ---------- theme / language buttons ----------

function renderThemeButton(): void {
  const dark = document.documentElement.dataset.theme === 'dark';
  const b = q('theme-toggle');
  const label = t(dark ? 'themeToggleLight' : 'themeToggle');
  b.replaceChildren(dark ? '☀' : '☾', h('span', { class: 'btn-label' }, ` ${label}`));
  b.title = label; // phones show the icon alone
  b.setAttribute('aria-pressed', String(dark));
}
q('theme-toggle').addEventListener('click', () => {
  const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
  localStorage.setItem(THEME_KEY, next);
  applyTheme(next);
  renderThemeButton();
});
q('lang-toggle').addEventListener('click', () => {
  const next: Lang = document.documentElement.lang.startsWith('zh') ? 'en' : 'zh';
  localStorage.setItem(LANG_KEY, next);
  applyLang(next);
});

function renderAll(): void {
  renderTeam();
  renderDialogs();
  renderQuestions();
  renderHead();
  renderTree();
}

// ---------- start ----------

async function start(): Promise<void> {
  applyTheme(localStorage.getItem(THEME_KEY) ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  const savedLang = localStorage.getItem(LANG_KEY);
  applyLang(savedLang === 'zh' || savedLang === 'en' ? savedLang : navigator.language.startsWith('zh') ? 'zh' : 'en');
  try {
    state.status = await get<Status>('/api/status');
  } catch (e) {
    showError(e);
    if (state.authFailed) return; // nothing else will work without the token
  }
  q('offline-banner').hidden = !state.status?.scriptedOffline;
  chan.connect();
  try {
    state.team = await get<Team>('/api/team');
    renderTeam();
  } catch (e) {
    showError(e);
  }
  await Promise.all([loadDialogs(), loadQuestions()]);
  const linked = dialogInAddress();
  if (linked) await openDialog(linked);
  onAddressChange((id) => {
    if (id && id !== state.current?.id) void openDialog(id);
  });
  document.body.dataset.ready = 'true';
}

void start();
