// A big history for the browser tests, made fast: N root dialogs written as a Dominds 1.29
// `.dialogs/` folder (the layout docs/architecture.md describes) and read into a fresh store by
// `parley import --rtws` — about a second for 10,000 — before `parley serve` starts on it.
// Dialog i (0 the oldest) is `History task i: budget review`, by @lead for even i and @clerk for
// odd, created `spacingMinutes` apart ending a minute ago, so date filters have something to cut.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parleyBinary } from './environment.mjs';

const hex = (n, width) => n.toString(16).padStart(width, '0');
/** Dialog i's id, spread over two folder levels as Dominds does. */
export const historyId = (i) => `${hex(i & 0xff, 2)}/${hex((i >> 8) & 0xff, 2)}/${hex(0x67500000 + i, 8)}`;
export const historyTitle = (i) => `History task ${i}: budget review`;

/** Writes the folder and imports it; returns the data dir for startServer({ data }). */
export function seedHistory(teamDir, count, spacingMinutes = 5) {
  const data = mkdtempSync(join(tmpdir(), 'parley-e2e-history-'));
  cpSync(teamDir, join(data, 'team'), { recursive: true });
  const rtws = join(data, 'rtws');
  const newest = Date.now() - 60_000;
  for (let i = 0; i < count; i++) {
    const folder = join(rtws, '.dialogs', 'run', historyId(i));
    mkdirSync(folder, { recursive: true });
    const at = new Date(newest - (count - 1 - i) * spacingMinutes * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const member = i % 2 ? 'clerk' : 'lead';
    writeFileSync(join(folder, 'dialog.yaml'), `id: ${historyId(i)}\nagentId: ${member}\ntaskDocPath: tasks/t${i}.tsk\ncreatedAt: ${at}\n`);
    writeFileSync(join(folder, 'latest.yaml'), `currentCourse: 1\nlastModified: ${at}\nstatus: active\n`);
    const said = { ts: at, type: 'human_text_record', genseq: 1, content: historyTitle(i), msgId: `m-${i}`, grammar: 'markdown', origin: 'user' };
    writeFileSync(join(folder, 'course-001.jsonl'), `${JSON.stringify(said)}\n`);
  }
  execFileSync(parleyBinary(), ['import', '--rtws', rtws, '--data', join(data, 'store')], { stdio: 'pipe' });
  return data;
}
