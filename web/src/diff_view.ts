// The side-by-side view (`#/diff/A/B`): two root trees as GET /api/diff aligns them (docs/eval.md
// "The alignment") — each dialog pair's steps (tool calls, Tellasks, questions to the human) in two
// columns, where the trees first part marked, the final answers' line diff, and tokens, cost,
// latency and rounds per member. Everything shown is text from the log: set as text, never HTML.
import { rest } from './api';
import { h, tr } from './dom';
import type { DiffDialog, DiffStats, DiffStep, TreeDiff } from './eval_types';
import { t, type Key } from './i18n';
import { dialogHref } from './route';

function stepEl(step: DiffStep | null): HTMLElement {
  if (!step) return h('td', { class: 'diff-missing' }, t('diffNone'));
  return h('td', {}, h('span', { class: 'step-kind' }, step.kind), ' ', h('code', {}, step.name), step.detail ? h('div', { class: 'step-detail' }, step.detail) : null);
}

function side(id: string | null): HTMLElement | string {
  return id ? h('a', { href: dialogHref(id) }, id) : t('diffNone');
}

function dialogTable(dialog: DiffDialog, diff: TreeDiff): HTMLElement {
  const partsHere = diff.firstParting?.path === dialog.path;
  const rows = dialog.steps.map((pair, i) => {
    const parting = partsHere && diff.firstParting?.step === i;
    const cls = `${pair.same ? 'same' : 'differs'}${parting ? ' parting' : ''}`;
    return h('tr', { class: cls, testid: 'diff-step', 'data-same': String(pair.same), 'data-parting': parting ? 'true' : null }, h('th', { scope: 'row' }, String(i + 1)), stepEl(pair.a), stepEl(pair.b));
  });
  const wholeParting = partsHere && diff.firstParting?.step === null;
  return h(
    'table',
    { class: `data-table diff-table${wholeParting ? ' parting' : ''}`, testid: 'diff-dialog', 'data-path': dialog.path, 'data-same': String(dialog.same) },
    h('caption', {}, h('code', {}, dialog.path), wholeParting ? h('span', { class: 'change worse' }, tr('diffOnlyOne')) : null),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'A ', side(dialog.a)), h('th', { scope: 'col' }, 'B ', side(dialog.b)))),
    h('tbody', {}, ...rows),
  );
}

function summaryEl(diff: TreeDiff): HTMLElement {
  if (diff.identical) return h('p', { testid: 'diff-summary' }, tr('diffIdentical'));
  const at = diff.firstParting;
  if (!at) return h('p', { testid: 'diff-summary' }, tr('diffSameSteps'));
  const where = at.step === null ? t('diffOnlyOne') : `${t('diffStep')} ${at.step + 1}`;
  return h('p', { testid: 'diff-summary', class: 'parting-note' }, tr('diffFirstParting'), ' ', h('code', {}, at.path), `, ${where}`);
}

function answerEl(diff: TreeDiff): HTMLElement {
  const lines = diff.answer.diff.map((line) =>
    h('div', { class: `diff-line op-${line.op === '-' ? 'del' : line.op === '+' ? 'add' : 'same'}`, testid: 'answer-line', 'data-op': line.op }, `${line.op} ${line.text}`),
  );
  return h('section', { class: 'page-section' }, h('h2', {}, tr('diffAnswer')), h('div', { class: 'answer-diff', testid: 'answer-diff' }, ...lines));
}

const cost = (s: DiffStats): string => `${s.costUsd.toFixed(4)}${s.unpricedCalls > 0 ? '+' : ''}`;
const METRICS: [Key, (s: DiffStats) => string][] = [
  ['colRounds', (s) => String(s.rounds)],
  ['colTokens', (s) => `${s.inputTokens} + ${s.outputTokens}`],
  ['colCost', cost],
  ['colLatency', (s) => String(s.latencyMs)],
];

function statsRow(name: string, a: DiffStats, b: DiffStats, label: Node | string): HTMLElement {
  const cells = METRICS.map(([, of]) => {
    const [x, y] = [of(a), of(b)];
    return h('td', { class: x === y ? '' : 'changed' }, `${x} / ${y}`);
  });
  return h('tr', { testid: 'diff-member', 'data-member': name }, h('th', { scope: 'row' }, label), ...cells);
}

function membersEl(diff: TreeDiff): HTMLElement {
  const rows = Object.entries(diff.members).map(([member, s]) => statsRow(member, s.a, s.b, `@${member}`));
  rows.push(statsRow('', diff.total.a, diff.total.b, t('diffTotal')));
  return h(
    'section',
    { class: 'page-section' },
    h('h2', {}, tr('diffMembers')),
    h(
      'table',
      { class: 'data-table', testid: 'diff-members' },
      h('caption', { class: 'muted small' }, 'A / B'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, tr('colMember')), ...METRICS.map(([k]) => h('th', { scope: 'col' }, tr(k))))),
      h('tbody', {}, ...rows),
    ),
  );
}

export async function renderDiff(into: HTMLElement, a: string, b: string): Promise<void> {
  const diff = await rest.diff(a, b);
  into.replaceChildren(
    h('h1', {}, tr('diffTitle')),
    h('p', { testid: 'diff-roots' }, 'A ', side(diff.a), ' · B ', side(diff.b)),
    summaryEl(diff),
    h('section', { class: 'page-section' }, h('h2', {}, tr('diffTree')), ...diff.dialogs.map((d) => dialogTable(d, diff))),
    answerEl(diff),
    membersEl(diff),
  );
}
