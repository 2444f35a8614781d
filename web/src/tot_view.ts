// A Tree of Thoughts run (seed 003, docs/tot.md) drawn above its root's transcript: every thought
// with its score, pruned branches struck through, the best path marked, and the final solution.
// Fetched once from GET /api/tot?rootDialog=… when the root opens (and again on a resync), then
// kept up to date by the root's tot_progress_evt packets: each thought as the search generates,
// values or prunes it, and the run's end. A run the server was stopped in is shown as
// interrupted, with the command that resumes it.
import { rest } from './api';
import { h, tr } from './dom';
import { showError } from './errors';
import type { Key } from './i18n';
import type { TotProgressEvtPacket } from './protocol.gen';
import type { FinalSolution, ThoughtNode, TotRun } from './types';

const STATUS_KEYS: Record<TotRun['status'], Key> = {
  running: 'tot_running',
  solved: 'tot_solved',
  failed: 'tot_failed',
  interrupted: 'tot_interrupted',
};
const NODE_KEYS: Record<ThoughtNode['status'], Key> = {
  pending: 'node_pending',
  expanded: 'node_expanded',
  pruned: 'node_pruned',
  terminal: 'node_terminal',
};

const isRunStatus = (s: string): s is TotRun['status'] => Object.hasOwn(STATUS_KEYS, s);

/** Whether a dialog is the root of a ToT run (the orchestrator member holds it). */
export const isTotRoot = (memberId: string, kind: string) => kind === 'root' && memberId === 'tot-orchestrator';

export class TotView {
  readonly el: HTMLElement;
  private run: TotRun | null = null;
  private loading = false;
  private again = false;
  private disposed = false;
  private frame = 0;
  // Packets that arrive while the run is fetched: played on top of what the fetch returns.
  private pending: TotProgressEvtPacket[] | null = null;

  constructor(private readonly rootDialog: string) {
    this.el = h('section', { class: 'tot-view', testid: 'tot-view' });
  }

  dispose(): void {
    this.disposed = true;
    window.cancelAnimationFrame(this.frame);
  }

  async load(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = true;
    this.pending = [];
    try {
      const runs = await rest.totRunsOf(this.rootDialog);
      if (this.disposed) return;
      this.run = runs[runs.length - 1] ?? null;
      for (const p of this.pending) this.apply(p);
      this.el.dataset.loaded = 'true';
      this.render();
    } catch (e) {
      showError(e);
    } finally {
      this.loading = false;
      this.pending = null;
    }
    if (!this.disposed && this.again) {
      this.again = false;
      void this.load();
    }
  }

  /** A tot_progress_evt of this root: the thought or the end it reports, drawn on the next frame. */
  onProgress(p: TotProgressEvtPacket): void {
    if (this.pending) {
      this.pending.push(p);
      return;
    }
    this.apply(p);
    if (!this.frame) {
      this.frame = window.requestAnimationFrame(() => {
        this.frame = 0;
        if (!this.disposed) this.render();
      });
    }
  }

  private apply(p: TotProgressEvtPacket): void {
    if (!this.run || this.run.taskId !== p.taskId) {
      this.run = { taskId: p.taskId, rootDialog: this.rootDialog, status: 'running', nodes: [], bestPath: [] };
    }
    const run = this.run;
    if (isRunStatus(p.status)) run.status = p.status;
    const node = p.node;
    if (node) {
      const at = run.nodes.findIndex((n) => n.id === node.id);
      if (at >= 0) run.nodes[at] = node;
      else run.nodes.push(node);
    }
    if (p.bestPath) run.bestPath = p.bestPath;
    if (p.finalSolution) run.finalSolution = p.finalSolution;
  }

  private render(): void {
    const run = this.run;
    if (!run) {
      this.el.dataset.status = 'gone';
      this.el.replaceChildren(h('h3', {}, tr('totTitle')), h('div', { class: 'muted', testid: 'tot-gone' }, tr('totGone')));
      return;
    }
    this.el.dataset.status = run.status;
    this.el.dataset.task = run.taskId;
    const best = new Set(run.bestPath);
    const head = h(
      'h3',
      {},
      tr('totTitle'),
      ' ',
      h('span', { class: `status tot-${run.status}`, testid: 'tot-status', 'data-status': run.status }, tr(STATUS_KEYS[run.status])),
      ' ',
      h('span', { class: 'muted small' }, run.taskId),
    );
    const resume =
      run.status === 'interrupted'
        ? h('div', { class: 'muted', testid: 'tot-interrupted' }, tr('totInterrupted'), ' ', h('code', {}, `parley tot --resume ${run.taskId}`))
        : '';
    const tree = this.treeEl(run.nodes, best);
    this.el.replaceChildren(head, resume, tree, run.finalSolution ? this.finalEl(run.finalSolution) : '');
  }

  private treeEl(nodes: ThoughtNode[], best: Set<string>): HTMLElement {
    if (nodes.length === 0) return h('div', { class: 'muted' }, tr('totNoNodes'));
    const byId = new Map(nodes.map((n) => [n.id, n]));
    // A node's children by their parent_id: the view keeps each node as it was last reported, so a
    // parent's own children_ids may predate its children.
    const children = new Map<string, ThoughtNode[]>();
    for (const n of [...nodes].sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }))) {
      if (n.parent_id && byId.has(n.parent_id)) children.set(n.parent_id, [...(children.get(n.parent_id) ?? []), n]);
    }
    const childrenOf = (n: ThoughtNode) => children.get(n.id) ?? [];
    const nodeEl = (n: ThoughtNode): HTMLElement => {
      // The problem itself is never scored; a thought not scored yet says so.
      const score = n.evaluation
        ? h('span', { class: 'tot-score', testid: 'tot-score', title: n.evaluation.reasoning }, n.evaluation.score.toFixed(1))
        : h('span', { class: 'tot-score none' }, n.parent_id ? tr('totNoScore') : '');
      const li = h(
        'li',
        {
          class: `tot-node ${n.status} ${best.has(n.id) ? 'best' : ''}`,
          testid: 'tot-node',
          'data-id': n.id,
          'data-status': n.status,
          'data-best': String(best.has(n.id)),
        },
        h(
          'div',
          { class: 'tot-row' },
          score,
          h('span', { class: 'tot-content', testid: 'tot-content' }, n.content),
          // Pending says nothing yet; expanded, pruned and terminal do.
          n.status === 'pending' ? null : h('span', { class: `tag node-${n.status}` }, tr(NODE_KEYS[n.status])),
          best.has(n.id) ? h('span', { class: 'tag best-tag' }, tr('totBest')) : null,
        ),
      );
      const kids = childrenOf(n);
      if (kids.length) li.append(h('ul', {}, ...kids.map(nodeEl)));
      return li;
    };
    // Roots: nodes without a parent, or whose parent the view does not hold.
    const roots = nodes.filter((n) => !n.parent_id || !byId.has(n.parent_id));
    return h('ul', { class: 'tot-tree', testid: 'tot-tree' }, ...roots.map(nodeEl));
  }

  private finalEl(f: FinalSolution): HTMLElement {
    const verified = f.verification.is_valid;
    return h(
      'div',
      { class: `tot-final ${verified ? 'ok' : 'fail'}`, testid: 'tot-final', 'data-valid': String(verified) },
      h(
        'div',
        { class: 'call-head' },
        tr('totAnswer'),
        ' ',
        h('span', { class: 'tag' }, tr(verified ? 'totVerified' : 'totNotVerified')),
        ' ',
        tr('totConfidence'),
        ` ${f.confidence.toFixed(2)}`,
      ),
      h('div', { class: 'tot-answer', testid: 'tot-answer' }, f.answer),
      f.verification.validation_errors.length
        ? h('ul', { class: 'tot-errors', testid: 'tot-errors' }, ...f.verification.validation_errors.map((e) => h('li', {}, e)))
        : null,
    );
  }
}
