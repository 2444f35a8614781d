// A reporter beside `list`, in the runner's process: with PARLEY_UPDATE_SNAPSHOTS=1 it gathers the
// boxes each test measured for its screenshots (the `layout` attachments fixtures.mjs adds) and
// writes tests/e2e/layout-baseline.json once the whole run passed (a failed test's boxes are not a
// layout to keep). Without it, comparing happens in the tests and this only says where the
// screenshots are.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { layoutBaseline } from './layout_baseline.mjs';
import { here, outDir } from './environment.mjs';

export default class LayoutReporter {
  constructor() {
    this.layout = layoutBaseline(join(here, 'layout-baseline.json'), process.env.PARLEY_UPDATE_SNAPSHOTS === '1');
  }

  printsToStdio() {
    return false;
  }

  onTestEnd(test, result) {
    for (const a of result.attachments) {
      if (a.name === 'layout' && a.body) this.layout.record(JSON.parse(a.body.toString('utf8')));
    }
  }

  onEnd(result) {
    if (result.status === 'passed') this.layout.save();
    const out = outDir();
    if (existsSync(out) && readdirSync(out).some((f) => f.endsWith('.png'))) console.log(`screenshots: ${out}`);
  }
}
