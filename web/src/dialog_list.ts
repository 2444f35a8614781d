// The list of root dialogs on the left: one tab of running, completed or archived roots, filtered by
// search, member and date, paged with the API's cursor (a "show older" button that also loads by
// itself when it scrolls into view), with counts, a loading state, and the live updates of
// dialog_list_evt. It is a listbox: arrow keys move between dialogs, Enter opens one.
import { rest, type DialogPage } from './api';
import { messageOf } from './errors';
import { byTestId as q, h, tr } from './dom';
import { t } from './i18n';
import { stripMarker } from './markers';
import { statusBadge } from './status_label';
import type { DialogSummary, Team } from './types';

export type ListTab = 'running' | 'completed' | 'archived';
const TABS: readonly ListTab[] = ['running', 'completed', 'archived'];
const isTab = (value: string | undefined): value is ListTab => TABS.some((tab) => tab === value);
/** Rows per page: big enough that a long history is a few dozen requests, small enough to draw at once. */
export const LIST_PAGE = 200;
const DAY_MS = 86_400_000;

export interface DialogListHost {
  /** The root of the open dialog, to mark it in the list. */
  currentRootId(): string | undefined;
  open(id: string): void;
}

function select(id: string): HTMLSelectElement {
  const el = q(id);
  if (!(el instanceof HTMLSelectElement)) throw new Error(`${id} is not a select`);
  return el;
}

/** The oldest creation time the date filter lets through (ms), or null for any date. */
function sinceMs(value: string): number | null {
  if (value === 'today') {
    const d = new Date();
    d.setHours(0, 0, 0, 0);
    return d.getTime();
  }
  const days = Number(value);
  return value && Number.isFinite(days) ? Date.now() - days * DAY_MS : null;
}

const createdMs = (d: DialogSummary) => (d.createdAt ? Date.parse(d.createdAt) : 0);
const activityMs = (d: DialogSummary) => Date.parse(d.updatedAt ?? d.createdAt ?? '') || 0;

export class DialogList {
  private tab: ListTab = 'running';
  private query = '';
  private dialogs: DialogSummary[] = [];
  private listedIds = new Set<string>(); // the ids in `dialogs`: a page is checked against it in O(page)
  private nextCursor: string | null = null;
  private total: number | null = null;
  private loading = false;
  private error: string | null = null;
  private generation = 0; // a load for older filters answers into nothing
  private searchTimer: number | undefined;
  private focusedId: string | null = null;

  constructor(private readonly host: DialogListHost) {
    q('dialog-search').addEventListener('input', (e) => {
      window.clearTimeout(this.searchTimer);
      const input = e.target;
      this.searchTimer = window.setTimeout(() => {
        this.query = input instanceof HTMLInputElement ? input.value.trim() : '';
        void this.load();
      }, 250);
    });
    document.querySelectorAll<HTMLElement>('.tabs [data-tab]').forEach((b) =>
      b.addEventListener('click', () => {
        if (isTab(b.dataset.tab)) this.tab = b.dataset.tab;
        void this.load();
      }),
    );
    for (const id of ['dialog-filter-member', 'dialog-filter-date']) q(id).addEventListener('change', () => void this.load());
    // Fetched again, so the order uses each dialog's latest activity.
    q('dialog-sort').addEventListener('change', () => void this.load());
    q('dialog-more').addEventListener('click', () => void this.more());
    q('dialog-list').addEventListener('keydown', (e) => this.onKey(e));
    // Scroll loading: the list's scrolled near its end loads the next page (the button does too).
    q('dialog-list').addEventListener('scroll', () => {
      const ul = q('dialog-list');
      if (ul.scrollTop + ul.clientHeight >= ul.scrollHeight - 200 && this.nextCursor && !this.loading && !this.error) void this.more();
    });
  }

  /** Nothing listed and nothing more to load (the first run, or filters that match nothing). */
  isEmpty(): boolean {
    return this.dialogs.length === 0 && !this.nextCursor && !this.loading;
  }

  /** The member filter's choices, from the team. */
  setMembers(team: Team | null): void {
    const sel = select('dialog-filter-member');
    const prev = sel.value;
    sel.replaceChildren(h('option', { value: '', 'data-i18n': 'anyMember' }, t('anyMember')));
    for (const m of team?.members ?? []) sel.append(h('option', { value: m.id }, `@${m.id}`));
    sel.value = prev;
  }

  /** The first page for the current tab and filters (what was listed before is dropped). */
  async load(): Promise<void> {
    const gen = ++this.generation;
    this.dialogs = [];
    this.listedIds.clear();
    this.nextCursor = null;
    this.total = null;
    this.error = null;
    this.loading = true;
    this.render();
    await this.fetchPage(gen, undefined);
  }

  /** The next page after the last one shown. */
  async more(): Promise<void> {
    if (!this.nextCursor || this.loading) return;
    this.loading = true;
    this.error = null;
    this.renderStatus();
    await this.fetchPage(this.generation, this.nextCursor);
  }

  private async fetchPage(gen: number, cursor: string | undefined): Promise<void> {
    const member = select('dialog-filter-member').value;
    let page: DialogPage;
    try {
      page = await rest.dialogs({ status: this.tab, q: this.query || undefined, member: member || undefined, limit: LIST_PAGE, cursor });
    } catch (e) {
      if (gen !== this.generation) return;
      this.loading = false;
      this.error = messageOf(e);
      this.render();
      return;
    }
    if (gen !== this.generation) return;
    this.loading = false;
    // Newest first by creation: past the date filter's start, no older page can match.
    const since = sinceMs(select('dialog-filter-date').value);
    const fresh = page.dialogs.filter((d) => !this.listedIds.has(d.id));
    const kept = since === null ? fresh : fresh.filter((d) => createdMs(d) >= since);
    const passedStart = since !== null && kept.length < fresh.length;
    this.dialogs.push(...kept);
    for (const d of kept) this.listedIds.add(d.id);
    this.nextCursor = passedStart ? null : page.nextCursor;
    if (typeof page.total === 'number' && since === null) this.total = page.total;
    else if (!this.nextCursor) this.total = this.dialogs.length;
    // An older page in the server's order is appended (ten thousand rows are not drawn again per page).
    if (cursor && select('dialog-sort').value !== 'activity') {
      const currentRoot = this.host.currentRootId();
      q('dialog-list').append(...kept.map((d) => this.item(d, currentRoot)));
      this.renderStatus();
    } else this.render();
    // For the UI's benchmark (history_tests.mjs): when each further page was drawn.
    if (cursor) performance.mark('parley:dialog-page', { detail: this.dialogs.length });
  }

  /** The listed dialogs in the chosen order: newest first (the server's), or by last activity. */
  private ordered(): DialogSummary[] {
    if (select('dialog-sort').value !== 'activity') return this.dialogs;
    return [...this.dialogs].sort((a, b) => activityMs(b) - activityMs(a));
  }

  render(): void {
    document.querySelectorAll<HTMLElement>('.tabs [data-tab]').forEach((b) => {
      b.classList.toggle('active', b.dataset.tab === this.tab);
      b.setAttribute('aria-selected', String(b.dataset.tab === this.tab));
    });
    const ul = q('dialog-list');
    const hadFocus = ul.contains(document.activeElement);
    const currentRoot = this.host.currentRootId();
    const rows = this.ordered();
    if (!rows.some((d) => d.id === this.focusedId)) this.focusedId = rows.find((d) => d.id === currentRoot)?.id ?? rows[0]?.id ?? null;
    // Drawn again in place: whoever scrolled deep into the list stays where they were (replacing
    // every row would put them back at the top, and a scroll to the end would load nothing more).
    const scrolled = ul.scrollTop;
    ul.replaceChildren(...rows.map((d) => this.item(d, currentRoot)));
    ul.scrollTop = scrolled;
    // Redrawn under the keyboard (opening a dialog marks it): the focus stays on its dialog, and the
    // list where it was scrolled (focusing would scroll the focused row into view).
    if (hadFocus) ul.querySelector<HTMLElement>('[tabindex="0"]')?.focus({ preventScroll: true });
    // For the UI's benchmark (history_tests.mjs): when the first dialog was drawn.
    if (rows.length && !performance.getEntriesByName('parley:first-dialog-item').length) performance.mark('parley:first-dialog-item');
    this.renderStatus();
  }

  private item(d: DialogSummary, currentRoot: string | undefined): HTMLElement {
    const title = stripMarker(d.title || '') || `@${d.memberId}`;
    const active = currentRoot === d.id;
    const li = h(
      'li',
      {
        testid: 'dialog-item',
        role: 'option',
        'data-id': d.id,
        'data-created': d.createdAt,
        'data-updated': d.updatedAt,
        class: active ? 'active' : '',
        'aria-selected': String(active),
        tabindex: d.id === this.focusedId ? 0 : -1,
        title: d.title || undefined,
      },
      h('div', { class: 'di-title' }, title),
      h(
        'div',
        { class: 'di-meta' },
        `@${d.memberId} `,
        statusBadge(d),
        (d.openQuestions ?? 0) > 0 ? h('span', { class: 'badge small', testid: 'dialog-item-q4h' }, String(d.openQuestions)) : null,
      ),
    );
    li.addEventListener('click', () => {
      this.focusedId = d.id;
      this.host.open(d.id);
    });
    return li;
  }

  /** Under the list: loading, an error with a retry, nothing found, or how many are shown. */
  private renderStatus(): void {
    const status = q('dialog-list-status');
    const more = q('dialog-more');
    more.hidden = !this.nextCursor || !!this.error;
    more.toggleAttribute('disabled', this.loading);
    q('dialog-list').setAttribute('aria-busy', String(this.loading));
    q('dialog-count').textContent = this.total === null ? '' : String(this.total);
    const filtered = !!this.query || !!select('dialog-filter-member').value || !!select('dialog-filter-date').value;
    if (this.error) {
      const retry = h('button', { type: 'button', class: 'link', testid: 'dialog-list-retry' }, tr('retry'));
      // From the start: a page the server refused (a cursor it does not take) is not asked again.
      retry.addEventListener('click', () => void this.load());
      status.replaceChildren(h('span', { class: 'form-error', testid: 'dialog-list-error' }, `${t('listError')} ${this.error}`), ' ', retry);
    } else if (this.loading) {
      status.replaceChildren(h('span', { class: 'muted', testid: 'dialog-list-loading' }, tr('loadingDialogs')));
    } else if (this.dialogs.length === 0) {
      status.replaceChildren(h('span', { class: 'muted', testid: 'dialog-list-empty' }, tr(filtered ? 'nothingMatches' : 'noDialogsYet')));
    } else {
      const of = this.total !== null ? ` ${t('listOf')} ${this.total}` : this.nextCursor ? '+' : '';
      status.replaceChildren(
        h('span', { class: 'muted small', testid: 'dialog-list-shown' }, `${this.dialogs.length}${of} ${t('listShown')}`),
        this.nextCursor ? '' : h('span', { class: 'muted small', testid: 'dialog-list-end' }, ` · ${t('listEnd')}`),
      );
    }
  }

  /** Arrow keys move between dialogs (the focused one is the list's one Tab stop), Enter opens. */
  private onKey(e: KeyboardEvent): void {
    const items = [...q('dialog-list').querySelectorAll<HTMLElement>('[data-testid="dialog-item"]')];
    const at = items.findIndex((el) => el === document.activeElement);
    let to = at;
    if (e.key === 'ArrowDown') to = Math.min(items.length - 1, at + 1);
    else if (e.key === 'ArrowUp') to = Math.max(0, at - 1);
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = items.length - 1;
    else if ((e.key === 'Enter' || e.key === ' ') && at >= 0) {
      e.preventDefault();
      items[at].click();
      return;
    } else return;
    e.preventDefault();
    if (to < 0 || !items[to]) return;
    items.forEach((el, i) => (el.tabIndex = i === to ? 0 : -1));
    this.focusedId = items[to].dataset.id ?? null;
    items[to].focus();
    if (to === items.length - 1 && this.nextCursor) void this.more();
  }

  /** A root that was created or changed: into, out of or updated in the visible tab. */
  upsert(d: DialogSummary): void {
    if (d.kind !== 'root') return;
    const i = this.dialogs.findIndex((x) => x.id === d.id);
    const member = select('dialog-filter-member').value;
    const belongs = d.status === this.tab && !this.query && (!member || member === d.memberId);
    if (i >= 0 && d.status !== this.tab) {
      this.dialogs.splice(i, 1);
      this.listedIds.delete(d.id);
      if (this.total !== null) this.total--;
    } else if (i >= 0) {
      this.dialogs[i] = d;
      if (select('dialog-sort').value !== 'activity') {
        this.redrawRow(d);
        return;
      }
    } else if (belongs) {
      this.dialogs.unshift(d);
      this.listedIds.add(d.id);
      if (this.total !== null) this.total++;
    } else if (this.query) {
      void this.load();
      return;
    }
    this.render();
  }

  /** A dialog's summary changed (from a packet): a listed root is updated, any root redraws the marks. */
  onSummary(d: DialogSummary): void {
    if (d.kind === 'root' && this.listedIds.has(d.id)) this.upsert(d);
    else if (d.kind === 'root') this.refreshMarks();
  }

  /** One listed dialog changed where it stands: its row alone is drawn again (not ten thousand). */
  private redrawRow(d: DialogSummary): void {
    const old = q('dialog-list').querySelector(`[data-id="${CSS.escape(d.id)}"]`);
    if (!old) return;
    const row = this.item(d, this.host.currentRootId());
    const hadFocus = old.contains(document.activeElement);
    old.replaceWith(row);
    if (hadFocus) row.focus({ preventScroll: true });
    this.renderStatus();
  }

  /** Which row is the open dialog's, marked in place. */
  refreshMarks(): void {
    const currentRoot = this.host.currentRootId();
    for (const li of q('dialog-list').children) {
      if (!(li instanceof HTMLElement)) continue;
      const active = li.dataset.id === currentRoot;
      li.classList.toggle('active', active);
      li.setAttribute('aria-selected', String(active));
    }
  }

  /** After starting a dialog: the running tab without a search or filters, where the new root shows. */
  showRunning(): void {
    const member = select('dialog-filter-member');
    const date = select('dialog-filter-date');
    if (this.tab === 'running' && !this.query && !member.value && !date.value) return;
    this.tab = 'running';
    this.query = '';
    member.value = '';
    date.value = '';
    const search = q('dialog-search');
    if (search instanceof HTMLInputElement) search.value = '';
    void this.load();
  }
}
