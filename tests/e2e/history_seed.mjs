// A big history for the browser tests, made fast: N root dialogs written in the seed's `.dialogs/`
// layout (what `parley export --rtws` writes; docs/architecture.md) and read into a fresh store by
// `parley import --rtws` — seconds for 10,000 — before `parley serve` starts on it.
// Dialog i (0 the oldest) is `History task i: budget review`, by @lead for even i and @clerk for
// odd, created `spacingMinutes` apart ending a minute ago, so date filters have something to cut.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parleyBinary } from './environment.mjs';

const hex = (n, width) => n.toString(16).padStart(width, '0');
/** Dialog i's id. */
export const historyDialogId = (i) => `${hex(i & 0xff, 2)}-${hex((i >> 8) & 0xff, 2)}-${hex(0x67500000 + i, 8)}`;
export const historyTitle = (i) => `History task ${i}: budget review`;

/** Writes the folder and imports it; returns the data dir for startServer({ data }). */
export function seedHistory(teamDir, count, spacingMinutes = 5) {
  const data = mkdtempSync(join(tmpdir(), 'parley-e2e-history-'));
  cpSync(teamDir, join(data, 'team'), { recursive: true });
  const rtws = join(data, 'rtws');
  const newest = Date.now() - 60_000;
  for (let i = 0; i < count; i++) {
    const id = historyDialogId(i);
    const folder = join(rtws, '.dialogs', 'run', id);
    mkdirSync(folder, { recursive: true });
    const tsMs = Math.floor((newest - (count - 1 - i) * spacingMinutes * 60_000) / 1000) * 1000;
    const ts = new Date(tsMs).toISOString();
    const memberId = i % 2 ? 'clerk' : 'lead';
    const title = historyTitle(i);
    const head = { ts, tsMs, dialogId: id, rootId: id };
    // Created titled, the human's message, the member's answer: a root at rest (nothing to drive).
    const events = [
      { type: 'dialog_created', payload: { memberId, kind: 'root', title, taskDocPath: '', depth: 0 } },
      { type: 'user_message', payload: { course: 1, content: title, msgId: `m-${i}`, origin: 'user' } },
      { type: 'generation_started', payload: { course: 1, genseq: 1, round: 1 } },
      { type: 'generation_finished', payload: { course: 1, genseq: 1, saying: 'Noted.', finishReason: 'stop', model: 'scripted', usage: { inputTokens: 0, outputTokens: 0 } } },
    ];
    const lines = events.map((e, n) => JSON.stringify({ type: e.type, seq: n + 1, ...head, payload: e.payload }));
    writeFileSync(join(folder, 'course-001.jsonl'), `${lines.join('\n')}\n`);
    const q = JSON.stringify;
    writeFileSync(join(folder, 'dialog.yaml'), `id: ${q(id)}\nrootId: ${q(id)}\nmemberId: ${q(memberId)}\nkind: "root"\ntitle: ${q(title)}\ntaskDocPath: ""\ncreatedAt: ${q(ts)}\nstatus: "running"\n`);
    writeFileSync(join(folder, 'latest.yaml'), `currentCourse: 1\nstatus: "running"\nneedsDrive: false\ngenerating: false\nlastModified: ${q(ts)}\nopenQuestions: 0\npendingSubdialogs: 0\n`);
    // The index files the import checks against the events (an empty registry and reminders).
    writeFileSync(join(folder, 'registry.yaml'), '{}\n');
    writeFileSync(join(folder, 'reminders.json'), '[]\n');
  }
  execFileSync(parleyBinary(), ['import', '--rtws', rtws, '--data', join(data, 'store')], { stdio: 'pipe' });
  rmSync(rtws, { recursive: true, force: true }); // the store has it all now
  return data;
}
