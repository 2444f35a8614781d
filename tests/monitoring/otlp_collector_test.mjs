// Traces of the dialog tree, received as a collector would: `parley serve --otlp-endpoint` sends
// OTLP/HTTP protobuf to a collector started here, which decodes every request with OpenTelemetry's
// own generated protobuf code (@opentelemetry/otlp-transformer's root), then checks the span tree
// of a delegation (lead → Tellask → clerk, who asks the human) against the GenAI semantic
// conventions, and that message content stays out unless asked for. Then a collector that is down,
// and one that never answers: the dialogs go on and /metrics counts the dropped spans.
//
//   PARLEY_BINARY=build/release/apps/parley/parley PARLEY_SOURCE=. node tests/monitoring/otlp_collector_test.mjs
import { cpSync, existsSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import assert from "node:assert/strict";

import { eventually, source, startParley, workFolder } from "./harness.mjs";

const require = createRequire(import.meta.url);
const root = require("@opentelemetry/otlp-transformer/build/src/generated/root");
const ExportTraceServiceRequest = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const ExportTraceServiceResponse = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;

const work = workFolder("parley-otlp-");

// The collector: POST /v1/traces, protobuf in, protobuf out; every span it decodes is kept.
const spans = [];
const resources = [];
const collector = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    assert.equal(request.url, "/v1/traces");
    assert.equal(request.headers["content-type"], "application/x-protobuf");
    const decoded = ExportTraceServiceRequest.decode(Buffer.concat(chunks));
    for (const resourceSpans of decoded.resourceSpans) {
      resources.push(resourceSpans.resource);
      for (const scopeSpans of resourceSpans.scopeSpans) spans.push(...scopeSpans.spans);
    }
    response.writeHead(200, { "Content-Type": "application/x-protobuf" });
    response.end(Buffer.from(ExportTraceServiceResponse.encode({}).finish()));
  });
});
await new Promise((listening) => collector.listen(0, "127.0.0.1", listening));
const collectorPort = collector.address().port;

function startTraced(name, endpoint, extra = []) {
  if (!existsSync(join(work, name))) cpSync(join(source, "tests/server/teams/q4h"), join(work, name), { recursive: true });
  return startParley([
    "--team", join(work, name, "team.yaml"), "--data", join(work, name, "data"), "--otlp-endpoint", endpoint, ...extra,
  ]);
}

async function call(server, method, path, body) {
  const reply = await fetch(`${server.api}${path}`, {
    method,
    headers: { Authorization: `Bearer ${server.token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: reply.status, body: reply.headers.get("content-type")?.includes("json") ? await reply.json() : await reply.text() };
}

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const attributes = (span) =>
  Object.fromEntries(span.attributes.map(({ key, value }) => [
    key,
    value.stringValue ?? (value.intValue !== undefined && value.intValue !== null ? Number(value.intValue)
      : value.arrayValue?.values.map((v) => v.stringValue)),
  ]));

// A delegation: the lead calls tellaskSessionless, the clerk asks the human, the answer comes.
const collectorUrl = `http://127.0.0.1:${collectorPort}/v1/traces`;
const first = await startTraced("traced", collectorUrl);
const created = await call(first, "POST", "/api/dialogs", { content: "delegate the trip" });
assert.equal(created.status, 201);
const rootId = created.body.dialog.id;
const question = await eventually("the clerk's question", async () => (await call(first, "GET", "/api/questions")).body.questions[0]);
// The answer goes to another process on the same store: the clerk's drive it resumes must still
// hang under the Tellask span the first process sent.
first.child.kill("SIGTERM");
await new Promise((exited) => first.child.once("exit", exited));
const parley = await startTraced("traced", collectorUrl);
const answered = await call(parley, "POST", `/api/dialogs/${question.dialog.selfId}/answer`, { questionId: question.id, content: "Friday" });
assert.equal(answered.status, 202);
await eventually("the lead's last answer", async () => {
  const transcript = (await call(parley, "GET", `/api/dialogs/${rootId}/transcript`)).body.messages;
  return transcript.at(-1)?.content?.startsWith("Trip booked");
});

// Spans arrive within the exporter's interval (1 s).
const byName = (name) => spans.filter((span) => span.name === name);
await eventually(
  "the spans of the whole tree",
  () => byName("invoke_agent lead").length >= 2 && byName("invoke_agent clerk").length >= 2 && byName("execute_tool askHuman").length >= 1,
  () => `spans so far: ${spans.map((span) => span.name).join(", ")}`,
);

assert.equal(attributes({ attributes: resources[0].attributes })["service.name"], "parley");
const traceIds = new Set(spans.map((span) => hex(span.traceId)));
assert.equal(traceIds.size, 1, "one trace for the whole dialog tree");
const ids = new Map(spans.map((span) => [hex(span.spanId), span]));
assert.equal(ids.size, spans.length, "span ids are unique");
// A span without a parent decodes with no parent id at all (an absent bytes field).
const parentOf = (span) => (span.parentSpanId?.length ? ids.get(hex(span.parentSpanId)) : undefined);

// The lead's first drive: a root span, its chat span and the Tellask's execute_tool span under it.
const leadDrives = byName("invoke_agent lead");
for (const drive of leadDrives) {
  assert.equal(parentOf(drive), undefined, "a root dialog's drive is a root span");
  assert.ok(!drive.parentSpanId?.length);
  const a = attributes(drive);
  assert.equal(a["gen_ai.operation.name"], "invoke_agent");
  assert.equal(a["gen_ai.agent.name"], "lead");
  assert.equal(a["gen_ai.conversation.id"], rootId);
  assert.equal(a["gen_ai.provider.name"], "parley.scripted");
}
const tellask = byName("execute_tool tellaskSessionless");
assert.equal(tellask.length, 1);
assert.ok(leadDrives.includes(parentOf(tellask[0])), "the Tellask is a tool call of the lead's drive");
assert.equal(attributes(tellask[0])["gen_ai.tool.name"], "tellaskSessionless");
assert.equal(attributes(tellask[0])["gen_ai.operation.name"], "execute_tool");

// The clerk's drives hang under the Tellask that assigned its task — its first and the one the
// answer resumed in the restarted server alike.
for (const drive of byName("invoke_agent clerk")) {
  assert.equal(parentOf(drive), tellask[0], "a subdialog's drive is a child of the Tellask call");
  assert.equal(attributes(drive)["gen_ai.conversation.id"], rootId);
}
const askHuman = byName("execute_tool askHuman")[0];
assert.equal(parentOf(askHuman).name, "invoke_agent clerk");

// Chat spans: client kind, the model, the usage, the finish reasons, no content by default.
const chats = spans.filter((span) => span.name === "chat scripted");
assert.ok(chats.length >= 4, `chat spans: ${chats.length}`);
for (const chat of chats) {
  assert.equal(chat.kind, 3, "SPAN_KIND_CLIENT");
  assert.match(parentOf(chat).name, /^invoke_agent (lead|clerk)$/);
  const a = attributes(chat);
  assert.equal(a["gen_ai.operation.name"], "chat");
  assert.equal(a["gen_ai.request.model"], "scripted");
  assert.equal(a["gen_ai.response.model"], "scripted");
  assert.ok(a["gen_ai.usage.input_tokens"] > 0);
  assert.ok(Array.isArray(a["gen_ai.response.finish_reasons"]));
  assert.equal(a["gen_ai.output.messages"], undefined, "no message content unless asked for");
  assert.ok(BigInt(chat.endTimeUnixNano) >= BigInt(chat.startTimeUnixNano));
}
for (const span of spans) {
  assert.equal(hex(span.traceId), [...traceIds][0]);
  assert.notEqual(hex(span.spanId), "0000000000000000");
}

// With --trace-content the saying is on the chat span.
spans.length = 0;
const content = await startTraced("content", `http://127.0.0.1:${collectorPort}/v1/traces`, ["--trace-content"]);
assert.equal((await call(content, "POST", "/api/dialogs", { content: "hello there" })).status, 201);
const said = await eventually("a chat span with content", () =>
  spans.find((span) => span.name === "chat scripted" && attributes(span)["gen_ai.output.messages"]));
assert.equal(attributes(said)["gen_ai.output.messages"], "ok: hello there");
// A tool that fails: its span has the error status and error.type, and (content on) its result.
assert.equal((await call(content, "POST", "/api/dialogs", { content: "call a ghost" })).status, 201);
const failed = await eventually("the failed tool's span", () => spans.find((span) => span.name.startsWith("execute_tool ghost")));
assert.equal(failed.status.code, 2, "STATUS_CODE_ERROR");
assert.equal(failed.status.message, "the tool failed");
assert.equal(attributes(failed)["error.type"], "tool_error");
assert.match(attributes(failed)["gen_ai.tool.call.result"], /unknown tool/);

// A collector that is down: the dialog answers anyway, and the scrape counts the dropped spans.
const down = await startTraced("down", "http://127.0.0.1:1/v1/traces");
const lonely = await call(down, "POST", "/api/dialogs", { content: "anyone there" });
assert.equal(lonely.status, 201);
await eventually("the answer without a collector", async () =>
  (await call(down, "GET", `/api/dialogs/${lonely.body.dialog.id}/transcript`)).body.messages.at(-1)?.content === "ok: anyone there");
await eventually("the dropped spans counted", async () => {
  const metrics = (await call(down, "GET", "/metrics")).body;
  const dropped = metrics.match(/^parley_trace_spans_dropped_total (\d+)/m);
  return dropped && Number(dropped[1]) >= 2;
});
assert.match(down.output(), /traces to http:\/\/127\.0\.0\.1:1\/v1\/traces not taken/);

// A collector that takes the request and never answers: the dialog answers at once, and once the
// export's 5 s timeout passes its spans are counted as dropped.
const silent = createServer(() => {});
await new Promise((listening) => silent.listen(0, "127.0.0.1", listening));
const slow = await startTraced("slow", `http://127.0.0.1:${silent.address().port}/v1/traces`);
const waiting = await call(slow, "POST", "/api/dialogs", { content: "still there" });
assert.equal(waiting.status, 201);
await eventually("the answer beside a silent collector", async () =>
  (await call(slow, "GET", `/api/dialogs/${waiting.body.dialog.id}/transcript`)).body.messages.at(-1)?.content === "ok: still there");
await eventually("the spans of the timed-out export counted", async () => {
  const dropped = (await call(slow, "GET", "/metrics")).body.match(/^parley_trace_spans_dropped_total (\d+)/m);
  return dropped && Number(dropped[1]) >= 2;
});

for (const server of [parley, content, down, slow]) server.child.kill("SIGTERM");
silent.closeAllConnections();
silent.close();
collector.close();
console.log(`otlp_collector_test: ${ids.size} spans of one dialog tree decoded and checked; content opt-in; a down or silent collector costs the dialogs nothing and its spans are counted as dropped`);
