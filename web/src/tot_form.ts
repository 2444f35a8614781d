// The form that starts a Tree of Thoughts run (docs/tot.md): problem, task type, strategy, depth,
// breadth and threshold, sent as they are to POST /api/tot. The page does not second-guess the
// bounds: the server checks every field, and its refusal, which names the field and the problem
// ("depth: 11 is outside 1–10"), is shown under the form; nothing is started then.
import { ApiError, rest, type TotRequest } from './api';
import { messageOf } from './errors';
import { byTestId as q } from './dom';
import { t } from './i18n';
import type { TotStart } from './types';

function input(id: string): HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement {
  const el = q(id);
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el;
  throw new Error(`${id} is not a form field`);
}

/** A number field as typed: absent when empty, a number when it reads as one, else its text. */
function numberField(id: string): number | string | undefined {
  const text = input(id).value.trim();
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

export function wireTotForm(started: (run: TotStart) => Promise<void>): void {
  const error = q('tot-form-error');
  q('tot-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    error.hidden = true;
    const body: TotRequest = { problem: input('tot-problem').value, taskType: input('tot-task-type').value };
    const strategy = input('tot-strategy').value;
    if (strategy) body.strategy = strategy;
    for (const [field, id] of [
      ['depth', 'tot-depth'],
      ['breadth', 'tot-breadth'],
      ['threshold', 'tot-threshold'],
    ] as const) {
      const value = numberField(id);
      if (value !== undefined) body[field] = value;
    }
    const button = q('tot-submit');
    button.toggleAttribute('disabled', true);
    try {
      const run = await rest.startTot(body);
      input('tot-problem').value = '';
      await started(run);
    } catch (err) {
      error.textContent = err instanceof ApiError ? messageOf(err) : `${t('error')}: ${String(err)}`;
      error.dataset.code = err instanceof ApiError ? err.code : '';
      error.hidden = false;
    } finally {
      button.toggleAttribute('disabled', false);
    }
  });
}
