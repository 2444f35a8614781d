// The keyboard shortcuts and the `?` overlay that lists them: N (new dialog), / (search), A (answer
// the next question), ? (this list), Escape (close it). Ctrl+Enter sends from the message box
// (composer.ts). Letters act only when no text field has the focus.
import { byTestId as q } from './dom';

export interface ShortcutHost {
  newDialog(): void;
  search(): void;
  answerNext(): void;
}

const typing = (el: Element | null): boolean =>
  el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el instanceof HTMLElement && el.isContentEditable);

let returnFocus: HTMLElement | null = null;

export function toggleShortcuts(show: boolean): void {
  const overlay = q('shortcuts');
  if (show === !overlay.hidden) return;
  overlay.hidden = !show;
  // The page behind the modal list is out of reach (keyboard, pointer and screen readers) while it shows.
  for (const el of overlay.parentElement?.children ?? []) {
    if (el !== overlay && el.getAttribute('aria-live') === null) el.toggleAttribute('inert', show);
  }
  if (show) {
    returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    q('shortcuts-close').focus();
  } else {
    returnFocus?.focus();
  }
}

export function wireShortcuts(host: ShortcutHost): void {
  q('shortcuts-button').addEventListener('click', () => toggleShortcuts(true));
  q('shortcuts-close').addEventListener('click', () => toggleShortcuts(false));
  q('shortcuts').addEventListener('click', (e) => {
    if (e.target === q('shortcuts')) toggleShortcuts(false);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !q('shortcuts').hidden) {
      toggleShortcuts(false);
      return;
    }
    // The overlay is modal: Tab stays on its one button.
    if (!q('shortcuts').hidden && e.key === 'Tab') {
      e.preventDefault();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || typing(document.activeElement)) return;
    if (e.key === '?') toggleShortcuts(q('shortcuts').hidden);
    else if (e.key === 'n' || e.key === 'N') host.newDialog();
    else if (e.key === '/') host.search();
    else if (e.key === 'a' || e.key === 'A') host.answerNext();
    else return;
    e.preventDefault();
  });
}
