// The open dialog in the address bar, `#/dialog/ID` (issue 24): a dialog can be bookmarked and
// shared, back and forward move between the dialogs opened, and a reload stays where it was.

const PREFIX = '#/dialog/';

/** The dialog the address names, if any. */
export function dialogInAddress(): string | null {
  if (!location.hash.startsWith(PREFIX)) return null;
  const id = location.hash.slice(PREFIX.length);
  try {
    return id ? decodeURIComponent(id) : null;
  } catch {
    return null;
  }
}

/** Records that `id` is open: a new history entry unless the address already names it. */
export function showDialogInAddress(id: string): void {
  const want = PREFIX + encodeURIComponent(id);
  if (location.hash === want) return;
  history.pushState(null, '', want);
  // pushState fires no hashchange: a page shown over the panes (pages.ts) hears of it this way.
  window.dispatchEvent(new Event(ADDRESS_SET));
}

/** The event `showDialogInAddress` sends when it changed the address. */
export const ADDRESS_SET = 'parley:address';

/** Calls `open` when back, forward or an edited address names another dialog. */
export function onAddressChange(open: (id: string | null) => void): void {
  window.addEventListener('popstate', () => open(dialogInAddress()));
}

// ---- pages over the panes: the eval runs and the side-by-side view (web/README.md) ----

/** `#/runs`, `#/runs/RUN` and `#/diff/A/B`: a page shown instead of the three panes. */
export type Page = { kind: 'runs' } | { kind: 'run'; id: string } | { kind: 'diff'; a: string; b: string };

function decodeParts(rest: string): string[] | null {
  try {
    return rest.split('/').map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

/** The page the address names, if any. */
export function pageInAddress(): Page | null {
  const hash = location.hash;
  if (hash === '#/runs') return { kind: 'runs' };
  const run = hash.startsWith('#/runs/') ? decodeParts(hash.slice('#/runs/'.length)) : null;
  if (run && run.length === 1 && run[0]) return { kind: 'run', id: run[0] };
  const diff = hash.startsWith('#/diff/') ? decodeParts(hash.slice('#/diff/'.length)) : null;
  if (diff && diff.length === 2 && diff[0] && diff[1]) return { kind: 'diff', a: diff[0], b: diff[1] };
  return null;
}

export const runsHref = (): string => '#/runs';
export const runHref = (id: string): string => `#/runs/${encodeURIComponent(id)}`;
export const diffHref = (a: string, b: string): string => `#/diff/${encodeURIComponent(a)}/${encodeURIComponent(b)}`;
export const dialogHref = (id: string): string => PREFIX + encodeURIComponent(id);
