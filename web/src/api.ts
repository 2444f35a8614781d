// The page's one REST client (docs/server.md): every route the UI calls is a typed function of
// `rest` below, so a route's path, body and answer are written once. JSON in and out (uploads:
// raw bytes), `Authorization: Bearer` when a token is known, and failures as `ApiError`.
import type { ReplayBody } from './replay_action';
import { t } from './i18n';
import type { EvalRun, EvalRunSummary, ForkedSummary, TreeDiff } from './eval_types';
import type { FlowThreadView } from './flow_types';
import type { RecordMessage, RecordSession, RecordTurn } from './records_types';
import type {
  Attachment,
  DialogSummary,
  Question,
  RegistryEntry,
  Reminder,
  Status,
  Taskdoc,
  Team,
  Problem,
  TotRun,
  TotStart,
  Transcript,
  Upload,
} from './types';

const TOKEN_KEY = 'parley.token';

/** The token in `<meta name="parley-token">` of a page the server rendered (its own secret on loopback). */
function tokenInPage(doc: Document): string | null {
  return doc.querySelector('meta[name="parley-token"]')?.getAttribute('content') || null;
}

// Only a page of the server's own origin can read it: the page is the credential's carrier.
let pageToken = tokenInPage(document);

/** Takes `#token=…` from the page URL into sessionStorage (then drops it from the address bar). */
export function captureToken(): void {
  const m = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, '', location.pathname + location.search);
  }
}

/** The page's token when the server put one in it, else the one from `#token=`. */
export function token(): string | null {
  return pageToken ?? sessionStorage.getItem(TOKEN_KEY);
}

/**
 * A restarted server has a new secret, so the one in this page is stale: reads the page again
 * (same origin) for the new one. True when there is a new token to retry with.
 */
export async function refreshPageToken(): Promise<boolean> {
  if (pageToken === null) return false;
  try {
    const res = await fetch(location.pathname, { cache: 'no-store' });
    if (!res.ok) return false;
    const fresh = tokenInPage(new DOMParser().parseFromString(await res.text(), 'text/html'));
    if (!fresh || fresh === pageToken) return false;
    pageToken = fresh;
    return true;
  } catch {
    return false;
  }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type AuthListener = () => void;
const authListeners: AuthListener[] = [];
export function onAuthError(fn: AuthListener): void {
  authListeners.push(fn);
}
export function reportAuthError(): void {
  authListeners.forEach((fn) => fn());
}

/** Status of an ApiError for a server that could not be reached at all (nothing was sent or stored). */
export const UNREACHABLE = 0;
/** The status of an ApiError made from a WebSocket `error` packet (its code is REST's; no HTTP status). */
export const OVER_WEBSOCKET = -1;

type Body = { json: unknown } | { raw: Blob; contentType: string } | undefined;

async function send(method: string, path: string, body: Body): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  let payload: BodyInit | undefined;
  if (body && 'json' in body) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body.json);
  } else if (body) {
    headers['Content-Type'] = body.contentType;
    payload = body.raw;
  }
  try {
    return await fetch(path, { method, headers, body: payload });
  } catch {
    // fetch says only "Failed to fetch": say what it means for the user.
    throw new ApiError(UNREACHABLE, 'unreachable', t('serverUnreachable'));
  }
}

function errorOf(data: unknown): { code?: string; message?: string } {
  if (!data || typeof data !== 'object' || !('error' in data)) return {};
  const err = data.error;
  if (!err || typeof err !== 'object') return {};
  return {
    code: 'code' in err && typeof err.code === 'string' ? err.code : undefined,
    message: 'message' in err && typeof err.message === 'string' ? err.message : undefined,
  };
}

// The answer's shape is the route's documented one (docs/server.md): the server is trusted here
// as the PubChan's packets are checked in packets.ts.
async function call<T>(method: string, path: string, body?: Body): Promise<T> {
  let res = await send(method, path, body);
  if (res.status === 401 && (await refreshPageToken())) res = await send(method, path, body);
  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const err = errorOf(data);
    if (res.status === 401) reportAuthError();
    throw new ApiError(res.status, err.code ?? 'http_' + res.status, err.message ?? `${method} ${path}: HTTP ${res.status}`);
  }
  return data as T;
}

const get = <T>(path: string) => call<T>('GET', path);
const post = <T>(path: string, body: unknown = {}) => call<T>('POST', path, { json: body });
const enc = encodeURIComponent;
const dialogPath = (id: string, rest = '') => `/api/dialogs/${enc(id)}${rest}`;

export interface DialogListQuery {
  status: 'running' | 'completed' | 'archived';
  q?: string;
  member?: string;
  limit?: number;
  /** The `nextCursor` of the page before (docs/server.md). */
  cursor?: string;
}

/** One page of GET /api/dialogs: `total` only on pages asked without a cursor (with `q`: the last). */
export interface DialogPage {
  dialogs: DialogSummary[];
  nextCursor: string | null;
  total?: number;
}

export interface NewDialog {
  content: string;
  msgId: string;
  memberId?: string;
  taskDocPath?: string;
  attachment?: Attachment;
}

export interface UserMessage {
  content: string;
  msgId: string;
  attachment?: Attachment;
}

/** POST /api/tot's body. The page's form sends numbers as typed: a value that is not a number
 * goes as its text, and the server's refusal names the field. */
export interface TotRequest {
  problem: string;
  taskType?: string;
  strategy?: string;
  depth?: number | string;
  breadth?: number | string;
  threshold?: number | string;
}

/** Every REST route the page uses. */
export const rest = {
  status: () => get<Status>('/api/status'),
  team: () => get<Team>('/api/team'),
  problems: () => get<{ problems: Problem[] }>('/api/problems'),

  dialogs: (query: DialogListQuery) => {
    const params = new URLSearchParams({ status: query.status, limit: String(query.limit ?? 50) });
    if (query.q) params.set('q', query.q);
    if (query.member) params.set('member', query.member);
    if (query.cursor) params.set('cursor', query.cursor);
    return get<DialogPage>(`/api/dialogs?${params}`);
  },
  dialog: async (id: string) => (await get<{ dialog: DialogSummary }>(dialogPath(id))).dialog,
  children: async (id: string) => (await get<{ children: DialogSummary[] }>(dialogPath(id, '/children'))).children,
  transcript: (id: string, limit = 500) => get<Transcript>(dialogPath(id, `/transcript?limit=${limit}`)),
  reminders: async (id: string) => (await get<{ reminders: Reminder[] }>(dialogPath(id, '/reminders'))).reminders,
  registry: async (rootId: string) => (await get<{ entries: RegistryEntry[] }>(dialogPath(rootId, '/registry'))).entries,
  taskdoc: (rootId: string) => get<Taskdoc>(dialogPath(rootId, '/taskdoc')),
  /** A flow's dialog (seed 004) as its thread, or the sub-thread at `path`. */
  flowThread: (id: string, path = '') => get<FlowThreadView>(dialogPath(id, `/thread${path ? `?path=${enc(path)}` : ''}`)),
  /** The user's message to a flow: answered once the flow waits again, with its thread. */
  sendFlowMessage: (id: string, body: UserMessage) => post<{ msgId: string; flow: FlowThreadView }>(dialogPath(id, '/messages'), body),
  questions: async () => (await get<{ questions: Question[] }>('/api/questions')).questions,

  createDialog: async (body: NewDialog) => (await post<{ dialog: DialogSummary }>('/api/dialogs', body)).dialog,
  sendMessage: (id: string, body: UserMessage) => post<{ accepted: boolean; msgId: string }>(dialogPath(id, '/messages'), body),
  answer: (id: string, body: { questionId: string; content: string; msgId: string }) => post<unknown>(dialogPath(id, '/answer'), body),
  control: (id: string, kind: 'interrupt' | 'resume') => post<unknown>(dialogPath(id, `/${kind}`)),
  /** Seed 001's root lifecycle: mark done, archive, take up again. */
  lifecycle: async (id: string, kind: 'complete' | 'archive' | 'reopen') =>
    (await post<{ dialog: DialogSummary }>(dialogPath(id, `/${kind}`))).dialog,
  /** Renames a dialog: 200 `{title}`; 400 for an empty title, one over 200 characters or with control characters. */
  setTitle: (id: string, title: string) => call<{ title: string }>('PUT', dialogPath(id, '/title'), { json: { title } }),
  stopAll: () => post<{ stopped: string[] }>('/api/stop_all'),
  resumeAll: () => post<{ resumed: string[]; refused: { id: string; message: string }[] }>('/api/resume_all'),

  /** Stores one image or recording (docs/server.md "Uploads and attachments"). */
  upload: async (file: Blob) =>
    (await call<{ upload: Upload }>('POST', '/api/uploads', { raw: file, contentType: file.type || 'application/octet-stream' })).upload,

  /** An upload's bytes (GET /api/uploads/{id} needs the token, which an <img src> cannot send). */
  uploadBytes: async (url: string) => {
    if (!url.startsWith('/api/uploads/')) throw new ApiError(0, 'bad_url', `not an upload: ${url}`);
    let res = await send('GET', url, undefined);
    if (res.status === 401 && (await refreshPageToken())) res = await send('GET', url, undefined);
    if (!res.ok) throw new ApiError(res.status, 'http_' + res.status, `GET ${url}: HTTP ${res.status}`);
    return res.blob();
  },

  recordSessions: async (dialogId: string) =>
    (await get<{ sessions: RecordSession[] }>(`/api/dialogues/${enc(dialogId)}/sessions?sort_by=start_at&limit=500`)).sessions,
  // Pages of 20 turns with at most 100 messages each stay within the 2,000 nested rows the server
  // reads for one response (docs/records.md "Nested loading"); a longer turn's rest comes from its
  // own route, from where its cursor (`messages_next`) points.
  recordTurns: async (sessionId: string) => {
    const turns: RecordTurn[] = [];
    for (let offset = 0; ; offset += 20) {
      const page = await get<{ turns: RecordTurn[]; total: number }>(
        `/api/sessions/${enc(sessionId)}/turns?include=messages&include_limit=100&sort_by=started_at&limit=20&offset=${offset}`,
      );
      for (const turn of page.turns) {
        const messages = turn.messages ?? [];
        const total = turn.messages_total ?? messages.length;
        while (messages.length < total) {
          const rest = await get<{ messages: RecordMessage[] }>(
            `/api/turns/${enc(turn.id)}/messages?limit=500&offset=${messages.length}`,
          );
          if (rest.messages.length === 0) break;
          messages.push(...rest.messages);
        }
        turn.messages = messages;
        turns.push(turn);
      }
      if (page.turns.length === 0 || offset + 20 >= page.total) return turns;
    }
  },
  searchRecordMessages: async (dialogId: string, words: string) =>
    (await get<{ messages: RecordMessage[] }>(`/api/messages/search?q=${enc(words)}&dialogue_id=${enc(dialogId)}&limit=50`)).messages,

  startTot: (body: TotRequest) => post<TotStart>('/api/tot', body),
  tot: (taskId: string) => get<TotRun>(`/api/tot/${enc(taskId)}`),
  /** The ToT runs started on a root dialog (docs/tot.md). */
  totRunsOf: async (rootDialog: string) => (await get<{ runs: TotRun[] }>(`/api/tot?rootDialog=${enc(rootDialog)}`)).runs,

  /** The caller's eval runs, oldest first (docs/eval.md "Over REST"). */
  evalRuns: () => get<{ runs: EvalRunSummary[]; unreadable: string[] }>('/api/eval/runs'),
  evalRun: (id: string) => get<EvalRun>(`/api/eval/runs/${enc(id)}`),
  /** Two root trees aligned, A beside B. */
  diff: (a: string, b: string) => get<TreeDiff>(`/api/diff?a=${enc(a)}&b=${enc(b)}`),
  /** A new root sharing the root's history through its event `at` (docs/fork.md). */
  fork: async (rootId: string, at: number) => (await post<{ dialog: ForkedSummary }>(dialogPath(rootId, '/fork'), { at })).dialog,
  /** A replay of the root's tree with a change, driven by the server in the background (docs/fork.md "Replay"). */
  replay: (rootId: string, body: ReplayBody) =>
    post<{ id: string; replayOf: { dialog: string; from: number; change: string } }>(dialogPath(rootId, '/replay'), body),
};

export function newMsgId(): string {
  if (crypto.randomUUID) return crypto.randomUUID();
  return 'm' + Date.now().toString(36) + Math.random().toString(36).slice(2);
}
