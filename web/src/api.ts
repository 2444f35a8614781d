// REST client: JSON in and out, `Authorization: Bearer` when a token is known.
import { t } from './i18n';

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

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    return await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    // fetch says only "Failed to fetch": say what it means for the user.
    throw new ApiError(UNREACHABLE, 'unreachable', t('serverUnreachable'));
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
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
    const err = (data as { error?: { code?: string; message?: string } } | null)?.error;
    if (res.status === 401) reportAuthError();
    throw new ApiError(res.status, err?.code ?? 'http_' + res.status, err?.message ?? `${method} ${path}: HTTP ${res.status}`);
  }
  return data as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});

export function newMsgId(): string {
  if (crypto.randomUUID) return crypto.randomUUID();
  return 'm' + Date.now().toString(36) + Math.random().toString(36).slice(2);
}
