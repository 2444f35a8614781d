// Before any test: what the tests need must be there (a missing piece fails the run, never skips a
// test), and the previous run's screenshots go (Playwright itself empties test-results/).
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { missingPrerequisite, outDir } from './environment.mjs';

export default function globalSetup() {
  const problem = missingPrerequisite();
  if (problem) throw new Error(`e2e: ${problem}`);
  const out = outDir();
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(out)) if (/^FAIL-|\.png$/.test(f)) rmSync(join(out, f), { force: true });
}
