// The list of root dialogs on the left: one tab of running, completed or archived roots, a search
// box, and the live updates of dialog_list_evt. Only the visible page of the list is kept.
import { rest } from './api';
import { byTestId as q, h, tr } from './dom';
import { showError } from './errors';
import { statusBadge } from './status_label';
import type { DialogSummary } from './types';

export type ListTab = 'running' | 'completed' | 'archived';
const TABS: readonly ListTab[] = ['running', 'completed', 'archived'];
const isTab = (value: string | undefined): value is ListTab => TABS.some((tab) => tab === value);

export interface DialogListHost {
  /** The root of the open dialog, to mark it in the list. */
  currentRootId(): string | undefined;
  open(id: string): void;
}

export class DialogList {
  private tab: ListTab = 'running';
  private query = '';
  private dialogs: DialogSummary[] = [];
  private searchTimer: number | undefined;

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
  }

  async load(): Promise<void> {
    try {
      const res = await rest.dialogs({ status: this.tab, q: this.query || undefined, limit: 50 });
      this.dialogs = res.dialogs;
      this.render();
    } catch (e) {
      showError(e);
    }
  }

  render(): void {
    document.querySelectorAll<HTMLElement>('.tabs [data-tab]').forEach((b) => {
      b.classList.toggle('active', b.dataset.tab === this.tab);
      b.setAttribute('aria-selected', String(b.dataset.tab === this.tab));
    });
    const ul = q('dialog-list');
    ul.replaceChildren();
    if (this.dialogs.length === 0) {
      ul.append(h('li', { class: 'muted' }, tr('noDialogs')));
      return;
    }
    const currentRoot = this.host.currentRootId();
    for (const d of this.dialogs) {
      const li = h(
        'li',
        { testid: 'dialog-item', 'data-id': d.id, class: currentRoot === d.id ? 'active' : '' },
        h('div', { class: 'di-title' }, d.title || `@${d.memberId}`),
        h(
          'div',
          { class: 'di-meta' },
          `@${d.memberId} `,
          statusBadge(d),
          (d.openQuestions ?? 0) > 0 ? h('span', { class: 'badge small' }, String(d.openQuestions)) : null,
        ),
      );
      li.addEventListener('click', () => this.host.open(d.id));
      ul.append(li);
    }
  }

  /** A root that was created or changed: into, out of or updated in the visible tab. */
  upsert(d: DialogSummary): void {
    if (d.kind !== 'root') return;
    const i = this.dialogs.findIndex((x) => x.id === d.id);
    const belongs = d.status === this.tab && !this.query;
    if (i >= 0 && d.status !== this.tab) this.dialogs.splice(i, 1);
    else if (i >= 0) this.dialogs[i] = d;
    else if (belongs) this.dialogs.unshift(d);
    else if (this.query) {
      void this.load();
      return;
    }
    this.render();
  }

  /** A dialog's summary changed (from a packet): a listed root is updated, any root redraws the marks. */
  onSummary(d: DialogSummary): void {
    if (d.kind === 'root' && this.dialogs.some((x) => x.id === d.id)) this.upsert(d);
    else if (d.kind === 'root') this.render();
  }

  /** After starting a dialog: the running tab without a search, where the new root shows. */
  showRunning(): void {
    if (this.tab === 'running' && !this.query) return;
    this.tab = 'running';
    this.query = '';
    const search = q('dialog-search');
    if (search instanceof HTMLInputElement) search.value = '';
  }
}
