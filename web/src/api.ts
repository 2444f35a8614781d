// REST client: JSON in and out, `Authorization: Bearer` when a token is known.

const TOKEN_KEY = 'parley.token';

/** Takes `#token=…` from the page URL into sessionStorage (then drops it from the address bar). */
export function captureToken(): void {
  const m = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, '', location.pathname + location.search);
  }
}

export function token(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
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

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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
