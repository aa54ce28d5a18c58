#!/usr/bin/env python3
"""Benchmarks `pihost serve` from an agent's side (issue 6): the round trip of
emit(tool_call) (request line out, response line back) and the throughput of
toolUpdate notifications while a tool streams progress.

    python3 benches/serve_bench.py [path/to/pihost]   (default target/release/pihost)
"""

import json
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target", "release", "pihost")
fixtures = os.path.join(here, "fixtures", "serve")

process = subprocess.Popen([binary, "serve", "--cwd", fixtures], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, bufsize=1)
next_id = [0]


def send(method, params):
    next_id[0] += 1
    process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params}) + "\n")
    process.stdin.flush()
    return next_id[0]


def call(method, params, on_notification=None):
    request_id = send(method, params)
    while True:
        message = json.loads(process.stdout.readline())
        if "method" in message:
            if on_notification:
                on_notification(message)
            continue
        if message.get("id") == request_id:
            if "error" in message:
                raise RuntimeError(message["error"]["message"])
            return message["result"]


call("initialize", {"agentDir": os.path.join(fixtures, ".no-agent-dir")})
call("load", {"paths": ["stream.ts"]})
call("bind", {"state": {}})

event = {"type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": {"command": "ls"}}
for _ in range(200):
    call("emit", {"event": event})
rounds = 3000
started = time.perf_counter()
for _ in range(rounds):
    call("emit", {"event": event})
round_trip_us = (time.perf_counter() - started) * 1e6 / rounds

updates = [0]
count = 20000
started = time.perf_counter()
call("executeTool", {"name": "stream", "args": {"count": count}},
     on_notification=lambda message: updates.__setitem__(0, updates[0] + (message["method"] == "toolUpdate")))
elapsed = time.perf_counter() - started
assert updates[0] == count, updates[0]

call("shutdown", {})
process.wait(timeout=30)
print(json.dumps({
    "emit_tool_call_round_trip_us": round(round_trip_us, 1),
    "tool_updates_per_second": round(count / elapsed),
}))
