// `GET /metrics` against the real tools: `promtool check metrics` accepts the exposition, and a real
// Prometheus (Debian's, installed by scripts/setup.sh) started here on a free port scrapes
// `parley serve` with its token and answers PromQL queries from what it scraped.
//
//   PARLEY_BINARY=build/release/apps/parley/parley PARLEY_SOURCE=. node tests/monitoring/prometheus_test.mjs
import { spawnSync } from "node:child_process";
import { cpSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import assert from "node:assert/strict";

import { eventually, source, startKept, startParley, workFolder } from "./harness.mjs";

for (const tool of ["prometheus", "promtool"]) {
  if (spawnSync(tool, ["--version"]).status !== 0) throw new Error(`${tool} is missing: run scripts/setup.sh`);
}

const root = workFolder("parley-prometheus-");

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// parley serve on the REST tests' team (scripted model, offline).
cpSync(join(source, "tests/server/teams/q4h"), join(root, "team"), { recursive: true });
const parley = await startParley(["--team", join(root, "team/team.yaml"), "--data", join(root, "data")]);
const { port, token } = parley;
const api = parley.api;
const auth = { Authorization: `Bearer ${token}` };

// Some work to count: a tool call and a saying, and a tool the model made up.
for (const content of ["remember this", "call a ghost"]) {
  const created = await fetch(`${api}/api/dialogs`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ content }),
  });
  assert.equal(created.status, 201, await created.text());
}

async function scrape() {
  const reply = await fetch(`${api}/metrics`, { headers: auth });
  assert.equal(reply.status, 200);
  assert.match(reply.headers.get("content-type"), /^text\/plain; version=0\.0\.4/);
  return reply.text();
}
const exposition = await eventually("both answers to be counted", async () => {
  const text = await scrape();
  return /^parley_model_calls_total\{member="lead",model="scripted",finish_reason="stop"\} 2$/m.test(text) && text;
});

// promtool reads it from standard input; any lint problem is a failure.
const checked = spawnSync("promtool", ["check", "metrics"], { input: exposition });
assert.equal(checked.status, 0, `promtool check metrics: ${checked.stdout}${checked.stderr}`);
for (const line of [
  'parley_tool_calls_total{tool="add_reminder"} 1',
  'parley_tool_errors_total{tool="(unknown)"} 1',
  'parley_dialogs{state="running"} 2',
  "parley_store_healthy 1",
]) {
  assert.ok(exposition.split("\n").includes(line), `missing '${line}' in:\n${exposition}`);
}
assert.equal((await fetch(`${api}/metrics`)).status, 401, "/metrics without the token");

// A real Prometheus scraping it every second, with the token, as an operator would configure it.
const prometheusPort = await freePort();
writeFileSync(
  join(root, "prometheus.yml"),
  `global:
  scrape_interval: 1s
scrape_configs:
  - job_name: parley
    authorization:
      credentials: ${token}
    static_configs:
      - targets: ["127.0.0.1:${port}"]
`,
);
const prometheus = startKept("prometheus", [
  `--config.file=${join(root, "prometheus.yml")}`,
  `--storage.tsdb.path=${join(root, "tsdb")}`,
  `--web.listen-address=127.0.0.1:${prometheusPort}`,
]);
await eventually("Prometheus to start", () => /Server is ready to receive web requests/.test(prometheus.output()));

async function query(promql) {
  const reply = await fetch(`http://127.0.0.1:${prometheusPort}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = await reply.json();
  assert.equal(body.status, "success", JSON.stringify(body));
  return body.data.result;
}
const up = await eventually("a successful scrape", async () => {
  const result = await query('up{job="parley"}');
  return result.length === 1 && result[0].value[1] === "1" && result;
});
assert.equal(up[0].metric.instance, `127.0.0.1:${port}`);
const calls = await eventually("the model calls in Prometheus", async () => {
  const result = await query('sum by (member) (parley_model_calls_total{job="parley"})');
  return result.length === 1 && result;
});
assert.equal(calls[0].metric.member, "lead");
assert.equal(calls[0].value[1], "4", "two dialogs, two model calls each");
const toolErrors = await query('parley_tool_errors_total{tool="(unknown)"}');
assert.equal(toolErrors.length, 1);
assert.equal(toolErrors[0].value[1], "1");
const latency = await query("histogram_quantile(0.5, sum by (le) (parley_model_call_duration_seconds_bucket))");
assert.equal(latency.length, 1);
assert.ok(Number(latency[0].value[1]) > 0, `median model call duration: ${latency[0].value[1]}`);

prometheus.child.kill("SIGTERM");
parley.child.kill("SIGTERM");
console.log("prometheus_test: promtool accepts /metrics; Prometheus scraped it and answered 4 PromQL queries");
