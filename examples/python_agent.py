#!/usr/bin/env python3
"""A tiny agent in Python (standard library only) that drives `pihost serve`.

The same scripted "model" as examples/scripted_agent.rs: it asks for tool
calls, lets the extensions in extensions-examples/ block them (tool_call) and
rewrite results (tool_result), executes extension tools through pihost and
simulates its own built-in ones, and prints the same transcript.

    python3 examples/python_agent.py [path/to/pihost]
"""

import json
import os
import subprocess
import sys

SCRIPT = [
    ("greet", {"name": "Ada"}),
    ("write", {"path": "Cargo.lock", "content": "overwritten"}),
    ("read", {"path": "README.md"}),
]


def compact(value):
    return json.dumps(value, separators=(",", ":"))


def builtin_tool(name, args):
    """The built-in tools this agent has itself; extension tools run in pihost."""
    if name == "read":
        return [{"type": "text", "text": "(contents of %s)" % args.get("path", "?")}]
    if name == "write":
        return [{"type": "text", "text": "written"}]
    return None


def text_of(content):
    return " ".join(block["text"] for block in content if "text" in block)


class Pihost:
    """One `pihost serve` child process, spoken to in JSON-RPC 2.0 lines."""

    def __init__(self, binary, cwd):
        self.process = subprocess.Popen(
            [binary, "serve", "--cwd", cwd],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.next_id = 1

    def call(self, method, params):
        request_id = self.next_id
        self.next_id += 1
        line = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        self.process.stdin.write(json.dumps(line) + "\n")
        self.process.stdin.flush()
        while True:
            message = json.loads(self.process.stdout.readline())
            if "method" in message:
                # A notification or a host request; this agent declared none,
                # so only notifications (toolUpdate, extensionError) arrive.
                continue
            if message.get("id") == request_id:
                if "error" in message:
                    raise RuntimeError(message["error"]["message"])
                return message["result"]

    def close(self):
        self.call("shutdown", {})
        self.process.stdin.close()
        self.process.wait(timeout=30)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    project_root = os.path.dirname(here)
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(project_root, "target", "debug", "pihost")
    pihost = Pihost(binary, project_root)
    pihost.call(
        "initialize",
        {"agentDir": os.path.join(project_root, "extensions-examples", ".no-agent-dir"), "capabilities": {}},
    )
    report = pihost.call("load", {"paths": ["extensions-examples"]})
    print("loaded %d extensions, %d failed to load" % (len(report["extensions"]), len(report["errors"])))
    pihost.call("bind", {"state": {}})
    for turn, (tool, args) in enumerate(SCRIPT):
        call_id = "call-%d" % (turn + 1)
        print("model asks for %s %s" % (tool, compact(args)))
        try:
            decision = pihost.call(
                "emit", {"event": {"type": "tool_call", "toolName": tool, "toolCallId": call_id, "input": args}}
            ).get("result")
        except RuntimeError as error:
            print("  blocked: %s" % error)
            continue
        if decision and decision.get("block"):
            print("  blocked: %s" % decision.get("reason", ""))
            continue
        content = builtin_tool(tool, args)
        details = None
        if content is None:
            result = pihost.call("executeTool", {"name": tool, "toolCallId": call_id, "args": args}).get("result", {})
            content = result.get("content", [])
            details = result.get("details")
        print("  result: %s" % text_of(content))
        event = {"type": "tool_result", "toolName": tool, "toolCallId": call_id, "input": args, "content": content, "isError": False}
        if details is not None:
            event["details"] = details
        patch = pihost.call("emit", {"event": event}).get("result")
        if patch:
            print("  rewritten by extensions: details %s" % compact(patch.get("details")))
    pihost.close()


if __name__ == "__main__":
    main()
