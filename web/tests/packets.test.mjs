// Unit test of src/packets.ts, the check every PubChan packet passes before the page reads it:
// a known type, required fields present, fields of the schema's JSON kinds, nested fields named by
// their path. The TypeScript is transpiled on the fly (typescript's transpileModule) into a
// temporary folder; ctest runs this as web.packet_checks. It also holds the page to its rules: no
// `fetch(` outside the REST client, no packet cast.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ts = createRequire(join(here, '..', 'package.json'))('typescript');
const out = mkdtempSync(join(tmpdir(), 'parley-web-packets-'));
try {
  for (const name of ['packets', 'protocol.gen']) {
    const source = readFileSync(join(here, '..', 'src', `${name}.ts`), 'utf8');
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    writeFileSync(join(out, `${name}.mjs`), js.outputText.replaceAll("from './protocol.gen'", "from './protocol.gen.mjs'"));
  }
  const { serverPacketProblem, isServerPacket } = await import(pathToFileURL(join(out, 'packets.mjs')).href);
  const dialog = { selfId: 'd1', rootId: 'd1' };
  const chunk = { type: 'saying_chunk_evt', dialog, course: 1, genseq: 2, seq: 7, content: 'Hel' };
  const cases = [
    [chunk, null],
    [{ ...chunk, firstSeq: 5 }, null],
    [{ ...chunk, firstSeq: null }, null], // an optional field may be null
    [{ ...chunk, extra: 'kept' }, null], // fields the schema does not list are the server's to add
    [{ ...chunk, content: 3 }, 'saying_chunk_evt: content: expected a string'],
    [{ ...chunk, seq: 1.5 }, 'saying_chunk_evt: seq: expected an integer'],
    [{ type: 'saying_chunk_evt', dialog, course: 1, genseq: 2, seq: 7 }, 'saying_chunk_evt: content: missing'],
    [{ ...chunk, dialog: { rootId: 'd1' } }, 'saying_chunk_evt: dialog.selfId: missing'],
    [{ ...chunk, dialog: 'd1' }, 'saying_chunk_evt: dialog: expected an object'],
    [{ type: 'welcome', protocol: 1, epoch: 'e', scriptedOffline: true }, null],
    [{ type: 'ack', ref: 'm1', ok: true }, null],
    [{ type: 'error', code: 'bad_field', message: 'content: expected a string' }, null],
    [{ type: 'no_such_evt' }, 'type: unknown packet type "no_such_evt"'],
    [{ type: 'toString' }, 'type: unknown packet type "toString"'], // not an inherited property
    [{ dialog }, 'type: unknown packet type undefined'],
    [[chunk], 'not a JSON object'],
    [null, 'not a JSON object'],
  ];
  for (const [packet, want] of cases) {
    assert.equal(serverPacketProblem(packet), want, JSON.stringify(packet));
    assert.equal(isServerPacket(packet), want === null);
  }
  // Every server packet of the schema is known, with its fields.
  const schema = JSON.parse(readFileSync(join(here, '..', '..', 'docs', 'protocol-v1.json'), 'utf8'));
  for (const type of Object.keys(schema.server)) {
    assert.notEqual(serverPacketProblem({ type }), `type: unknown packet type "${type}"`, type);
  }
  // The rules the check makes possible: REST only through api.ts, packets never cast.
  const src = join(here, '..', 'src');
  for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(src, file), 'utf8');
    if (file !== 'api.ts') assert.ok(!/\bfetch\(/.test(text), `${file} calls fetch( itself: go through rest in api.ts`);
    assert.ok(!/\bas (Server|Client)?Packet\b|<(Server|Client)?Packet>/.test(text), `${file} casts a packet: narrow it by its type`);
  }
  console.log(`packets: ${cases.length} cases passed`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
