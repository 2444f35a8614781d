// Browser tests of seed 002's multimodal messages in the web UI (issue 23 item 11): an image and a
// recording attached in the composer (with the button, and by drag and drop), stored through
// POST /api/uploads, shown in the transcript with their caption or transcription — live and after
// a reload — and told to the model as their words; tool results drawn as cards. Fixtures: fixtures.mjs.
import { deflateSync } from 'node:zlib';
import { VIEWPORTS, anyWith, expect, gotoApp, test, tid } from './fixtures.mjs';

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

for (const [label, viewport] of VIEWPORTS) {
  test.describe(() => {
    test.use({ viewport });
    test(`an image and a recording are attached, shown with their words and told to the model (${label})`, async ({ server, page, takeScreenshot }) => {
      await gotoApp(page, server.url);
      await page.locator(tid('new-content')).fill('hello');
      await page.locator(tid('new-start')).click();
      await expect(page.locator(tid('saying')), 'the first answer').toContainText(anyWith('Tell me about the launch.'));

      // The button opens the file chooser; the upload is stored at once and waits in the composer.
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator(tid('attach')).click()]);
      await chooser.setFiles({ name: 'square.png', mimeType: 'image/png', buffer: squarePng(48, [200, 30, 30]) });
      await expect(page.locator(tid('composer-attachment')).first(), 'the uploaded image in the composer').toHaveAttribute('data-state', 'ready');
      await expect(page.locator(tid('composer-attachment-name')), 'the attachment chip').toContainText(anyWith('png'));
      await page.locator(tid('composer-attachment-words')).fill('a red square');
      await page.locator(tid('input')).fill('what is this?');
      await page.locator(tid('send')).click();
      const image = `${tid('msg-user')} ${tid('attachment')}[data-kind="image"]`;
      await expect(page.locator(image).first(), 'the image in the transcript').toHaveAttribute('data-loaded', 'true');
      const width = await page.locator(`${image} img`).evaluate((img) => img.naturalWidth);
      expect(width, `the image's own bytes are shown (naturalWidth ${width})`).toBe(48);
      await expect(page.locator(`${image} ${tid('attachment-caption')}`), 'the caption under the image').toContainText(anyWith('a red square'));
      await expect(page.locator(tid('msg-user')), 'the words sent with the image').toContainText(anyWith('what is this?'));
      expect(await page.locator(tid('composer-attachment')).isHidden(), 'the composer is empty again after sending').toBeTruthy();
      // The lead has no vision: it is told the image as its caption.
      await expect(page.locator(tid('saying')), 'the lead reading the caption').toContainText(anyWith('Heard: [image (png, 1 KB)] a red square'));

      // A recording dropped on the dialog, sent without words of its own.
      await dropFile(page, tid('center-pane'), 'note.wav', 'audio/wav', silentWav(200));
      await expect(page.locator(tid('composer-attachment')).first(), 'the dropped recording in the composer').toHaveAttribute('data-state', 'ready');
      expect(await page.locator(tid('composer-attachment')).getAttribute('data-kind'), 'the drop is taken as audio').toBe('audio');
      await page.locator(tid('composer-attachment-words')).fill('see you at noon');
      await page.locator(tid('send')).click();
      const audio = `${tid('msg-user')} ${tid('attachment')}[data-kind="audio"]`;
      await expect(page.locator(audio).first(), 'the recording in the transcript').toHaveAttribute('data-loaded', 'true');
      const src = await page.locator(`${audio} audio`).getAttribute('src');
      expect(src?.startsWith('blob:'), `the recording plays from its fetched bytes (${src})`).toBeTruthy();
      await expect(page.locator(`${audio} ${tid('attachment-transcription')}`), 'the transcription').toContainText(anyWith('see you at noon'));
      await expect(page.locator(tid('saying')), 'the lead reading the transcription').toContainText(anyWith('see you at noon'));
      await takeScreenshot(`09-media-${viewport.width}`, [image, audio]);

      // After a reload the transcript comes from REST: the same media with the same words.
      await page.reload();
      await expect(page.locator('body[data-ready="true"]'), 'the page ready again').toBeAttached();
      await expect(page.locator(image).first(), 'the image after a reload').toHaveAttribute('data-loaded', 'true');
      await expect(page.locator(`${image} ${tid('attachment-caption')}`), 'the caption after a reload').toContainText(anyWith('a red square'));
      await expect(page.locator(audio).first(), 'the recording after a reload').toHaveAttribute('data-loaded', 'true');
      await expect(page.locator(`${audio} ${tid('attachment-transcription')}`), 'the transcription after a reload').toContainText(anyWith('see you at noon'));
    });
  });
}

test('a file of another type is refused before it is sent, naming it', async ({ server, page }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-content')).fill('hello');
  await page.locator(tid('new-start')).click();
  await expect(page.locator(tid('saying')), 'the first answer').toContainText(anyWith('Tell me about the launch.'));
  await dropFile(page, tid('center-pane'), 'notes.txt', 'text/plain', Buffer.from('plain words'));
  await expect(page.locator(tid('error-banner')), 'the refusal').toContainText(anyWith('notes.txt: text/plain is not one of image/png'));
  expect(await page.locator(tid('composer-attachment')).isHidden(), 'nothing waits in the composer').toBeTruthy();
});

test('tool results are cards: a text its size, an object its plain fields', async ({ server, page, takeScreenshot }) => {
  await gotoApp(page, server.url);
  await page.locator(tid('new-content')).fill('read the source');
  await page.locator(tid('new-start')).click();
  await expect(page.locator(tid('saying')), 'the final saying').toContainText(anyWith('I read the three files.'));
  const cards = page.locator(`${tid('tool-result')}[data-tool="read_file"]`);
  await expect(cards, 'the three read_file cards').toHaveCount(3);
  await expect(page.locator(`${tid('tool-result')} code`), 'the tool named on its card').toContainText(anyWith('read_file'));
  // hello.cpp is text: its card says its size.
  const summary = await cards.nth(0).locator(tid('tool-card-summary')).textContent();
  expect(/^\d+ lines · \d+ B$/.test(summary ?? ''), `a text result sums up its size: ${summary}`).toBeTruthy();
  // settings.json is an object: its card lists its plain fields.
  const fields = cards.nth(1).locator(tid('tool-card-fields'));
  await expect(page.locator(`${tid('tool-result')}[data-tool="read_file"] ${tid('tool-card-fields')}`).first(), 'the fields of the JSON result').toBeVisible();
  expect(await fields.locator('dd[data-key="settings.venue"]').textContent(), 'the venue is on the card').toBe('Hall A');
  expect(await fields.locator('dd[data-key="settings.capacity"]').textContent(), 'the capacity is on the card').toBe('120');
  await cards.nth(1).scrollIntoViewIfNeeded();
  await takeScreenshot('10-tool-cards', [tid('tool-card-fields')]);
});
