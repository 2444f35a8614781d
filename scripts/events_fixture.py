#!/usr/bin/env python3
"""Builds tests/data/events-v1.jsonl: one logged event per distinct payload shape.

Input: JSON Lines of events as a Parley build appended them ({dialogId, rootId, seq, type,
payload, tsMs}), harvested by running the engine, scenario, server, CLI and RTWS test programs of
commit 16db363 (the last before typed events) with an append hook that wrote every event the
stores took (see tests/data/README.md). Events of dialogs whose ids Parley did not make were
built by hand in a test and are left out. Output: for each event type, the first event of each
distinct shape — the set of field paths with their JSON kinds, plus the values of the fields that
are closed vocabularies — with long strings cut to keep the file reviewable.

usage: scripts/events_fixture.py dump.jsonl [more.jsonl ...] > tests/data/events-v1.jsonl
"""
import json
import re
import sys

# Parley's dialog ids (core/ids.cpp); events of other ids were built by hand in a test.
DIALOG_ID = re.compile(r"^[0-9a-f]{16}$")

# Fields whose values are a closed vocabulary: each value is its own shape.
VOCABULARY = {"kind", "origin", "status", "level", "name", "callKind", "callName", "selector", "trigger",
              "sessionType", "createdBy", "senderRole", "contentType", "initiatorRole", "responderRole"}
MAX_CHARS = 240


def kind(value):
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null"


def shape(value, path, out):
    out.add((path, kind(value)))
    if isinstance(value, dict):
        for key, item in value.items():
            sub = f"{path}.{key}" if path else key
            if key in VOCABULARY and isinstance(item, str) and not path.startswith("metadata"):
                out.add((sub, "=" + item))
            shape(item, sub, out)
    elif isinstance(value, list):
        for item in value:
            shape(item, path + "[]", out)


def cut(value):
    if isinstance(value, str):
        return value if len(value) <= MAX_CHARS else value[:MAX_CHARS] + "…"
    if isinstance(value, list):
        return [cut(v) for v in value]
    if isinstance(value, dict):
        return {k: cut(v) for k, v in value.items()}
    return value


def main(paths):
    seen = set()
    kept = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                ev = json.loads(line)
                if not DIALOG_ID.match(ev["dialogId"]):
                    continue
                fields = set()
                shape(ev["payload"], "", fields)
                key = (ev["type"], frozenset(fields))
                if key in seen:
                    continue
                seen.add(key)
                ev["payload"] = cut(ev["payload"])
                kept.append(ev)
    kept.sort(key=lambda e: e["type"])
    for ev in kept:
        print(json.dumps(ev, ensure_ascii=False, separators=(",", ":")))


if __name__ == "__main__":
    main(sys.argv[1:])
