// What both monitoring tests need: the binary and sources from the environment, a work folder and
// child processes that are removed and killed when the test ends (passing or not), and polling.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const binary = process.env.PARLEY_BINARY;
export const source = process.env.PARLEY_SOURCE;
if (!binary || !source) throw new Error("PARLEY_BINARY and PARLEY_SOURCE must be set");

const children = [];
const folders = [];
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

export function workFolder(prefix) {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// Polls `check` every 100 ms for up to a minute; its first truthy value. `context()` adds what was
// seen so far to the timeout's message.
export async function eventually(what, check, context = () => "") {
  for (let i = 0; i < 600; ++i) {
    const value = await check();
    if (value) return value;
    await sleep(100);
  }
  const seen = context();
  throw new Error(`timed out waiting for ${what}${seen ? `; ${seen}` : ""}`);
}

// Starts a process killed at the test's end; `output()` is what it printed (stdout and stderr).
export function startKept(command, args) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return { child, output: () => output };
}

// Starts `parley serve` and waits for its serving line; its API URL and token.
export async function startParley(args) {
  const server = startKept(binary, ["serve", "--host", "127.0.0.1", "--port", "0", ...args]);
  const [, port, token] = await eventually("parley serve to start", () =>
    server.output().match(/serving http:\/\/127\.0\.0\.1:(\d+)\/#token=([0-9a-f]+)/),
  );
  return { ...server, port, token, api: `http://127.0.0.1:${port}` };
}
