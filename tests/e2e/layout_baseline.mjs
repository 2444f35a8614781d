// The screenshots' key elements compared with a checked-in baseline (tests/e2e/layout-baseline.json):
// where each lies in the viewport and how big it is, per screenshot. A layout that breaks — a side
// panel squeezed to 64 px, a title of zero width, a button wrapped a character per line, an
// element pushed off screen — moves or resizes its box far beyond the tolerance, while text that
// differs by a few characters or a font's hinting does not.
//
// Regenerate after an intended change: PARLEY_UPDATE_SNAPSHOTS=1 (the run then records instead of
// comparing, keeps the entries of screenshots it did not take, and writes the file at the end).
// The test worker measures (fixtures.mjs: check, and in that mode attaches what it saw to the
// test); the runner's process gathers the attachments and writes the file when every test passed
// (layout_reporter.mjs: record, save).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

// Allowed drift: a position by 16 px or a tenth of the viewport, a size by 16 px or a fifth.
const POSITION_SLACK = 0.1;
const SIZE_SLACK = 0.2;
const MIN_SLACK_PX = 16;

export function layoutBaseline(file, update) {
  const baseline = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const seen = {};
  return {
    /** Compares (or records) one key element's box; returns the problem, or null. `growing`:
     *  its height is not compared. */
    check(shot, selector, box, view, { growing = false } = {}) {
      const now = {
        x: Math.round(box.x),
        y: Math.round(box.y),
        width: Math.round(box.width),
        height: Math.round(box.height),
      };
      seen[shot] ??= { viewport: { width: view.width, height: view.height }, elements: {} };
      seen[shot].elements[selector] = now;
      if (update) return null;
      const was = baseline[shot]?.elements?.[selector];
      if (!was) {
        return `${shot}: ${selector} has no layout baseline (run with PARLEY_UPDATE_SNAPSHOTS=1 and commit ${file})`;
      }
      const slack = {
        x: Math.max(MIN_SLACK_PX, POSITION_SLACK * view.width),
        y: Math.max(MIN_SLACK_PX, POSITION_SLACK * view.height),
        width: Math.max(MIN_SLACK_PX, SIZE_SLACK * was.width),
        height: Math.max(MIN_SLACK_PX, SIZE_SLACK * was.height),
      };
      // A growing block (still streaming) is as tall as the moment it was taken at.
      if (growing) delete slack.height;
      const off = Object.keys(slack).filter((key) => Math.abs(now[key] - was[key]) > slack[key]);
      if (off.length === 0) return null;
      const describe = (b) => `${b.width}×${b.height} at (${b.x}, ${b.y})`;
      return `${shot}: ${selector} is ${describe(now)}, the baseline ${describe(was)} (${off.join(', ')} beyond the tolerance)`;
    },
    /** What this process measured for one screenshot (to attach to the test that took it). */
    seenFor(shot) {
      return seen[shot];
    },
    /** Adds what another process measured (`{ shot: { viewport, elements } }`). */
    record(measured) {
      for (const [shot, entry] of Object.entries(measured)) {
        seen[shot] ??= { viewport: entry.viewport, elements: {} };
        Object.assign(seen[shot].elements, entry.elements);
      }
    },
    /** In update mode, writes what this run saw over the baseline. */
    save() {
      if (!update) return;
      const merged = { ...baseline, ...seen };
      const ordered = Object.fromEntries(Object.keys(merged).sort().map((k) => [k, merged[k]]));
      writeFileSync(file, `${JSON.stringify(ordered, null, 2)}\n`);
    },
  };
}
