#!/usr/bin/env python3
"""Floods one `pihost serve` session with pipelined requests (issue 24): every
request is written without waiting for its answer, alternating emit(tool_call)
and executeTool(stream, one update), and each must be answered exactly once
with its own result. Resident memory is read from /proc after a warm-up round
and after each flood round, to show whether it stays flat.

    python3 benches/serve_flood.py [path/to/pihost]    (default target/release/pihost)
    REQUESTS=100000 ROUNDS=3 python3 benches/serve_flood.py
    MODE=emit|tool python3 benches/serve_flood.py    one kind of request only

Prints one JSON line per round (requests, seconds, requests per second, lost,
answered twice, resident MiB after) and exits 1 when a request was lost or
answered twice.

    SESSIONS=50 python3 benches/serve_flood.py    the flood spread over 50 sessions of one process

With SESSIONS > 1 the process holds that many sessions (`params.session`,
docs/protocol.md), each its own runtime, and the requests go to them in
turn; the memory after opening them is printed first.

    SESSIONS=6 CHURN=5 python3 benches/serve_flood.py    then shuts the sessions down and opens them again, 5 times

prints the memory after each such round (engine note 50: a shut-down
session's runtime leaves part of its heap behind).
"""

import json
import os
import subprocess
import sys
import tempfile
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target", "release", "pihost")
fixtures = os.path.join(here, "fixtures", "serve")
requests_per_round = int(os.environ.get("REQUESTS", "100000"))
rounds = int(os.environ.get("ROUNDS", "3"))
# "mixed" (default) alternates the two requests; "emit" or "tool" sends only one kind.
mode = os.environ.get("MODE", "mixed")
session_count = int(os.environ.get("SESSIONS", "1"))
# One session: the default one, named by no request.
sessions = [None] if session_count <= 1 else [f"s{n}" for n in range(session_count)]

# What serve says on stderr goes to a file, shown when the process ends early.
stderr_log = tempfile.NamedTemporaryFile(prefix="serve-flood-", suffix=".log", delete=False)
process = subprocess.Popen([binary, "serve", "--cwd", fixtures, *os.environ.get("SERVE_ARGS", "").split()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=stderr_log, bufsize=1 << 20)


def resident_mib():
    with open(f"/proc/{process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def write(message):
    process.stdin.write((json.dumps(message) + "\n").encode())


def read():
    line = process.stdout.readline()
    if not line:
        process.wait(timeout=30)
        with open(stderr_log.name, errors="replace") as log:
            tail = log.read()[-2000:]
        raise RuntimeError(f"pihost serve closed its output (exit {process.returncode}); its stderr ends:\n{tail}")
    return json.loads(line)


def call(request_id, method, params):
    write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
    process.stdin.flush()
    while True:
        message = read()
        if message.get("id") == request_id:
            if "error" in message:
                raise RuntimeError(message["error"]["message"])
            return message["result"]


def addressed(params, session):
    return params if session is None else {**params, "session": session}


def open_sessions(first_id):
    for number, session in enumerate(sessions):
        first = first_id + 3 * number
        call(first, "initialize", addressed({"agentDir": os.path.join(fixtures, ".no-agent-dir")}, session))
        call(first + 1, "load", addressed({"paths": ["stream.ts"]}, session))
        call(first + 2, "bind", addressed({"state": {}}, session))


started = time.perf_counter()
open_sessions(1)
if session_count > 1:
    print(json.dumps({"sessions": session_count, "openSeconds": round(time.perf_counter() - started, 2),
                      "residentMiB": round(resident_mib(), 1)}), flush=True)

event = {"type": "tool_call", "toolName": "bash", "toolCallId": "1", "input": {"command": "ls"}}


def request(request_id):
    session = sessions[(request_id // 2) % len(sessions)]
    if mode == "emit" or (mode == "mixed" and request_id % 2 == 0):
        return {"jsonrpc": "2.0", "id": request_id, "method": "emit", "params": addressed({"event": event}, session)}
    return {"jsonrpc": "2.0", "id": request_id, "method": "executeTool",
            "params": addressed({"name": "stream", "toolCallId": f"call-{request_id}", "args": {"count": 1}}, session)}


def flood(first_id, count):
    """Writes `count` requests from a thread while this one reads every answer."""
    def writer():
        for request_id in range(first_id, first_id + count):
            write(request(request_id))
        process.stdin.flush()

    answers = {}
    started = time.perf_counter()
    thread = threading.Thread(target=writer)
    thread.start()
    while len(answers) < count:
        message = read()
        request_id = message.get("id")
        if request_id is None:
            continue  # a toolUpdate notification
        if "error" in message:
            raise RuntimeError(f"request {request_id}: {message['error']['message']}")
        answers[request_id] = answers.get(request_id, 0) + 1
    elapsed = time.perf_counter() - started
    thread.join()
    # Anything answered twice would come after the last first answer: give it a moment, then count.
    write({"jsonrpc": "2.0", "id": first_id + count, "method": "emit",
           "params": addressed({"event": {"type": "unhandled_probe"}}, sessions[0])})
    process.stdin.flush()
    while True:
        message = read()
        request_id = message.get("id")
        if request_id == first_id + count:
            break
        if request_id is not None:
            answers[request_id] = answers.get(request_id, 0) + 1
    lost = sum(1 for request_id in range(first_id, first_id + count) if request_id not in answers)
    twice = sum(1 for times in answers.values() if times > 1)
    return elapsed, lost, twice


failed = False
next_id = 3 * len(sessions) + 100
elapsed, lost, twice = flood(next_id, min(10000, requests_per_round))
next_id += min(10000, requests_per_round) + 1
print(json.dumps({"round": "warm-up", "residentMiB": round(resident_mib(), 1)}), flush=True)
for number in range(1, rounds + 1):
    elapsed, lost, twice = flood(next_id, requests_per_round)
    next_id += requests_per_round + 1
    failed |= lost > 0 or twice > 0
    print(json.dumps({
        "round": number,
        "requests": requests_per_round,
        "seconds": round(elapsed, 2),
        "requestsPerSecond": round(requests_per_round / elapsed),
        "lost": lost,
        "answeredTwice": twice,
        "residentMiB": round(resident_mib(), 1),
    }), flush=True)

churn = int(os.environ.get("CHURN", "0")) if session_count > 1 else 0
for number in range(1, churn + 1):
    for session in sessions:
        call(next_id, "shutdown", {"session": session})
        next_id += 1
    open_sessions(next_id)
    next_id += 3 * len(sessions)
    print(json.dumps({"churn": number, "sessions": session_count, "residentMiB": round(resident_mib(), 1)}), flush=True)

call(next_id, "shutdown", {})
process.wait(timeout=30)
sys.exit(1 if failed else 0)
