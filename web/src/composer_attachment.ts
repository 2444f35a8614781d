// The composer's attachment: one image or recording, chosen with the button or dropped on the
// open dialog, stored at once through POST /api/uploads, and sent with the next message (with a
// caption or transcription when the user writes one; otherwise the team's captioner or
// transcriber may write it). The server checks the file's type by its bytes and says what is wrong.
import { rest } from './api';
import { byTestId as q } from './dom';
import { showError } from './errors';
import { t } from './i18n';
import type { Attachment, Upload } from './types';

const ACCEPTED = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'audio/mpeg', 'audio/wav', 'audio/ogg'];

function textInput(id: string): HTMLInputElement {
  const el = q(id);
  if (!(el instanceof HTMLInputElement)) throw new Error(`${id} is not an input`);
  return el;
}

export class ComposerAttachment {
  private upload: Upload | null = null;
  private uploading: Promise<void> | null = null;

  /** `changed` is told when an upload starts or ends, to enable or disable sending. */
  constructor(
    dropZone: HTMLElement,
    private readonly changed: () => void,
  ) {
    const fileInput = textInput('file-input');
    q('attach').addEventListener('click', () => fileInput.click());
    fileInput.addEventListener('change', () => {
      const file = fileInput.files?.[0];
      fileInput.value = '';
      if (file) void this.take(file);
    });
    q('composer-attachment-remove').addEventListener('click', () => this.clear());
    dropZone.addEventListener('dragover', (e) => {
      if (!e.dataTransfer?.types.includes('Files')) return;
      e.preventDefault();
      dropZone.classList.add('drop-target');
    });
    dropZone.addEventListener('dragleave', () => dropZone.classList.remove('drop-target'));
    dropZone.addEventListener('drop', (e) => {
      dropZone.classList.remove('drop-target');
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      e.preventDefault();
      void this.take(file);
    });
  }

  get busy(): boolean {
    return this.uploading !== null;
  }

  /** What to send with the message, or undefined when nothing is attached. */
  attachment(): Attachment | undefined {
    if (!this.upload) return undefined;
    const words = textInput('composer-attachment-words').value.trim();
    const out: Attachment = { uploadId: this.upload.id };
    if (words && this.upload.content_type === 'image') out.caption = words;
    if (words && this.upload.content_type === 'audio') out.transcription = words;
    return out;
  }

  clear(): void {
    this.upload = null;
    textInput('composer-attachment-words').value = '';
    this.render();
  }

  /** The button's label follows the page's language. */
  relabel(): void {
    const button = q('attach');
    button.title = t('attach');
    button.setAttribute('aria-label', t('attach'));
    q('composer').dataset.dropHint = t('dropHere');
    this.render();
  }

  private async take(file: File): Promise<void> {
    if (this.uploading) return;
    if (!ACCEPTED.includes(file.type)) {
      showError(new Error(`${file.name}: ${file.type || 'unknown type'} is not one of ${ACCEPTED.join(', ')}`));
      return;
    }
    this.upload = null;
    this.uploading = rest
      .upload(file)
      .then((upload) => {
        this.upload = upload;
      })
      .catch(showError)
      .finally(() => {
        this.uploading = null;
        this.render();
        this.changed();
      });
    this.render(file.name);
    this.changed();
    await this.uploading;
  }

  private render(pendingName?: string): void {
    const box = q('composer-attachment');
    box.hidden = !this.upload && !this.uploading;
    box.dataset.state = this.uploading ? 'uploading' : this.upload ? 'ready' : 'none';
    const words = textInput('composer-attachment-words');
    words.hidden = !this.upload;
    const name = q('composer-attachment-name');
    if (this.uploading) {
      name.textContent = `${t('uploading')} ${pendingName ?? ''}`;
    } else if (this.upload) {
      name.textContent = `${this.upload.format}, ${this.upload.size_kb} KB`;
      box.dataset.kind = this.upload.content_type;
      words.placeholder = t(this.upload.content_type === 'image' ? 'captionPlaceholder' : 'transcriptionPlaceholder');
    }
  }
}
