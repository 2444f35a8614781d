// Wire types of docs/eval.md "Over REST" (the runs page, the side-by-side view) and of the fork
// route (docs/fork.md "REST"). Fields the UI does not use are omitted.
import type { DialogSummary } from './types';

export type Verdict = 'pass' | 'fail' | 'error';

/** One run in GET /api/eval/runs. */
export interface EvalRunSummary {
  id: string;
  suite: string;
  startedMs: number;
  finishedMs: number;
  repeat: number;
  owner: string;
  comparedWith: string | null;
  cases: number;
  attempts: number;
  passRate: number;
}

export interface EvalCheck {
  check: string;
  where: string;
  outcome: Verdict;
  message: string;
  reasons: string;
  judgeRoot: string;
}

export interface EvalAttempt {
  attempt: number;
  rootId: string;
  outcome: Verdict;
  error: string;
  answer: string;
  rounds: number;
  tokens: number;
  costUsd: number;
  durationMs: number;
  checks: EvalCheck[];
}

export interface EvalCase {
  name: string;
  where: string;
  outcome: Verdict;
  passRate: number;
  attempts: EvalAttempt[];
}

/** GET /api/eval/runs/{id}: the run file as stored. */
export interface EvalRun {
  id: string;
  suite: string;
  startedMs: number;
  finishedMs: number;
  repeat: number;
  owner: string;
  comparedWith?: string;
  passRate: number;
  cases: EvalCase[];
}

export interface DiffStep {
  kind: 'tool_call' | 'tellask' | 'question';
  name: string;
  detail: string;
}

export interface DiffDialog {
  path: string;
  memberId: string;
  a: string | null;
  b: string | null;
  same: boolean;
  firstPartingStep: number | null;
  steps: { same: boolean; a: DiffStep | null; b: DiffStep | null }[];
}

export interface DiffStats {
  rounds: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  unpricedCalls: number;
  latencyMs: number;
}

/** GET /api/diff?a=&b=: two trees aligned (docs/eval.md "The alignment"). */
export interface TreeDiff {
  a: string;
  b: string;
  identical: boolean;
  firstParting: { path: string; step: number | null } | null;
  dialogs: DiffDialog[];
  answer: { a: string; b: string; diff: { op: '-' | '+' | ' '; text: string }[] };
  members: Record<string, { a: DiffStats; b: DiffStats }>;
  total: { a: DiffStats; b: DiffStats };
}

/** A forked root's summary carries where it came from. */
export type ForkedSummary = DialogSummary & { forkedFrom?: { dialog: string; at: number } };
