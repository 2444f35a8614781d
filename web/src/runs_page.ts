// The runs page (`#/runs`) and one run (`#/runs/RUN`): the caller's eval runs (docs/eval.md "Over
// REST"), each suite's pass rate over time as a bar sparkline, and a run's cases with their
// attempts, checks and judges' reasons; beside an earlier run of the suite (the one `--compare`
// named, else the run of that suite before it) each case is better, worse or the same, with its
// trees side by side.
import { ApiError, rest } from './api';
import { h, tr } from './dom';
import type { EvalCase, EvalRun, EvalRunSummary } from './eval_types';
import { t, type Key } from './i18n';
import { diffHref, dialogHref, runHref, runsHref } from './route';

const percent = (rate: number): string => `${Math.round(rate * 100)}%`;
const when = (ms: number): string => new Date(ms).toLocaleString();

/** The pass rates of a suite's runs as bars (oldest first), drawn without a chart library. */
function sparkline(suite: string, runs: EvalRunSummary[]): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const bar = 8;
  const height = 28;
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('width', String(Math.max(1, runs.length) * (bar + 3)));
  svg.setAttribute('height', String(height));
  svg.setAttribute('role', 'img');
  svg.setAttribute('class', 'sparkline');
  svg.setAttribute('aria-label', `${suite}: ${t('runsTrendLabel')}: ${runs.map((r) => percent(r.passRate)).join(', ')}`);
  runs.forEach((run, i) => {
    const tall = Math.max(2, Math.round(run.passRate * (height - 2)));
    const rect = document.createElementNS(ns, 'rect');
    rect.setAttribute('x', String(i * (bar + 3)));
    rect.setAttribute('y', String(height - tall));
    rect.setAttribute('width', String(bar));
    rect.setAttribute('height', String(tall));
    rect.setAttribute('class', run.passRate >= 1 ? 'bar-pass' : run.passRate > 0 ? 'bar-part' : 'bar-fail');
    const title = document.createElementNS(ns, 'title');
    title.textContent = `${when(run.startedMs)}: ${percent(run.passRate)}`;
    rect.append(title);
    svg.append(rect);
  });
  return svg;
}

function suiteTrends(runs: EvalRunSummary[]): HTMLElement {
  const bySuite = new Map<string, EvalRunSummary[]>();
  for (const run of runs) bySuite.set(run.suite, [...(bySuite.get(run.suite) ?? []), run]);
  const list = h('ul', { class: 'suite-trends', testid: 'suite-trends' });
  for (const [suite, of] of bySuite) {
    const last = of[of.length - 1];
    list.append(h('li', { testid: 'suite-trend', 'data-suite': suite }, h('code', {}, suite), ' ', sparkline(suite, of), ` ${percent(last.passRate)}`));
  }
  return h('section', { class: 'page-section' }, h('h2', {}, tr('runsBySuite')), list);
}

function runsTable(runs: EvalRunSummary[]): HTMLElement {
  const head = (['colSuite', 'colStarted', 'colPassRate', 'colCases', 'colRepeat'] as Key[]).map((k) => h('th', { scope: 'col' }, tr(k)));
  const body = h('tbody');
  for (const run of [...runs].reverse()) {
    body.append(
      h(
        'tr',
        { testid: 'run-row', 'data-run': run.id },
        h('td', {}, h('a', { href: runHref(run.id), testid: 'run-link' }, run.suite)),
        h('td', {}, when(run.startedMs)),
        h('td', { testid: 'run-pass-rate' }, percent(run.passRate)),
        h('td', {}, String(run.cases)),
        h('td', {}, String(run.repeat)),
      ),
    );
  }
  return h('table', { class: 'data-table', testid: 'runs-table' }, h('thead', {}, h('tr', {}, ...head)), body);
}

export async function renderRuns(into: HTMLElement): Promise<void> {
  const { runs, unreadable } = await rest.evalRuns();
  into.replaceChildren(h('h1', {}, tr('runsTitle')));
  if (runs.length === 0) into.append(h('p', { class: 'muted', testid: 'runs-empty' }, tr('runsEmpty')));
  else into.append(suiteTrends(runs), runsTable(runs));
  if (unreadable.length) {
    into.append(h('section', { class: 'page-section' }, h('h2', {}, tr('runsUnreadable')), h('ul', { class: 'small' }, ...unreadable.map((u) => h('li', {}, u)))));
  }
}

// ---- one run ----

type Change = 'better' | 'worse' | 'same' | 'new'; // and 'gone', for the earlier run's cases only

/** As `parley eval --compare` says it: the pass rate rose, fell, or did not move. */
function changeOf(now: EvalCase, before: EvalCase | undefined): Change {
  if (!before) return 'new';
  return now.passRate > before.passRate ? 'better' : now.passRate < before.passRate ? 'worse' : 'same';
}

/** The run to put this one beside: the one `--compare` named, else the suite's run before it. */
async function earlierRun(run: EvalRun): Promise<EvalRun | null> {
  let id = run.comparedWith ?? null;
  if (!id) {
    const { runs } = await rest.evalRuns();
    const before = runs.filter((r) => r.suite === run.suite && r.id !== run.id && r.startedMs <= run.startedMs);
    id = before.length ? before[before.length - 1].id : null;
  }
  if (!id) return null;
  try {
    return await rest.evalRun(id);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null; // gone, or not this user's
    throw e;
  }
}

function caseEl(one: EvalCase, before: EvalCase | undefined, compared: boolean): HTMLElement {
  const change = compared ? changeOf(one, before) : null;
  const now = one.attempts[0]?.rootId;
  const then = before?.attempts[0]?.rootId;
  const head = h(
    'div',
    { class: 'case-head' },
    h('strong', {}, one.name),
    h('span', { class: `verdict ${one.outcome}`, testid: 'case-outcome' }, one.outcome),
    ` ${percent(one.passRate)}`,
    change ? h('span', { class: `change ${change}`, testid: 'case-change' }, tr(`change_${change}` as Key)) : null,
    now && then ? h('a', { href: diffHref(then, now), testid: 'case-diff' }, tr('sideBySide')) : null,
  );
  const attempts = one.attempts.map((a) =>
    h(
      'li',
      { testid: 'attempt', 'data-outcome': a.outcome },
      tr('attempt'),
      ` #${a.attempt}: `,
      h('span', { class: `verdict ${a.outcome}` }, a.outcome),
      ` · ${a.rounds} · ${a.tokens} · ${a.durationMs} ms `,
      a.rootId ? h('a', { href: dialogHref(a.rootId), testid: 'attempt-tree' }, tr('openTree')) : null,
      a.error ? h('div', { class: 'form-error' }, a.error) : null,
      h(
        'ul',
        { class: 'checks' },
        ...a.checks.map((c) =>
          h(
            'li',
            { testid: 'check', 'data-outcome': c.outcome },
            h('span', { class: `verdict ${c.outcome}` }, c.outcome),
            ' ',
            h('code', {}, c.check),
            c.message ? `: ${c.message}` : '',
            c.reasons ? h('div', { class: 'judge-reasons', testid: 'judge-reasons' }, tr('judgeReasons'), `: ${c.reasons}`) : null,
          ),
        ),
      ),
    ),
  );
  return h('section', { class: 'run-case', testid: 'run-case', 'data-case': one.name }, head, h('ul', { class: 'attempts' }, ...attempts));
}

/** The earlier run's cases this run no longer has. */
function goneCases(run: EvalRun, earlier: EvalRun | null): HTMLElement[] {
  const now = new Set(run.cases.map((c) => c.name));
  return (earlier?.cases ?? [])
    .filter((c) => !now.has(c.name))
    .map((c) =>
      h(
        'section',
        { class: 'run-case gone', testid: 'run-case', 'data-case': c.name },
        h('div', { class: 'case-head' }, h('strong', {}, c.name), h('span', { class: 'change gone', testid: 'case-change' }, tr('change_gone')), ` ${percent(c.passRate)} →`),
      ),
    );
}

export async function renderRun(into: HTMLElement, id: string): Promise<void> {
  const run = await rest.evalRun(id);
  const earlier = await earlierRun(run);
  const byName = new Map((earlier?.cases ?? []).map((c) => [c.name, c]));
  into.replaceChildren(
    h('a', { href: runsHref(), testid: 'run-back' }, tr('runBack')),
    h('h1', {}, tr('runTitle'), ' ', h('code', {}, run.id)),
    h('p', { testid: 'run-meta' }, h('code', {}, run.suite), ` · ${when(run.startedMs)} · ${percent(run.passRate)} · ×${run.repeat}`),
    earlier
      ? h('p', { testid: 'run-compared' }, tr('runComparedWith'), ' ', h('a', { href: runHref(earlier.id) }, earlier.id), ` (${when(earlier.startedMs)})`)
      : h('p', { class: 'muted', testid: 'run-compared' }, tr('runNoEarlier')),
    ...run.cases.map((one) => caseEl(one, byName.get(one.name), !!earlier)),
    ...goneCases(run, earlier),
  );
}
