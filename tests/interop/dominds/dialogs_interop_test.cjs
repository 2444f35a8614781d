// Issue 46 item 6: a `.dialogs/` folder written by Dominds 1.29's own persistence code is imported
// by `parley import --rtws`, and the folder `parley export --rtws --dominds` writes is read back by
// that same code. Dominds runs from the fetched npm package (dominds_runtime.cjs says how its
// kernel is found); nothing of it is committed.
//
//   node dialogs_interop_test.cjs   with PARLEY_BINARY and DOMINDS_PACKAGE (the unpacked package/)
'use strict';
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadDominds } = require('./dominds_runtime.cjs');

const parley = process.env.PARLEY_BINARY;
const packageDir = process.env.DOMINDS_PACKAGE;
if (!parley || !packageDir) throw new Error('set PARLEY_BINARY and DOMINDS_PACKAGE');
if (!fs.existsSync(path.join(packageDir, 'dist', 'persistence.js'))) {
  throw new Error(`${packageDir}: no dist/persistence.js (scripts/fetch_dominds.sh DEST unpacks it)`);
}
const requireDominds = loadDominds(packageDir);
const { DialogPersistence } = requireDominds('persistence.js');
const { DialogID } = requireDominds('dialog.js');
const { generateDialogID } = requireDominds('utils/id.js');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-dominds-interop-'));
const run = (...args) => execFileSync(parley, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

// Dominds' persistence writes under process.cwd()/.dialogs (dist/rtws.js).
async function inRtws(dir, body) {
  const before = process.cwd();
  fs.mkdirSync(dir, { recursive: true });
  process.chdir(dir);
  try {
    return await body();
  } finally {
    process.chdir(before);
  }
}

// Each record as Dominds' builders write it (dist/persistence.js; the README of
// tests/data/dominds-dialogs names the function of each).
function courseRecords(ts, question, callId, answer) {
  return [
    { ts, type: 'human_text_record', genseq: 1, content: question, msgId: `m-${callId}`, grammar: 'markdown', origin: 'user' },
    { ts, type: 'gen_start_record', genseq: 1 },
    { ts, type: 'agent_words_record', genseq: 1, content: 'Reading it.' },
    { ts, type: 'func_call_record', genseq: 1, id: callId, name: 'read_file', rawArgumentsText: '{"path":"src/app.ts"}' },
    { ts, type: 'func_result_record', genseq: 1, id: callId, name: 'read_file', content: 'export const x = 42;' },
    { ts, type: 'gen_finish_record', genseq: 1, llmGenModel: 'gpt-5' },
    { ts, type: 'gen_start_record', genseq: 2 },
    { ts, type: 'agent_words_record', genseq: 2, content: answer },
    { ts, type: 'gen_finish_record', genseq: 2, llmGenModel: 'gpt-5' },
  ];
}

async function writeTree(ts) {
  const rootId = new DialogID(generateDialogID());
  const sideId = new DialogID(generateDialogID(), rootId.selfId);
  await DialogPersistence.saveMainDialogMetadata(rootId, {
    id: rootId.selfId, agentId: 'alice', taskDocPath: 'tasks/app.tsk', createdAt: ts,
  });
  // latest.yaml first, as Dominds creates it: appendEvents updates it (and quarantines a dialog without one).
  await initialLatest(rootId, ts);
  await DialogPersistence.appendEvents(rootId, 1, courseRecords(ts, 'Summarise src/app.ts.', 'c1', 'x is 42.'));
  await DialogPersistence.appendEvents(rootId, 2, courseRecords(ts, 'And again, briefly.', 'c2', 'Still 42.'));
  await DialogPersistence._saveReminderState(rootId, [
    { id: 'r1', content: 'Keep the tests green.', priority: 'high', createdAt: ts },
    { id: 'r2', content: 'Ask before deleting.', createdAt: ts },
  ]);
  await DialogPersistence.appendQuestion4HumanState(rootId, {
    id: 'q1', tellaskContent: 'Which day?', askedAt: ts, callId: 'ask-1',
    callSiteRef: { course: 2, messageIndex: 3, callSiteGenseq: 2 },
  });
  await DialogPersistence.ensureSideDialogDirectory(sideId);
  await DialogPersistence.saveSideDialogMetadata(sideId, {
    id: sideId.selfId, agentId: 'bob', taskDocPath: 'tasks/app.tsk', createdAt: ts,
  });
  // The frame createSideDialog writes: who asked, and the Tellask that assigned the work.
  await DialogPersistence.saveDialogAskerStack(sideId, {
    askerStack: [{
      kind: 'asker_dialog_stack_frame', askerDialogId: rootId.selfId,
      assignmentFromAsker: {
        callName: 'tellask', mentionList: ['@bob'], tellaskContent: 'Check the tests.', originMemberId: 'alice',
        askerDialogId: rootId.selfId, callId: 'tk-1', callSiteCourse: 1, callSiteGenseq: 1,
      },
    }],
  });
  await initialLatest(sideId, ts);
  await DialogPersistence.appendEvents(sideId, 1, courseRecords(ts, 'Check the tests.', 'c3', 'They pass.'));
  await flushWriteBacks();
  return { rootId, sideId };
}

// latest.yaml as Dominds initialises it (persistence.js createSideDialog: a 'replace' mutation).
async function initialLatest(dialogId, ts) {
  const { createEmptyDialogNextStepState, createEmptyDialogTellaskCallState, createEmptyDialogTellaskResultState } =
    requireDominds('dialog-latest-state.js');
  await DialogPersistence.mutateDialogLatest(dialogId, () => ({
    kind: 'replace',
    next: {
      currentCourse: 1, lastModified: ts, status: 'active', messageCount: 0, functionCallCount: 0, sideDialogCount: 0,
      nextStep: createEmptyDialogNextStepState(), tellaskCalls: createEmptyDialogTellaskCallState(),
      tellaskResults: createEmptyDialogTellaskResultState(), displayState: { kind: 'idle_waiting_user' },
      disableDiligencePush: false,
    },
  }));
}

// latest.yaml and q4h.yaml are written back after a delay; the test reads the disk now.
async function flushWriteBacks() {
  for (const key of [...DialogPersistence.latestWriteBack.keys()]) await DialogPersistence.flushLatestWriteBack(key);
  for (const key of [...DialogPersistence.q4hWriteBack.keys()]) await DialogPersistence.flushQ4HWriteBack(key);
}

async function main() {
  const dominds = path.join(work, 'dominds');
  const data = path.join(work, 'data');
  // (a) Dominds writes, Parley imports. Timestamps in Dominds' own form (formatUnifiedTimestamp).
  const { formatUnifiedTimestamp } = require('@longrun-ai/kernel/utils/time');
  const ts = formatUnifiedTimestamp(new Date(Date.UTC(2026, 10, 2, 9, 15, 0)));
  const { rootId, sideId } = await inRtws(dominds, () => writeTree(ts));
  const imported = run('import', '--rtws', dominds, '--data', data);
  assert.match(imported, /imported 2 dialogs \(1 roots?, /, imported);
  const listed = JSON.parse(run('dialogs', '--json', '--data', data));
  const roots = Array.isArray(listed) ? listed : listed.dialogs;
  assert.equal(roots.length, 1, JSON.stringify(listed));
  // The current course (2), and the open Q4H: the root waits for the human.
  const shown = run('show', roots[0].id, '--data', data);
  for (const text of ['@alice · waiting-human · course 2', 'And again, briefly.', '→ read_file', 'Still 42.']) {
    assert.ok(shown.includes(text), `show lacks ${text}:\n${shown}`);
  }

  // (b) Parley exports, Dominds reads.
  const exported = path.join(work, 'exported');
  run('export', '--rtws', exported, '--dominds', '--data', data);
  await inRtws(exported, async () => {
    const ids = await DialogPersistence.listAllDialogIds('running');
    const selves = ids.map((id) => id.selfId).sort();
    assert.equal(ids.length, 2, JSON.stringify(ids));
    const root = ids.find((id) => id.rootId === id.selfId);
    const side = ids.find((id) => id.rootId !== id.selfId);
    assert.ok(root && side, JSON.stringify(selves));
    const meta = await DialogPersistence.loadMainDialogMetadata(root, 'running');
    assert.equal(meta.agentId, 'alice');
    const latest = await DialogPersistence.loadDialogLatest(root, 'running');
    assert.equal(latest.currentCourse, 2);
    const course2 = await DialogPersistence.readCourseEvents(root, 2, 'running');
    const words = course2.filter((r) => r.type === 'agent_words_record').map((r) => r.content);
    assert.deepEqual(words, ['Reading it.', 'Still 42.']);
    const reminders = await DialogPersistence.loadReminderState(root, 'running');
    assert.deepEqual(reminders.map((r) => r.content).sort(), ['Ask before deleting.', 'Keep the tests green.']);
    const questions = await DialogPersistence.loadQuestions4HumanState(root, 'running');
    assert.deepEqual(questions.map((q) => q.tellaskContent), ['Which day?']);
    const sideMeta = await DialogPersistence.loadDialogMetadata(side, 'running');
    assert.equal(sideMeta.agentId, 'bob');
    const assignment = await DialogPersistence.loadSideDialogAssignmentFromAsker(side, 'running');
    assert.equal(assignment.askerDialogId, root.selfId);
    assert.equal(assignment.callName, 'tellask');
    assert.equal(assignment.tellaskContent, 'Check the tests.');
    assert.equal(assignment.originMemberId, 'alice');
    assert.equal((await DialogPersistence.loadDialogLatest(side, 'running')).currentCourse, 1);
    const sideCourse = await DialogPersistence.readCourseEvents(side, 1, 'running');
    assert.ok(sideCourse.some((r) => r.type === 'agent_words_record' && r.content === 'They pass.'));
  });
  console.log(`ok: Dominds wrote ${rootId.selfId} and ${sideId.selfId}; Parley imported and exported them; Dominds read them back`);
}

main()
  .then(() => fs.rmSync(work, { recursive: true, force: true }))
  .catch((error) => {
    console.error(`FAILED (kept ${work}):`, error);
    process.exitCode = 1;
  });
