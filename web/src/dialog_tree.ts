// The open dialog's tree: its root and the subdialogs below it, loaded lazily. A collapsed subtree
// is dropped and fetched again on expand, so only the visible levels are kept. Every node shown
// is subscribed on the PubChan (see main.ts) to see its new subdialogs and state changes.
import { rest } from './api';
import { byTestId as q, h } from './dom';
import { showError } from './errors';
import { dialogLabel, statusBadge } from './status_label';
import type { DialogSummary } from './types';

interface TreeNode {
  summary: DialogSummary;
  children: string[] | null; // loaded only while expanded
  expanded: boolean;
}

export interface DialogTreeHost {
  currentId(): string | undefined;
  open(id: string): void;
  /** The set of shown nodes changed: subscriptions follow it. */
  nodesChanged(): void;
}

export class DialogTree {
  private rootId: string | null = null;
  private nodes = new Map<string, TreeNode>();
  private announcedDuringFetch = new Map<string, DialogSummary[]>(); // by parent, while its children are fetched

  private focusedId: string | null = null; // the tree's one Tab stop

  constructor(private readonly host: DialogTreeHost) {
    q('tree').addEventListener('keydown', (e) => this.onKey(e));
  }

  ids(): string[] {
    return [...this.nodes.keys()];
  }

  summary(id: string): DialogSummary | undefined {
    return this.nodes.get(id)?.summary;
  }

  /** Shows the tree of `d`'s root with `d` visible: its ancestors expanded, top down. */
  async ensure(d: DialogSummary): Promise<void> {
    const rootId = d.rootId || d.id;
    if (this.rootId !== rootId) {
      this.rootId = rootId;
      this.focusedId = null;
      this.nodes.clear();
      let root: DialogSummary;
      try {
        root = d.id === rootId ? d : await rest.dialog(rootId);
      } catch (e) {
        showError(e);
        return;
      }
      this.nodes.set(rootId, { summary: root, children: null, expanded: false });
      await this.expand(rootId);
    }
    if (!this.nodes.has(d.id)) {
      const chain: string[] = [];
      let parent = d.parentId;
      while (parent && !this.nodes.get(parent)?.expanded) {
        chain.unshift(parent);
        if (this.nodes.has(parent)) break;
        try {
          parent = (await rest.dialog(parent)).parentId;
        } catch {
          break;
        }
      }
      for (const id of chain) if (this.nodes.has(id)) await this.expand(id);
    }
    q('tree-box').hidden = false;
    this.render();
  }

  async expand(id: string): Promise<void> {
    const node = this.nodes.get(id);
    if (!node) return;
    // Children announced while the list is fetched may be missing from it: they are added after.
    const announced: DialogSummary[] = [];
    this.announcedDuringFetch.set(id, announced);
    try {
      const fetched = await rest.children(id);
      const children = [...fetched, ...announced.filter((a) => !fetched.some((c) => c.id === a.id))];
      node.children = children.map((c) => c.id);
      for (const c of children) {
        const existing = this.nodes.get(c.id);
        this.nodes.set(c.id, { summary: c, children: existing?.children ?? null, expanded: existing?.expanded ?? false });
      }
      node.expanded = true;
    } catch (e) {
      showError(e);
    } finally {
      this.announcedDuringFetch.delete(id);
    }
    this.host.nodesChanged();
    this.render();
  }

  collapse(id: string): void {
    const node = this.nodes.get(id);
    if (!node) return;
    const drop = (nid: string) => {
      for (const c of this.nodes.get(nid)?.children ?? []) {
        drop(c);
        this.nodes.delete(c);
      }
    };
    drop(id);
    node.children = null;
    node.expanded = false;
    this.host.nodesChanged();
    this.render();
  }

  /** A shown dialog's new summary (from a packet). */
  update(d: DialogSummary): void {
    const node = this.nodes.get(d.id);
    if (!node) return;
    node.summary = d;
    this.render();
  }

  onSubdialogCreated(parentId: string, sub: DialogSummary): void {
    this.announcedDuringFetch.get(parentId)?.push(sub);
    const parent = this.nodes.get(parentId);
    if (!parent) return;
    parent.summary = { ...parent.summary, hasChildren: true };
    if (parent.expanded && parent.children && !parent.children.includes(sub.id)) {
      parent.children.push(sub.id);
      this.nodes.set(sub.id, { summary: sub, children: null, expanded: false });
      this.host.nodesChanged();
    }
    this.render();
  }

  render(): void {
    const ul = q('tree');
    const hadFocus = ul.contains(document.activeElement);
    ul.replaceChildren();
    if (!this.rootId) return;
    if (!this.focusedId || !this.nodes.has(this.focusedId)) this.focusedId = this.host.currentId() ?? this.rootId;
    const rootEl = this.nodeEl(this.rootId, 1);
    if (rootEl) ul.append(rootEl);
    if (hadFocus) this.itemEl(this.focusedId)?.focus();
  }

  private itemEl(id: string | null): HTMLElement | null {
    return id ? q('tree').querySelector<HTMLElement>(`[data-testid="tree-node"][data-id="${CSS.escape(id)}"]`) : null;
  }

  /** The tree's keys (WAI-ARIA tree view): up and down through the shown rows, right expands or goes
   *  to the first child, left collapses or goes to the parent, Enter opens, Home and End. */
  private onKey(e: KeyboardEvent): void {
    const items = [...q('tree').querySelectorAll<HTMLElement>('[data-testid="tree-node"]')];
    const at = items.findIndex((el) => el === document.activeElement);
    if (at < 0) return;
    const id = items[at].dataset.id ?? '';
    const node = this.nodes.get(id);
    let to: number | null = null;
    if (e.key === 'ArrowDown') to = Math.min(items.length - 1, at + 1);
    else if (e.key === 'ArrowUp') to = Math.max(0, at - 1);
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = items.length - 1;
    else if (e.key === 'ArrowRight' && node) {
      if (!node.expanded && (node.summary.hasChildren || (node.children?.length ?? 0) > 0)) void this.expand(id);
      else if (node.expanded && node.children?.length) to = at + 1;
    } else if (e.key === 'ArrowLeft' && node) {
      if (node.expanded) this.collapse(id);
      else if (node.summary.parentId && this.nodes.has(node.summary.parentId)) to = items.findIndex((el) => el.dataset.id === node.summary.parentId);
    } else if (e.key === 'Enter' || e.key === ' ') this.host.open(id);
    else return;
    e.preventDefault();
    if (to === null || to < 0 || !items[to]) return;
    items.forEach((el, i) => (el.tabIndex = i === to ? 0 : -1));
    this.focusedId = items[to].dataset.id ?? null;
    items[to].focus();
  }

  private nodeEl(id: string, level: number): HTMLElement | null {
    const node = this.nodes.get(id);
    if (!node) return null;
    const d = node.summary;
    const canExpand = d.hasChildren || (node.children?.length ?? 0) > 0;
    // Not a button: a tree item holds no control of its own (the arrow keys expand and collapse).
    const toggle = h(
      'span',
      { class: `twisty${canExpand || node.expanded ? '' : ' leaf'}`, testid: 'tree-toggle', 'aria-hidden': 'true' },
      node.expanded ? '▾' : canExpand ? '▸' : '·',
    );
    toggle.addEventListener('click', (e) => {
      e.stopPropagation();
      if (node.expanded) this.collapse(id);
      else if (canExpand) void this.expand(id);
    });
    const text = d.kind === 'root' ? `@${d.memberId}${d.title ? ` · ${dialogLabel(d)}` : ''}` : dialogLabel(d);
    const label = h('span', { class: 'tree-label', testid: 'tree-label', title: d.title ? `${text}\n${d.title}` : text }, text);
    const current = this.host.currentId() === id;
    const row = h(
      'div',
      { class: `tree-row ${current ? 'current' : ''}` },
      toggle,
      label,
      ' ',
      statusBadge(d),
      (d.openQuestions ?? 0) > 0 ? h('span', { class: 'badge small', testid: 'tree-q4h' }, String(d.openQuestions)) : null,
    );
    row.addEventListener('click', () => {
      this.focusedId = id;
      this.host.open(id);
    });
    const li = h(
      'li',
      {
        testid: 'tree-node',
        role: 'treeitem',
        'aria-level': level,
        'aria-selected': String(current),
        'aria-expanded': canExpand || node.expanded ? String(node.expanded) : undefined,
        tabindex: this.focusedId === id ? 0 : -1,
        'data-id': id,
        'data-kind': d.kind,
        'data-member': d.memberId,
      },
      row,
    );
    if (node.expanded && node.children && node.children.length > 0) {
      const sub = h('ul', { role: 'group' });
      for (const c of node.children) {
        const cel = this.nodeEl(c, level + 1);
        if (cel) sub.append(cel);
      }
      li.append(sub);
    }
    return li;
  }
}
