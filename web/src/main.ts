// Parley web UI. The backend drives every dialog; this page only subscribes to PubChan and posts input.
// It keeps render-scope data only: the open dialog's transcript, the visible tree levels, the visible list.
// This file wires the parts together: the dialog list, the tree, Q4H, the composer, the side panels,
// the transcript or records view of the open dialog, and the PubChan's packets to each of them.
import './style.css';
import { ApiError, OVER_WEBSOCKET, captureToken, onAuthError, rest } from './api';
import { Composer } from './composer';
import { renderDialogHead, renderRunCounts } from './dialog_head';
import { wireReplayAction } from './replay_action';
import { DialogList } from './dialog_list';
import { DialogTree } from './dialog_tree';
import { FlowView } from './flow_view';
import { announce, byTestId as q, h, tr } from './dom';
import { showError, showErrorAt, wireErrorBanner } from './errors';
import { t, type Key } from './i18n';
import { LAYOUT_HTML } from './layout';
import { wireNewDialogForm } from './new_dialog';
import { wirePages } from './pages';
import { showPane, wirePaneTabs } from './panes';
import { QuestionsPanel } from './q4h';
import { RecordsView } from './records_view';
import { dialogInAddress, onAddressChange, showDialogInAddress } from './route';
import { fetchSidePanels, renderReminders } from './side_panels';
import { renderProblems, renderTeam } from './team_panel';
import { wireShortcuts } from './shortcuts';
import { initThemeAndLanguage } from './theme';
import { closeTitleEdit, wireTitleEdit } from './title_edit';
import { wireTotForm } from './tot_form';
import { isTotRoot, TotView } from './tot_view';
import { TranscriptView } from './transcript';
import type { DialogSummary, Packet, Question, Status, Team } from './types';
import { PubChan, type ConnState } from './ws';

captureToken();

const app = document.querySelector<HTMLElement>('#app');
if (!app) throw new Error('missing element #app');
app.innerHTML = LAYOUT_HTML;
wirePaneTabs();
wireErrorBanner();
wirePages();
// A phone shows the conversation first: the tree folds to its one-line summary until asked for.
if (matchMedia('(max-width: 600px)').matches) q('tree-box').removeAttribute('open');
const MODE_KEY = 'parley.mode'; // a reload keeps the Records view

// ---------- state (render scope only) ----------

const state = {
  status: null as Status | null,
  team: null as Team | null,
  current: null as DialogSummary | null,
  view: null as TranscriptView | null,
  mode: (sessionStorage.getItem(MODE_KEY) === 'records' ? 'records' : 'transcript') as 'transcript' | 'records',
  records: null as RecordsView | null,
  tot: null as TotView | null, // the thought tree, when the open dialog is a ToT run's root
  flow: null as FlowView | null, // the thread, when the open dialog is a flow's (seed 004)
  authFailed: false,
};

onAuthError(() => {
  state.authFailed = true;
  q('auth-error').hidden = false;
});

const chan = new PubChan(onPacket, onConnState);

const list = new DialogList({
  currentRootId: () => state.current?.rootId,
  open: (id) => void openDialog(id),
});

const tree = new DialogTree({
  currentId: () => state.current?.id,
  open: (id) => void openDialog(id),
  nodesChanged: syncSubscriptions,
});

let knownQuestions: Set<string> | null = null;
const questions = new QuestionsPanel({
  goTo: (question) => void goToQuestion(question),
  changed: () => {
    state.view?.refreshQuestions();
    // A screen reader hears each new question once (not the ones there when the page opened).
    const now = questions.all();
    const fresh = knownQuestions ? now.filter((x) => !knownQuestions!.has(x.id)) : [];
    knownQuestions = new Set(now.map((x) => x.id));
    if (fresh.length) announce(`${t('newQuestion')} @${fresh[0].memberId}: ${fresh[0].tellaskContent.split('\n')[0]}`);
  },
});

const composer = new Composer(chan, {
  current: () => state.current,
  answered: () => questions.schedule(),
  flow: () => state.flow,
});

wireNewDialogForm(async (d) => {
  list.showRunning();
  list.upsert(d);
  await openDialog(d.id, d);
});

// A run's root is announced by dialog_list_evt; it is opened here at once.
wireTotForm(async (run) => {
  list.showRunning();
  await openDialog(run.rootDialog);
});

// ---------- the open dialog ----------

async function openDialog(id: string, known?: DialogSummary): Promise<TranscriptView | null> {
  let d = known;
  try {
    d ??= await rest.dialog(id);
  } catch (e) {
    // Not there, or not this user's to see (another user's dialog): said the same way, in place.
    if (e instanceof ApiError && (e.status === 404 || e.status === 403)) showMissingDialog(id);
    else showError(e);
    return null;
  }
  showDialogInAddress(d.id);
  showPane('center');
  if (composer.answering && composer.answering.dialog.selfId !== d.id) composer.setAnswering(null);
  closeTitleEdit();
  q('head-error').hidden = true;
  state.view?.dispose();
  state.records?.dispose();
  state.records = null;
  state.current = d;
  const view = new TranscriptView(d, transcriptHost);
  state.view = view;
  state.tot?.dispose();
  state.tot = isTotRoot(d.memberId, d.kind) ? new TotView(d.id) : null;
  // A flow member's dialog is its thread (its phase, sub-threads), not a transcript.
  const isFlow = state.team?.members.find((m) => m.id === d.memberId)?.kind === 'flow';
  state.flow = isFlow ? new FlowView(d.id, renderHead) : null;
  q('transcript-scroll').replaceChildren(...(state.tot ? [state.tot.el] : []), state.flow ? state.flow.el : view.el);
  void state.tot?.load();
  state.flow?.load().catch(showError);
  q('composer').hidden = false;
  renderHead();
  list.render();
  syncSubscriptions();
  if (state.mode === 'records') showMode('records');
  await tree.ensure(d);
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
  state.tot?.dispose();
  state.tot = null;
  state.flow = null;
  state.current = null;
  renderHead();
  list.render();
  syncSubscriptions();
  q('composer').hidden = true;
  q('tree-box').hidden = true;
  q('transcript-scroll').replaceChildren(h('div', { class: 'empty', testid: 'missing-dialog' }, tr('noSuchDialog'), ` ${id}`));
}

function renderHead(): void {
  renderDialogHead(state.current, state.flow?.completed ?? false);
  if (state.current) composer.renderState(state.current);
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
  tree.update(d);
  list.onSummary(d);
}

/** Subscribed: the open dialog and every shown tree node (to see their new subdialogs and states). */
function syncSubscriptions(): void {
  const want = new Set<string>();
  if (state.current) want.add(state.current.id);
  for (const id of tree.ids()) want.add(id);
  for (const id of chan.subscribed()) if (!want.has(id)) chan.unsubscribe(id);
  for (const id of want) chan.subscribe(id);
}

// ---------- transcript or records (seed 002's sessions and turns) ----------

function showMode(mode: 'transcript' | 'records'): void {
  state.mode = mode;
  sessionStorage.setItem(MODE_KEY, mode);
  const records = mode === 'records' && !!state.current;
  q('transcript-scroll').hidden = records;
  q('records-scroll').hidden = !records;
  q('composer').hidden = records || !state.current;
  q('view-transcript').setAttribute('aria-pressed', String(!records));
  q('view-records').setAttribute('aria-pressed', String(records));
  if (!records || !state.current) return;
  if (!state.records) {
    state.records = new RecordsView(state.current.id, () => state.current?.status === 'completed' || state.current?.status === 'archived');
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
    else await rest.control(d.id, kind);
  } catch (e) {
    showErrorAt(q('head-error'), e);
  }
}
q('btn-interrupt').addEventListener('click', () => void control('interrupt'));
q('btn-resume').addEventListener('click', () => void control('resume'));

// ---------- seed 001's root lifecycle, and run control over every dialog ----------

async function lifecycle(kind: 'complete' | 'archive' | 'reopen'): Promise<void> {
  const d = state.current;
  if (!d) return;
  try {
    updateSummary(await rest.lifecycle(d.id, kind));
  } catch (e) {
    showErrorAt(q('head-error'), e); // e.g. work in flight: the server names it; said beside the buttons
  }
}
q('btn-complete').addEventListener('click', () => void lifecycle('complete'));
q('btn-archive').addEventListener('click', () => void lifecycle('archive'));
q('btn-reopen').addEventListener('click', () => void lifecycle('reopen'));
wireReplayAction(() => state.current, () => state.team, (id) => void openDialog(id));

let countsTimer: number | undefined;
/** Asks the server again for the run counts, soon (several changes in a row ask once). */
function scheduleRunCounts(delayMs = 300): void {
  window.clearTimeout(countsTimer);
  countsTimer = window.setTimeout(() => {
    // While the server is away (or back with a new secret the page has not read yet) there is
    // nothing to ask; the welcome of the next connection asks again.
    if (!chan.isOpen) return;
    rest
      .status()
      .then((status) => {
        state.status = status;
        renderRunCounts(status.dialogs);
      })
      .catch(() => {}); // the connection banner says when the server is away
  }, delayMs);
}
q('btn-stop-all').addEventListener('click', () => {
  rest.stopAll().then(() => scheduleRunCounts(), showError);
});
q('btn-resume-all').addEventListener('click', () => {
  rest.resumeAll().then((outcome) => {
    if (outcome.refused.length > 0) showError(new Error(outcome.refused.map((r) => `${r.id}: ${r.message}`).join('; ')));
    scheduleRunCounts();
  }, showError);
});

// ---------- Q4H: a question leads to its call, with the composer set to answer it ----------

async function goToQuestion(question: Question): Promise<void> {
  let view = state.view;
  if (!view || state.current?.id !== question.dialog.selfId) view = await openDialog(question.dialog.selfId);
  if (!view) return;
  composer.setAnswering(question);
  const el = question.callId ? view.callElement(question.callId) : undefined;
  if (el) {
    el.scrollIntoView({ block: 'center' });
    el.classList.add('flash');
    window.setTimeout(() => el.classList.remove('flash'), 1500);
  }
}

q('q4h-button').addEventListener('click', () => {
  showPane('right');
  q('q4h-panel').scrollIntoView({ block: 'start' });
  const first = questions.first();
  if (first) void goToQuestion(first);
});

wireTitleEdit({
  current: () => state.current,
  renamed: (d) => {
    updateSummary(d);
    list.upsert(d);
  },
});

wireShortcuts({
  newDialog: () => {
    showPane('left');
    const fold = q('new-dialog');
    if (fold instanceof HTMLDetailsElement) fold.open = true;
    q('new-content').focus();
  },
  search: () => {
    showPane('left');
    q('dialog-search').focus();
  },
  answerNext: () => {
    const first = questions.first();
    if (!first) return;
    void goToQuestion(first).then(() => q('input').focus());
  },
});

const transcriptHost = {
  openDialog: (id: string) => void openDialog(id),
  questionForCall: (dialogId: string, callId: string) => questions.forCall(dialogId, callId),
  loaded: (dialogId: string) => {
    if (state.current?.id === dialogId) void loadSidePanels();
  },
  startAnswer: (dialogId: string, callId: string) => {
    const question = questions.forCall(dialogId, callId);
    if (question) void goToQuestion(question);
  },
};

// ---------- side panels: reminders, registry, Taskdoc (side_panels.ts) ----------

async function loadSidePanels(): Promise<void> {
  const d = state.current;
  if (!d) return;
  const rootId = d.rootId || d.id;
  const root = rootId === d.id ? d : tree.summary(rootId);
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
  // Anything may have changed while we were away.
  if (s === 'open') questions.schedule();
}

// Packets after which a dialog's records have changed.
const RECORD_CHANGES = new Set<Packet['type']>(['user_message_evt', 'generating_finish_evt', 'tool_result_evt', 'dialog_state_evt']);

function onPacket(p: Packet): void {
  switch (p.type) {
    case 'questions_count_update':
      questions.schedule();
      return;
    case 'dialog_list_evt':
      scheduleRunCounts(); // a root started or changed status: the counts may have moved
      if (typeof p.dialog.id === 'string') {
        list.upsert(p.dialog);
        updateSummary(p.dialog);
      } else {
        void list.load();
      }
      return;
    case 'error':
      showError(new ApiError(OVER_WEBSOCKET, p.code || 'error', p.message || p.code || 'error'));
      return;
    case 'welcome':
      scheduleRunCounts();
      return;
    case 'ack':
      return;
  }
  const id = p.dialog.selfId;
  const current = state.current;
  const inCurrentRoot = !!current && current.rootId === p.dialog.rootId;
  if (p.type === 'subdialog_created_evt') {
    tree.onSubdialogCreated(id, p.subdialog);
    if (current && (current.rootId || current.id) === p.dialog.rootId) void loadSidePanels();
  }
  if (p.type === 'dialog_state_evt') updateSummary(p.state);
  if (p.type === 'dialog_state_evt' || p.type === 'generating_start_evt') scheduleRunCounts();
  // A ToT run reports its thoughts on its root; a resync of the root fetches the run again.
  if (state.tot && current?.id === id) {
    if (p.type === 'tot_progress_evt') state.tot.onProgress(p);
    if (p.type === 'resync') void state.tot.load();
  }
  if ((p.type === 'flow_thread_evt' || p.type === 'flow_chunk_evt') && state.flow && current?.id === id) {
    state.flow.onPacket(p);
  }
  if (p.type === 'reminders_update_evt' && current?.id === id) renderReminders(p.reminders);
  if (p.type === 'tellask_call_evt' && inCurrentRoot) void loadSidePanels();
  if (p.type === 'tool_result_evt' && p.name === 'change_mind' && inCurrentRoot) void loadSidePanels();
  if (current?.id === id && state.mode === 'records' && RECORD_CHANGES.has(p.type)) scheduleRecordsReload();
  if (current?.id === id && p.type === 'generating_finish_evt') announce(`${t('newAnswer')} @${current.memberId}`);
  if (current?.id === id && state.view) {
    if (p.type === 'generating_start_evt' && !current.generating) updateSummary({ ...current, generating: true });
    state.view.onEvent(p);
  }
}

function renderAll(): void {
  renderTeam(state.team);
  list.render();
  questions.render();
  renderHead();
  tree.render();
}

// ---------- start ----------

async function start(): Promise<void> {
  initThemeAndLanguage(() => {
    renderAll();
    // Its dates are written in the language they were drawn in.
    if (state.records && state.mode === 'records') void state.records.load();
  });
  try {
    state.status = await rest.status();
  } catch (e) {
    showError(e);
    if (state.authFailed) return; // nothing else will work without the token
  }
  q('offline-banner').hidden = !state.status?.scriptedOffline;
  renderRunCounts(state.status?.dialogs);
  chan.connect();
  try {
    state.team = await rest.team();
    renderTeam(state.team);
    list.setMembers(state.team);
    // Only what the team can run is offered: the ToT form needs a tot-orchestrator member.
    const canTot = state.team.members.some((m) => m.id === 'tot-orchestrator');
    q('tot-form').hidden = !canTot;
    q('tot-unavailable').hidden = canTot;
  } catch (e) {
    showError(e);
  }
  try {
    renderProblems((await rest.problems()).problems);
  } catch (e) {
    showError(e);
  }
  await Promise.all([list.load(), questions.load()]);
  // The first run's page offers the form to start one; after that the list has the room.
  const fold = q('new-dialog');
  if (fold instanceof HTMLDetailsElement) fold.open = list.isEmpty();
  const linked = dialogInAddress();
  if (linked) await openDialog(linked);
  onAddressChange((id) => {
    if (id && id !== state.current?.id) void openDialog(id);
  });
  document.body.dataset.ready = 'true';
}

void start();
