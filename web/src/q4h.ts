// Q4H: the questions the agents asked the human, for every dialog. A badge in the header counts
// them, the right pane lists them, and a question leads to the askHuman call that asked it, with
// the composer set to answer it. Fetched from REST whenever questions_count_update says so.
import { rest } from './api';
import { byTestId as q, h, tr } from './dom';
import { showError } from './errors';
import type { Question } from './types';

export interface QuestionsHost {
  /** Opens the question's dialog, shows its call and sets the composer to answer it. */
  goTo(question: Question): void;
  /** The list was fetched again: what is drawn from it elsewhere may change. */
  changed(): void;
}

export class QuestionsPanel {
  private questions: Question[] = [];
  private timer: number | undefined;

  constructor(private readonly host: QuestionsHost) {}

  async load(): Promise<void> {
    try {
      this.questions = await rest.questions();
      this.render();
      this.host.changed();
    } catch (e) {
      showError(e);
    }
  }

  /** Loads soon, once for a burst of changes. */
  schedule(): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.load(), 60);
  }

  all(): readonly Question[] {
    return this.questions;
  }

  first(): Question | undefined {
    return this.questions[0];
  }

  /** The open question asked by this call, if any. */
  forCall(dialogId: string, callId: string): Question | null {
    return this.questions.find((x) => x.dialog.selfId === dialogId && x.callId === callId) ?? null;
  }

  render(): void {
    const n = this.questions.length;
    const badge = q('q4h-badge');
    badge.textContent = String(n);
    badge.dataset.count = String(n);
    badge.classList.toggle('zero', n === 0);
    q('q4h-panel-count').textContent = String(n);
    q('q4h-panel-count').classList.toggle('zero', n === 0);
    q('pane-q4h-count').textContent = String(n);
    q('pane-q4h-count').classList.toggle('zero', n === 0);
    const ul = q('q4h-list');
    ul.replaceChildren();
    if (n === 0) {
      ul.append(h('li', { class: 'muted' }, tr('noQuestions')));
      return;
    }
    for (const question of this.questions) {
      const [head, ...more] = question.tellaskContent.split('\n');
      const link = h('a', { href: '#', class: 'q-link', testid: 'q4h-link' }, head || question.mentionList || question.id);
      link.addEventListener('click', (e) => {
        e.preventDefault();
        this.host.goTo(question);
      });
      ul.append(
        h(
          'li',
          { testid: 'q4h-item', 'data-id': question.id, 'data-dialog': question.dialog.selfId },
          link,
          more.length ? h('div', { class: 'q-body' }, more.join('\n')) : null,
          h('div', { class: 'muted small' }, tr('askedBy'), ` @${question.memberId}`),
        ),
      );
    }
  }
}
