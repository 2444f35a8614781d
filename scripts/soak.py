#!/usr/bin/env python3
"""Soak test for `parley serve` (issue 19). Not part of CI: it runs for as long as it is told to.

What it does
------------
1. Writes a team into OUT/team (a scripted model, no network, no keys) with five kinds of work:
   `lead` fans out to `w1`, `w2`, `w3` with tellaskSessionless and answers once all three replied;
   `asker` asks the human (askHuman) and thanks for the answer; `clearer` calls clear_mind, so
   every message it gets starts a new course; `looker` is sent a PNG upload as an attachment.
2. Starts `parley serve --team OUT/team/team.yaml --data OUT/data --port 0 --host 127.0.0.1`, reads
   the port and `#token=` from the line it prints, and drives a mixed load from `--threads` client
   threads (default 4): creates (`POST /api/dialogs`), follow-up messages
   (`POST /api/dialogs/{id}/messages`), answers (`GET /api/questions`, then
   `POST /api/dialogs/{id}/answer`) and uploads (`POST /api/uploads`, then a message carrying it).
   Every create, message and answer carries a `msgId`, and its content carries that id as
   `[m:ID]` / `[a:ID]`. A request that dies on a connection error (the server was killed) is sent
   again, with the same `msgId`, to the next server, until `--retry-seconds` have passed.
3. Every `--kill-every-seconds` it sends SIGKILL to the server, runs `parley check --data OUT/data`
   (which must exit 0 and say `ok`), and starts the server again on the same data. A server that
   dies by itself is counted as a crash, checked and restarted the same way.
4. Every `--sample-seconds` (10) it writes a row to OUT/samples.csv: the server's RSS
   (/proc/PID/status VmRSS), its open file descriptors (/proc/PID/fd), the data directory's size,
   and the requests done and failed so far.
5. At the end it lets the dialogs settle, then checks every acknowledged write against the API:
   an acknowledged create must be in `GET /api/dialogs` with its first message, an acknowledged
   message or answer must be in its dialog's transcript (all courses), and no `msgId` may appear
   twice. It stops the server with SIGTERM (which must exit 0), runs `parley check` a last time
   and prints a summary; its LAST line of output is one JSON object (also in OUT/summary.json).

Exit status: 0 when nothing acknowledged was lost or duplicated, every `parley check` passed and
the server never died by itself (nor failed its SIGTERM); 1 otherwise; 2 on bad usage.

Running it
----------
    python3 scripts/soak.py --parley build/release/apps/parley/parley \\
        --duration-minutes 60 --kill-every-seconds 180 --out /tmp/soak-60

Short smoke run: `--duration-minutes 2 --kill-every-seconds 40`. `--kill-every-seconds 0` never
kills; `--serve-arg=--loaded-dialogs --serve-arg=256` passes arguments on to `parley serve` (a small
dialog cache tells a leak from the cache filling up: RSS should level off once it is full).
samples.csv also has the database and WAL sizes (the WAL is reserved at 64 MiB while a server
runs, so data_bytes starts near 64 MiB) and GET /api/status's `dialogsInMemory.loaded`. OUT must not hold an earlier
run's data (use a new folder). OUT keeps the team, the data directory, server.log (every server
life's output), samples.csv, the output of each `parley check` and summary.json, so a failure can
be looked at afterwards. Only 127.0.0.1 is used; Python's standard library is all it needs.
"""

import argparse
import collections
import csv
import http.client
import json
import os
import random
import re
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib

SERVING_RE = re.compile(r"serving http://127\.0\.0\.1:(\d+)/#token=(\S+)")
TOKEN_RE = re.compile(r"\[([ma]):([A-Za-z0-9_.-]+)\]")

TEAM_YAML = """\
version: 1
default_member: lead
providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {persona: "You lead; split the work between w1, w2 and w3.", provider: offline, model: scripted,
         dialog_tools: [tellaskSessionless]}
  w1: {persona: "Worker one.", provider: offline, model: scripted, dialog_tools: []}
  w2: {persona: "Worker two.", provider: offline, model: scripted, dialog_tools: []}
  w3: {persona: "Worker three.", provider: offline, model: scripted, dialog_tools: []}
  asker: {persona: "You ask the human.", provider: offline, model: scripted, dialog_tools: [askHuman]}
  clearer: {persona: "You start afresh.", provider: offline, model: scripted, dialog_tools: [clear_mind]}
  looker: {persona: "You look at pictures.", provider: offline, model: scripted, dialog_tools: []}
"""

# delay_ms/chunk_size make each generation stream for a few tens of milliseconds, so that a
# SIGKILL regularly lands in the middle of one.
SCRIPT_YAML = """\
chunk_size: 8
delay_ms: 4
members:
  lead:
    - when: {last_tool: "from w"}
      emit: [{saying: "all three answered; the work is done"}]
    - emit:
        - thinking: "Split it three ways."
        - tool_call: {name: tellaskSessionless, arguments: {targetAgentId: w1, tellaskContent: "part one"}}
        - tool_call: {name: tellaskSessionless, arguments: {targetAgentId: w2, tellaskContent: "part two"}}
        - tool_call: {name: tellaskSessionless, arguments: {targetAgentId: w3, tellaskContent: "part three"}}
  w1:
    - emit: [{saying: "【最终完成】\\nfrom w1: part one is done"}]
  w2:
    - emit: [{saying: "【最终完成】\\nfrom w2: part two is done"}]
  w3:
    - emit: [{saying: "【最终完成】\\nfrom w3: part three is done"}]
  asker:
    - when: {last_tool: "answer"}
      emit: [{saying: "thank you for the answer"}]
    - emit:
        - tool_call: {name: askHuman, arguments: {tellaskContent: "Which colour should it be?"}}
  clearer:
    - when: {last_user: "This is course"}
      emit: [{saying: "a fresh course, reminders kept"}]
    - emit:
        - tool_call: {name: clear_mind, arguments: {}}
  looker:
    - emit: [{saying: "I see the picture"}]
"""

# The routes whose latency goes into the last line (all of them are in summary.json).
KEY_ROUTES = ("POST /api/dialogs", "POST /api/dialogs/{id}/messages", "POST /api/dialogs/{id}/answer",
              "POST /api/uploads", "GET /api/questions")

FINAL_SAYING = {
    "lead": "all three answered",
    "asker": "thank you",
    "clearer": "a fresh course",
    "looker": "I see the picture",
}


def tiny_png():
    """A valid 1x1 RGB PNG."""

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00\xff\x40\x40")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


PNG = tiny_png()


def log(msg):
    print(time.strftime("%H:%M:%S ") + msg, flush=True)


class Stopped(Exception):
    """The run is over (or a retry budget ran out) while a request or a wait was pending."""


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests_done = 0
        self.requests_failed = 0
        self.errors = collections.Counter()
        self.ops = collections.Counter()
        self.created = {}  # msgId -> dialog id (acknowledged creates)
        self.messages = {}  # msgId -> dialog id (acknowledged messages)
        self.answers = {}  # msgId -> dialog id (acknowledged answers)
        self.sent = set()  # every msgId sent at least once (acknowledged or not)
        self.unacked = collections.Counter()  # kind -> writes that never got their 2xx
        self.uploads = 0
        self.wait_seconds = []  # how long creates/messages took to reach the model's final answer
        self.latency = collections.defaultdict(list)  # "METHOD route" -> seconds per answered request

    def error(self, kind, failed=True):
        with self.lock:
            self.errors[kind] += 1
            if failed:
                self.requests_failed += 1

    def done(self, route, seconds):
        with self.lock:
            self.requests_done += 1
            self.latency[route].append(seconds)


class Server:
    """One `parley serve` process at a time, restarted on the same data directory."""

    def __init__(self, parley, team, data, out, extra_args):
        self.parley, self.team, self.data, self.out = parley, team, data, out
        self.extra_args = list(extra_args)
        self.lock = threading.Lock()
        self.up = threading.Event()
        self.proc = None
        self.port = None
        self.token = None
        self.life = 0
        self.expect_exit = False
        self.log_file = open(os.path.join(out, "server.log"), "a", encoding="utf-8", errors="replace")

    def start(self, timeout=60):
        self.life += 1
        life = self.life
        self.expect_exit = False
        proc = subprocess.Popen(
            [self.parley, "serve", "--team", self.team, "--data", self.data, "--port", "0", "--host", "127.0.0.1"]
            + self.extra_args,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, encoding="utf-8", errors="replace", bufsize=1)
        found = {}
        seen = threading.Event()

        def reader():
            for line in proc.stdout:
                self.log_file.write("[life %d pid %d] %s" % (life, proc.pid, line))
                self.log_file.flush()
                m = SERVING_RE.search(line)
                if m and not seen.is_set():
                    found["port"], found["token"] = int(m.group(1)), m.group(2)
                    seen.set()
            self.log_file.write("[life %d pid %d] (output closed)\n" % (life, proc.pid))
            self.log_file.flush()

        threading.Thread(target=reader, daemon=True).start()
        if not seen.wait(timeout):
            proc.kill()
            proc.wait()
            raise RuntimeError("parley serve printed no serving line within %ds (see server.log)" % timeout)
        with self.lock:
            self.proc, self.port, self.token = proc, found["port"], found["token"]
        # The line is printed once the port listens; make sure the API answers before the clients go.
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("GET", "/api/status", headers={"Authorization": "Bearer " + self.token})
                if conn.getresponse().status == 200:
                    conn.close()
                    break
                conn.close()
            except OSError:
                pass
            time.sleep(0.2)
        self.up.set()
        return proc.pid

    def snapshot(self):
        with self.lock:
            return self.port, self.token, self.life

    def pid(self):
        with self.lock:
            return self.proc.pid if self.proc else None

    def kill9(self):
        self.up.clear()
        self.expect_exit = True
        proc = self.proc
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        return proc.returncode

    def terminate(self, timeout=90):
        self.up.clear()
        self.expect_exit = True
        proc = self.proc
        proc.send_signal(signal.SIGTERM)
        try:
            return proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            return "timeout"

    def died(self):
        """The exit status when the server died without being told to, else None."""
        proc = self.proc
        if proc is None or self.expect_exit:
            return None
        return proc.poll()


class Client:
    """HTTP to the current server; connection errors wait for the next server and retry."""

    def __init__(self, server, stats, stop, retry_seconds):
        self.server, self.stats, self.stop, self.retry_seconds = server, stats, stop, retry_seconds

    def request(self, method, path, body=None, raw=None, content_type=None, ok=(200, 201, 202)):
        """Returns (status, json). Retries on connection errors and timeouts only, with the same
        body (so the same msgId); raises Stopped when the retry budget is spent."""
        deadline = time.monotonic() + self.retry_seconds
        attempt = 0
        while True:
            attempt += 1
            port, token, life = self.server.snapshot()
            headers = {"Authorization": "Bearer " + token}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            elif raw is not None:
                data = raw
                headers["Content-Type"] = content_type
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            t0 = time.monotonic()
            try:
                conn.request(method, path, body=data, headers=headers)
                resp = conn.getresponse()
                text = resp.read()
                status = resp.status
            except (OSError, http.client.HTTPException) as e:
                conn.close()
                self.stats.error("conn:" + type(e).__name__)
                if time.monotonic() > deadline:
                    raise Stopped("%s %s: gave up after %d attempts (%s)" % (method, path, attempt, e))
                # Wait for a server of a later life (or a moment, if this one is still up).
                if self.server.snapshot()[2] == life:
                    self.server.up.wait(5)
                    time.sleep(0.2 if self.server.up.is_set() else 0)
                continue
            conn.close()
            self.stats.done(method + " " + route_of(path), time.monotonic() - t0)
            try:
                payload = json.loads(text) if text else {}
            except ValueError:
                payload = {"raw": text[:200].decode("utf-8", "replace")}
            if status not in ok:
                code = payload.get("error", {}).get("code", "") if isinstance(payload, dict) else ""
                self.stats.error("http:%d:%s %s" % (status, code, route_of(path)))
            return status, payload


def route_of(path):
    path = path.split("?")[0]
    return re.sub(r"/api/(dialogs|uploads)/[^/]+", r"/api/\1/{id}", path)


class Worker(threading.Thread):
    def __init__(self, index, client, stats, stop, run_id, rng, follow_ups, wait_seconds):
        super().__init__(name="client-%d" % index, daemon=True)
        self.index, self.client, self.stats, self.stop = index, client, stats, stop
        self.run_id, self.rng, self.n = run_id, rng, 0
        self.follow_ups, self.wait_seconds = follow_ups, wait_seconds

    def new_id(self, kind):
        self.n += 1
        return "%s-t%d-%s%d" % (self.run_id, self.index, kind, self.n)

    def run(self):
        ops = [("fanout", 35), ("question", 25), ("clear_mind", 20), ("upload", 20)]
        while not self.stop.is_set():
            op = self.rng.choices([o for o, _ in ops], [w for _, w in ops])[0]
            with self.stats.lock:
                self.stats.ops[op] += 1
            try:
                getattr(self, "op_" + op)()
            except Stopped:
                pass
            except Exception as e:  # a bug in this script must not end the load silently
                self.stats.error("client_exception:" + type(e).__name__)
                log("client %d: %s: %r" % (self.index, op, e))
                time.sleep(1)

    # --- the writes -------------------------------------------------------------------------

    def create(self, member, text, attachment=None):
        msg_id = self.new_id("c")
        body = {"memberId": member, "content": "[m:%s] %s" % (msg_id, text), "msgId": msg_id,
                "title": "soak %s %s" % (member, msg_id)}
        if attachment:
            body["attachment"] = attachment
        with self.stats.lock:
            self.stats.sent.add(msg_id)
        try:
            status, payload = self.client.request("POST", "/api/dialogs", body=body)
        except Stopped:
            with self.stats.lock:
                self.stats.unacked["create"] += 1
            raise
        if status != 201:
            with self.stats.lock:
                self.stats.unacked["create"] += 1
            raise Stopped("create refused: %d %s" % (status, payload))
        dialog = payload["dialog"]["id"]
        with self.stats.lock:
            self.stats.created[msg_id] = dialog
        return dialog

    def post(self, dialog, text, attachment=None):
        msg_id = self.new_id("m")
        body = {"content": "[m:%s] %s" % (msg_id, text), "msgId": msg_id}
        if attachment:
            body["attachment"] = attachment
        with self.stats.lock:
            self.stats.sent.add(msg_id)
        try:
            status, _ = self.client.request("POST", "/api/dialogs/%s/messages" % dialog, body=body)
        except Stopped:
            with self.stats.lock:
                self.stats.unacked["message"] += 1
            raise
        if status != 202:
            with self.stats.lock:
                self.stats.unacked["message"] += 1
            raise Stopped("message refused: %d" % status)
        with self.stats.lock:
            self.stats.messages[msg_id] = dialog

    def answer(self, dialog):
        """Finds the dialog's open question and answers it; False when none showed up in time."""
        question = None
        deadline = time.monotonic() + self.wait_seconds
        while question is None:
            if time.monotonic() > deadline:
                self.stats.error("wait:no_question", failed=False)
                return False
            summary = self.summary(dialog)
            if summary and summary.get("openQuestions", 0) > 0:
                _, payload = self.client.request("GET", "/api/questions")
                for q in payload.get("questions", []):
                    if q["dialog"]["selfId"] == dialog:
                        question = q["id"]
                        break
            if question is None:
                self.pause(0.3)
        msg_id = self.new_id("a")
        body = {"questionId": question, "content": "the answer is blue [a:%s]" % msg_id, "msgId": msg_id}
        with self.stats.lock:
            self.stats.sent.add(msg_id)
        try:
            status, payload = self.client.request("POST", "/api/dialogs/%s/answer" % dialog, body=body,
                                                  ok=(202,))
        except Stopped:
            with self.stats.lock:
                self.stats.unacked["answer"] += 1
            raise
        if status != 202:
            # A retried answer whose first try was taken before a kill is refused as "already
            # answered" (answers are not idempotent by msgId); the final check still finds it.
            with self.stats.lock:
                self.stats.unacked["answer"] += 1
            return status == 409
        with self.stats.lock:
            self.stats.answers[msg_id] = dialog
        return True

    def upload(self):
        status, payload = self.client.request("POST", "/api/uploads", raw=PNG, content_type="image/png",
                                              ok=(201,))
        if status != 201:
            raise Stopped("upload refused: %d %s" % (status, payload))
        with self.stats.lock:
            self.stats.uploads += 1
        return {"uploadId": payload["upload"]["id"], "caption": "a blue pixel"}

    # --- waiting ------------------------------------------------------------------------------

    def pause(self, seconds):
        if self.stop.wait(seconds):
            raise Stopped("run over")

    def summary(self, dialog):
        status, payload = self.client.request("GET", "/api/dialogs/%s" % dialog)
        return payload.get("dialog") if status == 200 else None

    def wait_final(self, dialog, member, since):
        """Waits until the dialog is at rest and its last message is the member's final answer."""
        deadline = time.monotonic() + self.wait_seconds
        while time.monotonic() < deadline:
            s = self.summary(dialog)
            if s and s.get("lastError"):
                self.stats.error("dialog_last_error", failed=False)
            if s and not s["generating"] and not s["needsDrive"] and s["pendingSubdialogs"] == 0:
                status, t = self.client.request("GET", "/api/dialogs/%s/transcript?offset=0&limit=1" % dialog)
                if status == 200 and t["total"] > 0:
                    status, t = self.client.request(
                        "GET", "/api/dialogs/%s/transcript?offset=%d&limit=1" % (dialog, t["total"] - 1))
                    last = t["messages"][-1] if status == 200 and t["messages"] else None
                    if last and last["role"] == "assistant" and FINAL_SAYING[member] in last["content"]:
                        with self.stats.lock:
                            self.stats.wait_seconds.append(time.monotonic() - since)
                        return True
            self.pause(0.3)
        self.stats.error("wait:final_answer_timeout:" + member, failed=False)
        return False

    # --- the operations -------------------------------------------------------------------------

    def op_fanout(self):
        t0 = time.monotonic()
        dialog = self.create("lead", "split this in three")
        self.wait_final(dialog, "lead", t0)
        for _ in range(self.rng.randint(0, self.follow_ups)):
            t0 = time.monotonic()
            self.post(dialog, "and again, in three")
            self.wait_final(dialog, "lead", t0)

    def op_question(self):
        dialog = self.create("asker", "paint the fence")
        t0 = time.monotonic()
        if self.answer(dialog):
            self.wait_final(dialog, "asker", t0)
        for _ in range(self.rng.randint(0, self.follow_ups)):
            t0 = time.monotonic()
            self.post(dialog, "paint the gate too")
            if self.answer(dialog):
                self.wait_final(dialog, "asker", t0)

    def op_clear_mind(self):
        t0 = time.monotonic()
        dialog = self.create("clearer", "start over")
        self.wait_final(dialog, "clearer", t0)
        for _ in range(self.rng.randint(0, self.follow_ups)):
            t0 = time.monotonic()
            self.post(dialog, "start over once more")
            self.wait_final(dialog, "clearer", t0)

    def op_upload(self):
        t0 = time.monotonic()
        dialog = self.create("looker", "what is this?", attachment=self.upload())
        self.wait_final(dialog, "looker", t0)
        for _ in range(self.rng.randint(0, self.follow_ups)):
            t0 = time.monotonic()
            self.post(dialog, "and this one?", attachment=self.upload())
            self.wait_final(dialog, "looker", t0)


# --- process figures ----------------------------------------------------------------------------


def rss_kb(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def fd_count(pid):
    try:
        return len(os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return None


def dir_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def file_bytes(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def dialogs_in_memory(server):
    """`dialogsInMemory.loaded` of GET /api/status, or None (one try, no retry)."""
    port, token, _ = server.snapshot()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/api/status", headers={"Authorization": "Bearer " + token})
        resp = conn.getresponse()
        payload = json.loads(resp.read())
        conn.close()
        return payload.get("dialogsInMemory", {}).get("loaded")
    except (OSError, http.client.HTTPException, ValueError):
        return None


def run_check(parley, data, out, label):
    """`parley check --data DATA`: ok when it exits 0 and says ok."""
    t0 = time.monotonic()
    try:
        done = subprocess.run([parley, "check", "--data", data], stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, errors="replace", timeout=600)
        rc, text = done.returncode, (done.stdout + done.stderr)
    except subprocess.TimeoutExpired:
        rc, text = "timeout", ""
    with open(os.path.join(out, "checks.log"), "a", encoding="utf-8") as f:
        f.write("== %s: rc=%s (%.1fs)\n%s\n" % (label, rc, time.monotonic() - t0, text))
    ok = rc == 0 and re.search(r"\bok\b", text) is not None
    return ok, rc, text.strip().splitlines()[-1] if text.strip() else ""


# --- the final verification -----------------------------------------------------------------------


def verify(client, stats):
    """Reads every root dialog and its transcripts back and compares them with what was acknowledged."""
    roots = {}
    offset = 0
    while True:
        status, page = client.request("GET", "/api/dialogs?limit=500&offset=%d" % offset)
        if status != 200:
            raise RuntimeError("GET /api/dialogs: %d %s" % (status, page))
        for d in page["dialogs"]:
            roots[d["id"]] = d
        offset += len(page["dialogs"])
        if not page["dialogs"] or offset >= page["total"]:
            break
    seen = collections.Counter()  # msgId -> how many messages carry it
    where = collections.defaultdict(set)  # msgId -> dialogs holding it
    first_token = {}  # dialog -> msgId of its first user message
    stuck = []
    for dialog, summary in roots.items():
        if summary.get("generating") or summary.get("needsDrive") or summary.get("pendingSubdialogs"):
            stuck.append(dialog)
        courses = 1
        course = 1
        while course <= courses:
            offset = 0
            while True:
                status, t = client.request(
                    "GET", "/api/dialogs/%s/transcript?course=%d&limit=500&offset=%d" % (dialog, course, offset))
                if status != 200:
                    raise RuntimeError("transcript of %s: %d %s" % (dialog, status, t))
                courses = t["courses"]
                for m in t["messages"]:
                    if m["role"] == "user" or (m["role"] == "tool" and m.get("toolName") == "askHuman"):
                        for kind, token in TOKEN_RE.findall(m.get("content", "")):
                            if (kind == "m") == (m["role"] == "user"):
                                seen[token] += 1
                                where[token].add(dialog)
                                if m["role"] == "user" and dialog not in first_token:
                                    first_token[dialog] = token
                offset += len(t["messages"])
                if not t["messages"] or offset >= t["total"]:
                    break
            course += 1
    lost = []
    with stats.lock:
        created = dict(stats.created)
        messages = dict(stats.messages)
        answers = dict(stats.answers)
        sent = set(stats.sent)
    for msg_id, dialog in created.items():
        if dialog not in roots:
            lost.append({"kind": "create", "msgId": msg_id, "dialog": dialog, "why": "not in GET /api/dialogs"})
        elif first_token.get(dialog) != msg_id:
            lost.append({"kind": "create", "msgId": msg_id, "dialog": dialog,
                         "why": "first message carries %r" % first_token.get(dialog)})
    for kind, acked in (("message", messages), ("answer", answers)):
        for msg_id, dialog in acked.items():
            if dialog not in where[msg_id]:
                lost.append({"kind": kind, "msgId": msg_id, "dialog": dialog, "why": "not in its transcript"})
    duplicates = [{"msgId": k, "count": n, "dialogs": sorted(where[k])} for k, n in seen.items() if n > 1]
    unknown = sorted(set(seen) - sent)
    ours = [d for d in roots if d in set(created.values()) or d in first_token]
    return {
        "roots": len(roots),
        "roots_ours": len(ours),
        "lost": lost,
        "duplicates": duplicates,
        "unknown_msg_ids": unknown[:20],
        "stuck": stuck,
        "sent_found": sum(1 for k in sent if seen[k] > 0),
        "sent": len(sent),
    }


# --- main -----------------------------------------------------------------------------------------


def life_record(life, pid):
    return {"life": life, "pid": pid, "rss_kb": {}, "fds": {}, "samples": 0, "end": None}


def note_sample(rec, rss, fds):
    if rss is not None:
        r = rec["rss_kb"]
        r.setdefault("first", rss)
        r["min"] = min(r.get("min", rss), rss)
        r["max"] = max(r.get("max", rss), rss)
        r["last"] = rss
    if fds is not None:
        f = rec["fds"]
        f.setdefault("first", fds)
        f["max"] = max(f.get("max", fds), fds)
        f["last"] = fds
    rec["samples"] += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--parley", required=True, help="the parley binary")
    ap.add_argument("--duration-minutes", type=float, required=True)
    ap.add_argument("--kill-every-seconds", type=float, default=180, help="SIGKILL the server this often (0: never)")
    ap.add_argument("--out", required=True, help="folder for the team, data, samples.csv, logs and summary")
    ap.add_argument("--threads", type=int, default=4, help="client threads (default 4)")
    ap.add_argument("--sample-seconds", type=float, default=10)
    ap.add_argument("--follow-ups", type=int, default=2, help="at most this many follow-ups per dialog (default 2)")
    ap.add_argument("--wait-seconds", type=float, default=90, help="how long a client waits for an answer")
    ap.add_argument("--retry-seconds", type=float, default=180, help="how long a request is retried")
    ap.add_argument("--settle-seconds", type=float, default=120, help="at most this long for dialogs to settle")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--serve-arg", action="append", default=[], metavar="ARG",
                    help="one more argument for `parley serve` (repeat it; e.g. --serve-arg=--loaded-dialogs "
                         "--serve-arg=256)")
    args = ap.parse_args()

    parley = os.path.abspath(args.parley)
    if not os.access(parley, os.X_OK):
        ap.error("--parley: %s is not an executable" % parley)
    if args.duration_minutes <= 0 or args.threads < 1 or args.threads > 32 or args.sample_seconds <= 0:
        ap.error("--duration-minutes must be > 0, --threads 1..32, --sample-seconds > 0")
    out = os.path.abspath(args.out)
    data = os.path.join(out, "data")
    team_dir = os.path.join(out, "team")
    if os.path.exists(data):
        ap.error("%s exists: give a new --out folder" % data)
    os.makedirs(team_dir, exist_ok=True)
    with open(os.path.join(team_dir, "team.yaml"), "w", encoding="utf-8") as f:
        f.write(TEAM_YAML)
    with open(os.path.join(team_dir, "script.yaml"), "w", encoding="utf-8") as f:
        f.write(SCRIPT_YAML)

    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    run_id = "soak%d" % (int(time.time()) % 1000000)
    stats = Stats()
    stop = threading.Event()
    server = Server(parley, os.path.join(team_dir, "team.yaml"), data, out, args.serve_arg)
    client = Client(server, stats, stop, args.retry_seconds)

    lives = []
    kills = crashes = 0
    checks = []  # {label, ok, rc, line}
    pid = server.start()
    lives.append(life_record(server.life, pid))
    log("soak: server life 1 pid %d port %d; %s minutes, kill every %ss, %d threads, seed %d, out %s" % (
        pid, server.port, args.duration_minutes, args.kill_every_seconds, args.threads, seed, out))

    workers = [Worker(i, client, stats, stop, run_id, random.Random(seed + i), args.follow_ups, args.wait_seconds)
               for i in range(args.threads)]
    for w in workers:
        w.start()

    csv_file = open(os.path.join(out, "samples.csv"), "w", newline="")
    writer = csv.writer(csv_file)
    # data_bytes counts file sizes: the WAL is reserved at 64 MiB while a server runs (fallocate).
    writer.writerow(["elapsed_s", "life", "pid", "rss_kb", "fds", "data_bytes", "db_bytes", "wal_bytes",
                     "uploads_bytes", "dialogs_in_memory", "requests_done", "requests_failed",
                     "dialogs_created", "messages_acked", "answers_acked", "uploads"])

    def sample():
        elapsed = time.monotonic() - t_start
        p = server.pid()
        rss, fds = rss_kb(p), fd_count(p)
        note_sample(lives[-1], rss, fds)
        loaded = dialogs_in_memory(server) if server.up.is_set() else None
        db = os.path.join(data, "parley.db")
        sizes = [dir_bytes(data), file_bytes(db), file_bytes(db + "-wal"), dir_bytes(os.path.join(data, "uploads"))]
        with stats.lock:
            row = [round(elapsed, 1), server.life, p, rss, fds] + sizes + [
                loaded, stats.requests_done, stats.requests_failed, len(stats.created), len(stats.messages),
                len(stats.answers), stats.uploads]
        writer.writerow(row)
        csv_file.flush()
        return row

    def check_and_restart(label):
        ok, rc, line = run_check(parley, data, out, label)
        checks.append({"label": label, "ok": ok, "rc": rc, "line": line})
        log("soak: %s; parley check: rc=%s %s" % (label, rc, line))
        new_pid = server.start()
        lives.append(life_record(server.life, new_pid))
        log("soak: server life %d pid %d port %d" % (server.life, new_pid, server.port))

    t_start = time.monotonic()
    end = t_start + args.duration_minutes * 60
    next_sample = t_start
    life_started = t_start
    while time.monotonic() < end:
        now = time.monotonic()
        code = server.died()
        if code is not None:
            crashes += 1
            lives[-1]["end"] = "died rc=%s" % code
            server.up.clear()
            log("soak: the server died by itself (rc=%s); see server.log" % code)
            check_and_restart("after crash %d (rc=%s)" % (crashes, code))
            life_started = time.monotonic()
            continue
        if now >= next_sample:
            row = sample()
            log("soak: t=%ds life %d rss %s kB fds %s data %s B (db %s) loaded %s requests %d failed %d "
                "dialogs %d" % (row[0], row[1], row[3], row[4], row[5], row[6], row[9], row[10], row[11], row[12]))
            next_sample += args.sample_seconds
        if args.kill_every_seconds > 0 and now - life_started >= args.kill_every_seconds and end - now > 5:
            sample()
            kills += 1
            rc = server.kill9()
            lives[-1]["end"] = "SIGKILL"
            log("soak: kill -9 #%d (pid exit %s)" % (kills, rc))
            check_and_restart("after kill %d" % kills)
            life_started = time.monotonic()
            continue
        time.sleep(min(0.5, max(0.05, min(next_sample, end) - time.monotonic())))

    log("soak: duration over; stopping the clients")
    stop.set()
    for w in workers:
        w.join(args.retry_seconds + args.wait_seconds + 30)
    alive = [w.name for w in workers if w.is_alive()]

    # Let running work finish (bounded), then read everything back.
    settle_deadline = time.monotonic() + args.settle_seconds
    while time.monotonic() < settle_deadline:
        _, page = client.request("GET", "/api/dialogs?limit=500&offset=0")
        busy = [d for d in page.get("dialogs", []) if d["generating"] or d["needsDrive"] or d["pendingSubdialogs"]]
        if not busy:
            break
        time.sleep(2)
    sample()
    t_verify = time.monotonic()
    try:
        result = verify(client, stats)
    except (RuntimeError, Stopped, KeyError, ValueError) as e:  # the API could not be read back: a failure
        log("soak: VERIFY FAILED: %r" % e)
        result = {"roots": 0, "roots_ours": 0, "lost": [{"kind": "verify", "why": repr(e)}], "duplicates": [],
                  "unknown_msg_ids": [], "stuck": [], "sent_found": 0, "sent": 0}
    verify_seconds = time.monotonic() - t_verify
    sample()
    stop_rc = server.terminate()
    lives[-1]["end"] = "SIGTERM rc=%s" % stop_rc
    ok, rc, line = run_check(parley, data, out, "final")
    checks.append({"label": "final", "ok": ok, "rc": rc, "line": line})
    log("soak: SIGTERM rc=%s; final parley check: rc=%s %s" % (stop_rc, rc, line))
    csv_file.close()

    check_failures = [c for c in checks if not c["ok"]]
    with stats.lock:
        latency = {}
        for route, v in sorted(stats.latency.items()):
            v = sorted(v)
            latency[route] = {"n": len(v), "p50": round(1000 * v[len(v) // 2], 1),
                              "p99": round(1000 * v[int(len(v) * 0.99)], 1), "max": round(1000 * v[-1], 1)}
        waits = sorted(stats.wait_seconds)
        summary = {
            "duration_s": round(time.monotonic() - t_start, 1),
            "load_s": round(args.duration_minutes * 60, 1),
            "seed": seed,
            "threads": args.threads,
            "kills": kills,
            "crashes": crashes,
            "server_lives": len(lives),
            "ops": dict(stats.ops),
            "dialogs_created": result["roots_ours"],
            "acked_creates": len(stats.created),
            "acked_messages": len(stats.messages),
            "acked_answers": len(stats.answers),
            "unacked_writes": dict(stats.unacked),
            "uploads": stats.uploads,
            "lost_acked": len(result["lost"]),
            "duplicates": len(result["duplicates"]),
            "check_runs": len(checks),
            "check_failures": len(check_failures),
            "sigterm_rc": stop_rc,
            "stuck_dialogs": len(result["stuck"]),
            "clients_not_stopped": alive,
            "requests_done": stats.requests_done,
            "requests_failed": stats.requests_failed,
            "answer_latency_s": {"p50": round(waits[len(waits) // 2], 2) if waits else None,
                                 "p99": round(waits[int(len(waits) * 0.99)], 2) if waits else None,
                                 "max": round(waits[-1], 2) if waits else None},
            "verify_s": round(verify_seconds, 1),
            "latency_ms": {r: latency[r] for r in KEY_ROUTES if r in latency},
            "data_bytes": dir_bytes(data),
            "rss_kb_per_life": [dict(life=l["life"], end=l["end"], **l["rss_kb"]) for l in lives],
            "fds_per_life": [dict(life=l["life"], **l["fds"]) for l in lives],
            "fds_max": max((l["fds"].get("max", 0) for l in lives), default=0),
            "errors": dict(sorted(stats.errors.items())),
        }
    details = dict(summary, latency_ms=latency, lost=result["lost"][:50], duplicate_list=result["duplicates"][:50],
                   stuck_list=result["stuck"][:50], unknown_msg_ids=result["unknown_msg_ids"],
                   sent=result["sent"], sent_found=result["sent_found"], checks=checks)
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(details, f, indent=2, ensure_ascii=False)
    for item in result["lost"][:10]:
        log("soak: LOST %s" % json.dumps(item))
    for item in result["duplicates"][:10]:
        log("soak: DUPLICATE %s" % json.dumps(item))
    for c in check_failures:
        log("soak: CHECK FAILED %s" % json.dumps(c, ensure_ascii=False))
    failed = (result["lost"] or result["duplicates"] or check_failures or crashes or stop_rc != 0)
    print(json.dumps(summary, ensure_ascii=False), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
