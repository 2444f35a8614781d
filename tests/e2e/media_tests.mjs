// Browser tests of seed 002's multimodal messages in the web UI (issue 23 item 11): an image and a
// recording attached in the composer (with the button, and by drag and drop), stored through
// POST /api/uploads, shown in the transcript with their caption or transcription — live and after
// a reload — and told to the model as their words; tool results drawn as cards. run.mjs runs them.
import { deflateSync } from 'node:zlib';

// A real PNG (so the browser decodes it): a `size`×`size` square of one colour.
function crc32(bytes) {
  let crc = ~0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
function pngChunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
export function squarePng(size, [r, g, b]) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// A real WAV: `ms` of silence, 8 kHz mono 16-bit.
export function silentWav(ms) {
  const samples = Math.round((8000 * ms) / 1000);
  const out = Buffer.alloc(44 + samples * 2);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(8000, 24);
  out.writeUInt32LE(16000, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(samples * 2, 40);
  return out;
}

/** Drops `bytes` as a file named `name` on the element `selector`, as a user dragging it there. */
async function dropFile(page, selector, name, type, bytes) {
  await page.evaluate(
    ([sel, fileName, mime, data]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(data)], fileName, { type: mime }));
      const target = document.querySelector(sel);
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    [selector, name, type, [...bytes]],
  );
}

export function registerMediaTests({ test, tid, gotoApp, visible, waitText, waitAttr, screenshot, assert, viewports }) {
  for (const [label, viewport] of viewports) {
    test(`an image and a recording are attached, shown with their words and told to the model (${label})`, async ({ server, page }) => {
      await gotoApp(page, server.url);
      await page.locator(tid('new-content')).fill('hello');
      await page.locator(tid('new-start')).click();
      await waitText(page, tid('saying'), 'Tell me about the launch.', 'the first answer');

      // The button opens the file chooser; the upload is stored at once and waits in the composer.
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator(tid('attach')).click()]);
      await chooser.setFiles({ name: 'square.png', mimeType: 'image/png', buffer: squarePng(48, [200, 30, 30]) });
      await waitAttr(page, tid('composer-attachment'), 'data-state', 'ready', 'the uploaded image in the composer');
      await waitText(page, tid('composer-attachment-name'), 'png', 'the attachment chip');
      await page.locator(tid('composer-attachment-words')).fill('a red square');
      await page.locator(tid('input')).fill('what is this?');
      await page.locator(tid('send')).click();
      const image = `${tid('msg-user')} ${tid('attachment')}[data-kind="image"]`;
      await waitAttr(page, image, 'data-loaded', 'true', 'the image in the transcript');
      const width = await page.locator(`${image} img`).evaluate((img) => img.naturalWidth);
      assert(width === 48, `the image's own bytes are shown (naturalWidth ${width})`);
      await waitText(page, `${image} ${tid('attachment-caption')}`, 'a red square', 'the caption under the image');
      await waitText(page, tid('msg-user'), 'what is this?', 'the words sent with the image');
      assert(await page.locator(tid('composer-attachment')).isHidden(), 'the composer is empty again after sending');
      // The lead has no vision: it is told the image as its caption.
      await waitText(page, tid('saying'), 'Heard: [image (png, 1 KB)] a red square', 'the lead reading the caption');

      // A recording dropped on the dialog, sent without words of its own.
      await dropFile(page, tid('center-pane'), 'note.wav', 'audio/wav', silentWav(200));
      await waitAttr(page, tid('composer-attachment'), 'data-state', 'ready', 'the dropped recording in the composer');
      assert((await page.locator(tid('composer-attachment')).getAttribute('data-kind')) === 'audio', 'the drop is taken as audio');
      await page.locator(tid('composer-attachment-words')).fill('see you at noon');
      await page.locator(tid('send')).click();
      const audio = `${tid('msg-user')} ${tid('attachment')}[data-kind="audio"]`;
      await waitAttr(page, audio, 'data-loaded', 'true', 'the recording in the transcript');
      const src = await page.locator(`${audio} audio`).getAttribute('src');
      assert(src?.startsWith('blob:'), `the recording plays from its fetched bytes (${src})`);
      await waitText(page, `${audio} ${tid('attachment-transcription')}`, 'see you at noon', 'the transcription');
      await waitText(page, tid('saying'), 'see you at noon', 'the lead reading the transcription');
      await screenshot(page, `09-media-${viewport.width}`, [image, audio]);

      // After a reload the transcript comes from REST: the same media with the same words.
      await page.reload();
      await page.locator('body[data-ready="true"]').waitFor({ state: 'attached' });
      await waitAttr(page, image, 'data-loaded', 'true', 'the image after a reload');
      await waitText(page, `${image} ${tid('attachment-caption')}`, 'a red square', 'the caption after a reload');
      await waitAttr(page, audio, 'data-loaded', 'true', 'the recording after a reload');
      await waitText(page, `${audio} ${tid('attachment-transcription')}`, 'see you at noon', 'the transcription after a reload');
    }, { viewport });
  }

  test('a file of another type is refused before it is sent, naming it', async ({ server, page }) => {
    await gotoApp(page, server.url);
    await page.locator(tid('new-content')).fill('hello');
    await page.locator(tid('new-start')).click();
    await waitText(page, tid('saying'), 'Tell me about the launch.', 'the first answer');
    await dropFile(page, tid('center-pane'), 'notes.txt', 'text/plain', Buffer.from('plain words'));
    await waitText(page, tid('error-banner'), 'notes.txt: text/plain is not one of image/png', 'the refusal');
    assert(await page.locator(tid('composer-attachment')).isHidden(), 'nothing waits in the composer');
  });

  test('tool results are cards: a text its size, an object its plain fields', async ({ server, page }) => {
    await gotoApp(page, server.url);
    await page.locator(tid('new-content')).fill('read the source');
    await page.locator(tid('new-start')).click();
    await waitText(page, tid('saying'), 'I read the three files.', 'the final saying');
    const cards = page.locator(`${tid('tool-result')}[data-tool="read_file"]`);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="tool-result"][data-tool="read_file"]').length === 3);
    await waitText(page, `${tid('tool-result')} code`, 'read_file', 'the tool named on its card');
    // hello.cpp is text: its card says its size.
    const summary = await cards.nth(0).locator(tid('tool-card-summary')).textContent();
    assert(/^\d+ lines · \d+ B$/.test(summary ?? ''), `a text result sums up its size: ${summary}`);
    // settings.json is an object: its card lists its plain fields.
    const fields = cards.nth(1).locator(tid('tool-card-fields'));
    await visible(page, `${tid('tool-result')}[data-tool="read_file"] ${tid('tool-card-fields')}`, 'the fields of the JSON result');
    assert((await fields.locator('dd[data-key="settings.venue"]').textContent()) === 'Hall A', 'the venue is on the card');
    assert((await fields.locator('dd[data-key="settings.capacity"]').textContent()) === '120', 'the capacity is on the card');
    await cards.nth(1).scrollIntoViewIfNeeded();
    await screenshot(page, '10-tool-cards', [tid('tool-card-fields')]);
  });
}
