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
  if (location.hash !== want) history.pushState(null, '', want);
}

/** Calls `open` when back, forward or an edited address names another dialog. */
export function onAddressChange(open: (id: string | null) => void): void {
  window.addEventListener('popstate', () => open(dialogInAddress()));
}
