// "Replay…" in a root dialog's header (docs/fork.md "In the web UI"): a small form beside the
// header's actions — model, provider, tools mode, the point to replay from — that posts
// `POST /api/dialogs/{id}/replay` and opens the new fork. A body the server refuses is said in
// the form, with the server's words, until dismissed; nothing was written then.
import { rest } from './api';
import { byTestId as q } from './dom';
import { showErrorAt } from './errors';
import type { DialogSummary, Team } from './types';

export interface ReplayBody {
  model?: string;
  provider?: string;
  tools: 'live' | 'recorded';
  from?: number | string;
}

/** The request body of the form's fields: empty fields are left out (the server's defaults). */
export function replayBodyOf(model: string, provider: string, tools: string, from: string): ReplayBody {
  const body: ReplayBody = { tools: tools === 'recorded' ? 'recorded' : 'live' };
  if (model.trim()) body.model = model.trim();
  if (provider.trim()) body.provider = provider.trim();
  // Not a number is sent as it was typed, so that the server names the field.
  if (from.trim()) body.from = /^\d+$/.test(from.trim()) ? Number(from.trim()) : from.trim();
  return body;
}

function closeReplayForm(): void {
  q('replay-form').hidden = true;
  q('replay-error').hidden = true;
  q('btn-replay').setAttribute('aria-expanded', 'false');
}

/** Shows the action for a root only; another dialog opened closes the form. */
export function renderReplayAction(d: DialogSummary | null): void {
  const root = !!d && d.kind === 'root';
  q('btn-replay').hidden = !root;
  const form = q('replay-form');
  if (!root || form.dataset.dialog !== d?.id) closeReplayForm();
}

/** The providers the team's members name, offered as the provider field's suggestions. */
function fillProviders(team: Team | null): void {
  const providers = [...new Set((team?.members ?? []).map((m) => m.provider).filter((p): p is string => !!p))].sort();
  q('replay-providers').replaceChildren(...providers.map((p) => Object.assign(document.createElement('option'), { value: p })));
}

export function wireReplayAction(current: () => DialogSummary | null, team: () => Team | null, opened: (id: string) => void): void {
  const button = q('btn-replay');
  const form = q('replay-form') as HTMLFormElement;
  const field = (id: string) => q(id) as HTMLInputElement | HTMLSelectElement;
  button.addEventListener('click', () => {
    const d = current();
    if (!d || !form.hidden) return closeReplayForm();
    form.dataset.dialog = d.id;
    fillProviders(team());
    form.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    field('replay-model').focus();
  });
  q('replay-cancel').addEventListener('click', () => {
    closeReplayForm();
    button.focus();
  });
  form.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    closeReplayForm();
    button.focus();
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const d = current();
    if (!d) return;
    const submit = q('replay-submit') as HTMLButtonElement;
    const body = replayBodyOf(field('replay-model').value, field('replay-provider').value, field('replay-tools').value, field('replay-from').value);
    submit.disabled = true;
    rest
      .replay(d.id, body)
      .then((made) => {
        closeReplayForm();
        opened(made.id);
      })
      .catch((err) => showErrorAt(q('replay-error'), err))
      .finally(() => (submit.disabled = false));
  });
}
