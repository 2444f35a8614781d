// The composer under the transcript: a message to the open dialog, or, after "Answer" on a
// question, the answer to that question (Q4H) — the same box. Over the PubChan when it is open
// (acked once durable), over REST otherwise. A dialog that takes no more messages says so here.
import { ApiError, newMsgId, rest, UNREACHABLE } from './api';
import { ComposerAttachment } from './composer_attachment';
import { byTestId as q } from './dom';
import { showError } from './errors';
import { t, type Key } from './i18n';
import type { FlowView } from './flow_view';
import type { Attachment, DialogSummary, Question } from './types';
import type { PubChan } from './ws';

export interface ComposerHost {
  current(): DialogSummary | null;
  /** An answer was sent: the question list changes. */
  answered(): void;
  /** The open dialog's thread when it is a flow's (seed 004): its messages go to the flow over REST. */
  flow(): FlowView | null;
}

function textarea(id: string): HTMLTextAreaElement {
  const el = q(id);
  if (!(el instanceof HTMLTextAreaElement)) throw new Error(`${id} is not a textarea`);
  return el;
}

export class Composer {
  private answeringQuestion: Question | null = null;
  private readonly attached: ComposerAttachment;
  private sending = false;

  constructor(
    private readonly chan: PubChan,
    private readonly host: ComposerHost,
  ) {
    this.attached = new ComposerAttachment(q('center-pane'), () => this.renderSendButton());
    q('answer-cancel').addEventListener('click', () => this.setAnswering(null));
    q('composer').addEventListener('submit', (e) => {
      e.preventDefault();
      void this.submit();
    });
    q('input').addEventListener('keydown', (e) => {
      if (e instanceof KeyboardEvent && e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        const form = q('composer');
        if (form instanceof HTMLFormElement) form.requestSubmit();
      }
    });
  }

  get answering(): Question | null {
    return this.answeringQuestion;
  }

  setAnswering(question: Question | null): void {
    this.answeringQuestion = question;
    q('answer-mode').hidden = !question;
    q('answer-question-text').textContent = question ? question.tellaskContent.split('\n')[0] : '';
    const input = textarea('input');
    input.dataset.i18nPh = question ? 'answerPlaceholder' : 'inputPlaceholder';
    input.placeholder = t(question ? 'answerPlaceholder' : 'inputPlaceholder');
    q('composer').classList.toggle('answering', !!question);
    if (question) input.focus();
  }

  /** A dialog that takes no more messages says so in the composer instead of failing a send. */
  renderState(d: DialogSummary): void {
    let closed: Key | null = null;
    if (d.dead) closed = 'composerDead';
    else if (this.host.flow()?.completed) closed = 'composerFlowCompleted';
    else if (d.status === 'completed') closed = 'composerCompleted';
    else if (d.status === 'archived') closed = 'composerArchived';
    const note = q('composer-note');
    note.hidden = !closed;
    if (closed) {
      note.dataset.i18n = closed;
      note.textContent = t(closed);
    }
    textarea('input').disabled = !!closed;
    q('attach').toggleAttribute('disabled', !!closed);
    q('composer').classList.toggle('closed', !!closed);
    this.closed = !!closed;
    this.attached.relabel();
    this.renderSendButton();
  }

  private closed = false;

  /** Send waits for an upload in progress, and for the send before it. */
  private renderSendButton(): void {
    q('send').toggleAttribute('disabled', this.closed || this.sending || this.attached.busy);
  }

  private async submit(): Promise<void> {
    const input = textarea('input');
    const content = input.value.trim();
    const d = this.host.current();
    const answering = this.answeringQuestion;
    // An answer is words; a message may be an attachment alone.
    const attachment = answering ? undefined : this.attached.attachment();
    if ((!content && !attachment) || !d || this.attached.busy) return;
    const msgId = newMsgId();
    this.sending = true;
    this.renderSendButton();
    try {
      if (answering) {
        await this.sendAnswer(answering, content, msgId);
        this.setAnswering(null);
        this.host.answered();
      } else if (this.host.flow()) {
        await this.sendToFlow(this.host.flow() as FlowView, content, attachment, msgId);
      } else if (attachment) {
        // The PubChan's input packets carry text only: a message with a file goes over REST.
        await rest.sendMessage(d.id, { content, msgId, attachment });
        this.attached.clear();
      } else if (this.chan.isOpen) {
        await this.chan.request({ type: 'drive_dlg_by_user_msg', dialog: { selfId: d.id }, content, msgId }, msgId);
      } else {
        await rest.sendMessage(d.id, { content, msgId });
      }
      input.value = '';
    } catch (err) {
      // Said as what it means for the text in the box, not as a failed fetch.
      showError(err instanceof ApiError && err.status === UNREACHABLE ? new Error(t('sendUnreachable')) : err);
    } finally {
      this.sending = false;
      this.renderSendButton();
      const current = this.host.current();
      if (current) this.renderState(current);
    }
  }

  /** A flow answers once it waits again; the thread it left comes back and is drawn. */
  private async sendToFlow(flow: FlowView, content: string, attachment: Attachment | undefined, msgId: string): Promise<void> {
    flow.setWorking(true);
    try {
      const answer = await rest.sendFlowMessage(flow.dialogId, { content, msgId, attachment });
      if (this.host.flow() === flow) flow.render(answer.flow);
    } finally {
      flow.setWorking(false);
    }
  }

  private async sendAnswer(question: Question, content: string, msgId: string): Promise<void> {
    const selfId = question.dialog.selfId;
    if (this.chan.isOpen) {
      await this.chan.request(
        { type: 'drive_dialog_by_user_answer', dialog: { selfId }, content, msgId, questionId: question.id, continuationType: 'answer' },
        msgId,
      );
    } else {
      await rest.answer(selfId, { questionId: question.id, content, msgId });
    }
  }
}
