// The team's members on the left, and the member picker of the new-dialog form.
import { byTestId as q, h, tr } from './dom';
import type { Problem, Team } from './types';

export function renderTeam(team: Team | null): void {
  const ul = q('members');
  const sel = q('new-member');
  if (!(sel instanceof HTMLSelectElement)) throw new Error('new-member is not a select');
  ul.replaceChildren();
  q('member-count').textContent = team ? String(team.members.length) : '';
  const prev = sel.value;
  sel.replaceChildren();
  if (!team) return;
  for (const m of team.members) {
    ul.append(
      h(
        'li',
        { testid: 'member', 'data-id': m.id },
        h('strong', {}, m.name || m.id),
        ' ',
        h('span', { class: 'muted' }, `@${m.id}`),
        // What answers, not what the team file asked for: a live provider that fell back to the
        // scripted model does not claim its model.
        m.providerKind === 'scripted'
          ? h('div', { class: 'muted small', testid: 'member-model' }, tr('scriptedModel'))
          : h('div', { class: 'muted small', testid: 'member-model' }, [m.provider, m.model].filter(Boolean).join(' · ')),
      ),
    );
    sel.append(h('option', { value: m.id }, m.name && m.name !== m.id ? `${m.name} (@${m.id})` : `@${m.id}`));
  }
  sel.value = prev || team.defaultMember || team.members[0]?.id || '';
}

// The team's problems (GET /api/problems), one line each; the panel is hidden when there are none.
// The text is the server's, shown as text: no markup is made from it.
export function renderProblems(problems: Problem[]): void {
  const ul = q('problems');
  ul.replaceChildren(
    ...problems.map((p) =>
      h('li', { testid: 'problem', class: p.blocksMember ? 'err' : undefined, 'data-member': p.member ?? '' }, p.text),
    ),
  );
  q('problems-panel').hidden = problems.length === 0;
}
