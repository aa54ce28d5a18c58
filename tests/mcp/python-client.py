"""Drives `pihost mcp` with the official MCP Python SDK (`mcp` on PyPI).

A second real client beside tests/mcp/ts-client.mjs: the server is checked
against what the Python SDK sends and accepts. The fixture extensions in
extensions-examples/mcp-tools/ plus extensions-examples/hello-tool.ts are served; each
scenario prints `ok <scenario>` or `FAILED <scenario>: <expected vs got>`, and
the exit code is 1 when any failed.

    scripts/setup-mcp-python   # creates target/mcp-venv
    target/mcp-venv/bin/python tests/mcp/python-client.py <pihost binary>

The raw-* scenarios talk to the server over plain stdio (no SDK) to send what
an SDK never sends: malformed JSON, unknown methods, a request before
initialize. Every scenario is bounded by a 10 s timeout.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client

SCENARIO_SECONDS = 10
PROJECT = Path(__file__).resolve().parent.parent.parent
EXTENSIONS = [str(PROJECT / "extensions-examples/mcp-tools"), str(PROJECT / "extensions-examples/hello-tool.ts")]
RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="


class Mismatch(Exception):
    pass


def show(value: Any) -> str:
    try:
        text = json.dumps(value, default=repr)
    except Exception:  # noqa: BLE001
        text = repr(value)
    return text if len(text) <= 600 else text[:600] + "…"


def expect_equal(what: str, got: Any, expected: Any) -> None:
    if got != expected:
        raise Mismatch(f"{what}: expected {show(expected)}, got {show(got)}")


def expect(what: str, condition: Any, got: Any) -> None:
    if not condition:
        raise Mismatch(f"{what}; got {show(got)}")


def describe(error: BaseException) -> str:
    """An exception as `Type: message`, task-group wrappers unwrapped to their causes."""
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(inner) for inner in error.exceptions)
    return f"{type(error).__name__}: {error}"


def dump(model: Any) -> Any:
    """A pydantic model as it looks on the wire (camelCase, no unset fields)."""
    return model.model_dump(by_alias=True, exclude_none=True, mode="json")


def content(result: types.CallToolResult) -> list[Any]:
    return [dump(block) for block in result.content]


class DroppedResponses(logging.Handler):
    """Counts responses the SDK dropped because no request waits for them
    (logged at debug level): a response to a cancelled request shows up here."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "unknown/late request id" in message:
            self.records.append(message)


dropped = DroppedResponses()
_dispatcher_log = logging.getLogger("mcp.shared.jsonrpc_dispatcher")
_dispatcher_log.setLevel(logging.DEBUG)
_dispatcher_log.addHandler(dropped)
_dispatcher_log.propagate = False


class Runner:
    def __init__(self, binary: str, work: Path) -> None:
        self.binary = binary
        self.work = work
        self.cwd = work / "cwd"
        self.agent_dir = work / "agent"  # no ~/.pi/agent extensions leak in
        self.cwd.mkdir()
        self.agent_dir.mkdir()
        self.args = ["mcp", *EXTENSIONS, "--cwd", str(self.cwd)]
        self.env = {"PI_CODING_AGENT_DIR": str(self.agent_dir)}
        self.failures = 0
        self.stderr_files: list[Path] = []

    async def scenario(self, name: str, body: Any) -> None:
        try:
            with anyio.fail_after(SCENARIO_SECONDS):
                await body()
            print(f"ok {name}", flush=True)
        except Mismatch as error:
            self.failures += 1
            print(f"FAILED {name}: {str(error)}".replace("\n", "\\n"), flush=True)
        except TimeoutError:
            self.failures += 1
            print(f"FAILED {name}: no outcome within {SCENARIO_SECONDS} s", flush=True)
        except Exception as error:  # noqa: BLE001
            self.failures += 1
            print(f"FAILED {name}: threw {describe(error)}".replace("\n", "\\n"), flush=True)

    def errlog(self, label: str) -> Any:
        path = self.work / f"stderr-{label}.txt"
        self.stderr_files.append(path)
        return path.open("w")


class Seen:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.list_changed = 0
        self.elicitations: list[dict[str, Any]] = []
        self.exceptions: list[str] = []
        self.answers = "accept"

    async def on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.messages.append(dump(params))

    async def on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            self.exceptions.append(f"{type(message).__name__}: {message}")
        elif isinstance(message, types.ToolListChangedNotification):
            self.list_changed += 1

    async def on_elicit(self, _context: Any, params: Any) -> types.ElicitResult:
        request = dump(params)
        request.pop("_meta", None)
        self.elicitations.append(request)
        if self.answers != "accept":
            return types.ElicitResult(action=self.answers)
        props = (request.get("requestedSchema") or {}).get("properties") or {}
        if "confirmed" in props:
            return types.ElicitResult(action="accept", content={"confirmed": True})
        if "choice" in props:
            return types.ElicitResult(action="accept", content={"choice": "green"})
        if "value" in props:
            return types.ElicitResult(action="accept", content={"value": "Ada"})
        return types.ElicitResult(action="decline")


def confirm_schema(title: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"confirmed": {"type": "boolean", "title": title}},
        "required": ["confirmed"],
    }


async def wait_for(what: str, predicate: Any, seconds: float = 3.0) -> None:
    end = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > end:
            raise Mismatch(f"timed out after {seconds} s waiting for {what}")
        await anyio.sleep(0.02)


async def sdk_scenarios(run: Runner) -> None:
    seen = Seen()
    params = StdioServerParameters(command=run.binary, args=run.args, env=run.env, cwd=str(PROJECT))
    with run.errlog("elicitation") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(
                read,
                write,
                read_timeout_seconds=SCENARIO_SECONDS,
                elicitation_callback=seen.on_elicit,
                logging_callback=seen.on_log,
                message_handler=seen.on_message,
                client_info=types.Implementation(name="pihost-python-client", version="1.0.0"),
            ) as session:
                await run_sdk_scenarios(run, session, seen)


async def run_sdk_scenarios(run: Runner, session: ClientSession, seen: Seen) -> None:
    async def initialize() -> None:
        result = await session.initialize()
        expect_equal("protocolVersion", result.protocol_version, "2025-11-25")
        expect_equal("serverInfo.name", result.server_info.name, "pihost")
        caps = dump(result.capabilities)
        expect_equal("capabilities.tools", caps.get("tools"), {"listChanged": True})
        expect_equal("capabilities.logging", caps.get("logging"), {})

    await run.scenario("initialize", initialize)
    if session.initialize_result is None:
        return

    async def list_tools() -> None:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        wanted = {
            "greet": "Greet",
            "count_up": "Count up",
            "ask_user": "Ask user",
            "notify_levels": "Notify levels",
            "fail_always": "Fail always",
            "wait_for_abort": "Wait for abort",
            "show_pixel": "Show pixel",
            "add_tool": "Add tool",
            "retire_me": "Retire me",
            "retire_tool": "Retire tool",
        }
        for name, title in wanted.items():
            expect(f"tool {name} listed", name in tools, sorted(tools))
            expect_equal(f"{name}.title", tools[name].title, title)
            expect_equal(f"{name}.inputSchema.type", tools[name].input_schema.get("type"), "object")
        expect_equal(
            "greet.description",
            tools["greet"].description,
            "Greets someone by name, optionally several times or loudly.",
        )
        greet = tools["greet"].input_schema
        expect_equal("greet.inputSchema.properties.name", greet["properties"]["name"], {"type": "string", "description": "Who to greet"})
        expect_equal("greet.inputSchema.required", greet.get("required"), ["name"])
        expect_equal(
            "count_up.inputSchema.properties.to",
            tools["count_up"].input_schema["properties"]["to"],
            {"type": "integer", "minimum": 1, "maximum": 10, "description": "Last number"},
        )
        expect("added_tool not listed before add_tool runs", "added_tool" not in tools, sorted(tools))

    await run.scenario("list-tools", list_tools)

    async def call_text() -> None:
        result = await session.call_tool("greet", {"name": "MCP", "times": 2})
        expect_equal("content", content(result), [{"type": "text", "text": "Hello, MCP. Hello, MCP."}])
        expect_equal("isError", result.is_error, False)
        expect_equal("structuredContent (pi's result has none; details do not cross)", result.structured_content, None)

    await run.scenario("call-text", call_text)

    async def call_image() -> None:
        result = await session.call_tool("show_pixel", {})
        expect_equal(
            "content",
            content(result),
            [{"type": "text", "text": "one red pixel"}, {"type": "image", "data": RED_PIXEL_PNG, "mimeType": "image/png"}],
        )
        expect_equal("structuredContent", result.structured_content, {"width": 1, "height": 1})

    await run.scenario("call-image", call_image)

    async def progress() -> None:
        updates: list[tuple[float, float | None, str | None]] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            updates.append((value, total, message))

        result = await session.call_tool("count_up", {"to": 3}, progress_callback=on_progress)
        expect_equal(
            "progress notifications (progress, total, message)",
            updates,
            [(1, None, "step 1 of 3"), (2, None, "step 2 of 3"), (3, None, "step 3 of 3")],
        )
        expect_equal("content", content(result), [{"type": "text", "text": "counted to 3"}])
        expect_equal("structuredContent", result.structured_content, {"count": 3})

    await run.scenario("progress", progress)

    async def error_result() -> None:
        result = await session.call_tool("fail_always", {"reason": "boom: on purpose"})
        expect_equal("isError", result.is_error, True)
        expect_equal("content", content(result), [{"type": "text", "text": "boom: on purpose"}])

    await run.scenario("error-result", error_result)

    async def error_result_non_error() -> None:
        result = await session.call_tool("fail_always", {"reason": "bare string", "bare": True})
        expect_equal("isError", result.is_error, True)
        expect_equal("content (pi's String(thrown))", content(result), [{"type": "text", "text": "bare string"}])

    await run.scenario("error-result-non-error", error_result_non_error)

    async def validation_error() -> None:
        result = await session.call_tool("count_up", {"to": "many"})
        expect_equal("isError", result.is_error, True)
        blocks = content(result)
        expect_equal("content block count", len(blocks), 1)
        expect(
            'text starts with `Validation failed for tool "count_up"`',
            blocks[0].get("text", "").startswith('Validation failed for tool "count_up"'),
            blocks[0],
        )

    await run.scenario("validation-error", validation_error)

    async def unknown_tool() -> None:
        try:
            outcome: Any = await session.call_tool("no_such_tool", {})
        except MCPError as error:
            outcome = error
        expect("a JSON-RPC error, not a result", isinstance(outcome, MCPError), repr(outcome))
        expect_equal("error code", outcome.code, -32602)
        expect("message contains `Unknown tool`", "Unknown tool" in outcome.message, outcome.message)

    await run.scenario("unknown-tool", unknown_tool)

    async def notify() -> None:
        seen.messages.clear()
        result = await session.call_tool("notify_levels", {"text": "py"})
        expect_equal("content", content(result), [{"type": "text", "text": "sent 3 notifications"}])
        try:
            await wait_for("four notifications/message", lambda: len(seen.messages) >= 4, 2)
        except Mismatch:
            pass
        expect_equal(
            "notifications/message params",
            seen.messages,
            [
                {"level": "info", "logger": "console", "data": "notify_levels ran with py"},
                {"level": "info", "logger": "pihost", "data": "py (info)"},
                {"level": "warning", "logger": "pihost", "data": "py (warning)"},
                {"level": "error", "logger": "pihost", "data": "py (error)"},
            ],
        )

    await run.scenario("notify", notify)

    async def elicitation_accept() -> None:
        seen.answers = "accept"
        seen.elicitations.clear()
        result = await session.call_tool("ask_user", {"title": "Proceed?", "message": "This deletes nothing."})
        expect_equal("content", content(result), [{"type": "text", "text": "confirmed=true choice=green value=Ada"}])
        expect_equal("structuredContent", result.structured_content, {"confirmed": True, "choice": "green", "value": "Ada"})
        expect_equal("elicitation count", len(seen.elicitations), 3)
        expect_equal(
            "confirm request",
            seen.elicitations[0],
            {"mode": "form", "message": "Proceed?\n\nThis deletes nothing.", "requestedSchema": confirm_schema("Proceed?")},
        )
        select, text_input = seen.elicitations[1], seen.elicitations[2]
        expect_equal("select message", select.get("message"), "Pick a colour")
        choice = select["requestedSchema"]["properties"]["choice"]
        expect_equal("select choice (type, enum)", (choice.get("type"), choice.get("enum")), ("string", ["red", "green", "blue"]))
        expect_equal("input message", text_input.get("message"), "Your name")
        expect_equal("input value.type", text_input["requestedSchema"]["properties"]["value"].get("type"), "string")

    await run.scenario("elicitation-accept", elicitation_accept)

    for action in ("decline", "cancel"):

        async def elicitation_refused(action: str = action) -> None:
            seen.answers = action
            seen.elicitations.clear()
            try:
                result = await session.call_tool("ask_user", {"message": "Really?"})
            finally:
                seen.answers = "accept"
            expect_equal("content", content(result), [{"type": "text", "text": "confirmed=false choice=(none) value=(none)"}])
            expect_equal("structuredContent", result.structured_content, {"confirmed": False, "choice": None, "value": None})
            expect_equal("elicitation count", len(seen.elicitations), 3)
            expect_equal("confirm message", seen.elicitations[0].get("message"), "Proceed?\n\nReally?")

        await run.scenario(f"elicitation-{action}", elicitation_refused)

    async def cancellation() -> None:
        marker = run.work / "aborted-py.txt"
        marker.unlink(missing_ok=True)
        dropped_before = len(dropped.records)
        started = anyio.Event()

        async def on_progress(_value: float, _total: float | None, _message: str | None) -> None:
            started.set()

        outcome: list[Any] = []
        async with anyio.create_task_group() as group:

            async def call() -> None:
                outcome.append(
                    await session.call_tool(
                        "wait_for_abort", {"marker": str(marker), "limitMs": 8000}, progress_callback=on_progress
                    )
                )

            group.start_soon(call)
            with anyio.move_on_after(1.5):
                await started.wait()
            group.cancel_scope.cancel()  # the SDK sends notifications/cancelled for the request
        expect_equal("result of the cancelled call", [dump(r) for r in outcome], [])
        # writeFileSync creates the file before it writes: wait for its text, not for it to exist.
        await wait_for(f"marker file {marker}", lambda: marker.exists() and marker.read_text() != "", 5)
        expect_equal("marker content", marker.read_text(), "aborted")
        await anyio.sleep(0.5)
        expect_equal("responses sent for the cancelled request", dropped.records[dropped_before:], [])
        after = await session.call_tool("greet", {"name": "again"})
        expect_equal("a call after the cancel", content(after), [{"type": "text", "text": "Hello, again."}])

    await run.scenario("cancellation", cancellation)

    async def list_changed_register() -> None:
        before = seen.list_changed
        result = await session.call_tool("add_tool", {})
        expect_equal("content", content(result), [{"type": "text", "text": "registered added_tool"}])
        await wait_for("notifications/tools/list_changed", lambda: seen.list_changed > before)
        names = [tool.name for tool in (await session.list_tools()).tools]
        expect("added_tool listed", "added_tool" in names, names)
        ran = await session.call_tool("added_tool", {})
        expect_equal("added_tool result", content(ran), [{"type": "text", "text": "added tool ran"}])

    await run.scenario("list-changed-register", list_changed_register)

    async def list_changed_set_active() -> None:
        before = seen.list_changed
        result = await session.call_tool("retire_tool", {})
        expect_equal("isError", result.is_error, False)
        await wait_for("notifications/tools/list_changed", lambda: seen.list_changed > before)
        names = [tool.name for tool in (await session.list_tools()).tools]
        expect("retire_me no longer listed", "retire_me" not in names, names)
        missing = [n for n in ("greet", "count_up", "added_tool", "retire_tool") if n not in names]
        expect_equal("active tools missing after setActiveTools(getActiveTools() minus retire_me)", missing, [])

    await run.scenario("list-changed-set-active", list_changed_set_active)

    async def no_stray_output() -> None:
        expect_equal("transport errors (non-JSON-RPC lines on stdout, …)", seen.exceptions, [])

    await run.scenario("no-stray-output", no_stray_output)


async def headless_scenario(run: Runner) -> None:
    async def headless() -> None:
        seen = Seen()
        params = StdioServerParameters(command=run.binary, args=run.args, env=run.env, cwd=str(PROJECT))
        with run.errlog("headless") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                # No elicitation_callback: the SDK declares no elicitation capability.
                async with ClientSession(read, write, read_timeout_seconds=SCENARIO_SECONDS, message_handler=seen.on_message) as session:
                    init = await session.initialize()
                    expect_equal("serverInfo.name", init.server_info.name, "pihost")
                    result = await session.call_tool("ask_user", {"message": "Really?"})
                    expect_equal("content", content(result), [{"type": "text", "text": "confirmed=false choice=(none) value=(none)"}])
                    expect_equal("structuredContent", result.structured_content, {"confirmed": False, "choice": None, "value": None})
                    expect_equal("transport errors", seen.exceptions, [])

    await run.scenario("headless-dialogs", headless)


class RawServer:
    """The server over plain pipes: JSON lines written and read by hand."""

    def __init__(self, run: Runner, label: str) -> None:
        self.errlog = run.errlog(label)
        self.process = subprocess.Popen(
            [run.binary, *run.args],
            cwd=PROJECT,
            env={**os.environ, **run.env},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errlog,
        )
        self.lines: list[Any] = []
        self.bad_lines: list[str] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError:
                with self.lock:
                    self.bad_lines.append(line)
                continue
            with self.lock:
                if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
                    self.bad_lines.append(line)
                self.lines.append(message)

    def send(self, value: Any) -> None:
        assert self.process.stdin is not None
        line = value if isinstance(value, str) else json.dumps(value)
        self.process.stdin.write((line + "\n").encode())
        self.process.stdin.flush()

    def find(self, predicate: Any) -> Any:
        with self.lock:
            return next((m for m in self.lines if isinstance(m, dict) and predicate(m)), None)

    async def response(self, request_id: Any) -> dict[str, Any]:
        def match(m: dict[str, Any]) -> bool:
            return "id" in m and m["id"] == request_id and ("result" in m or "error" in m)

        await wait_for(f"the response with id {request_id!r}", lambda: self.find(match) is not None, 5)
        return self.find(match)

    async def request(self, request_id: Any, method: str, params: Any = None) -> dict[str, Any]:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return await self.response(request_id)

    async def initialize(self, version: str = "2025-11-25") -> dict[str, Any]:
        reply = await self.request(
            f"init-{version}",
            "initialize",
            {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def close(self) -> None:
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=3)
        except Exception:  # noqa: BLE001
            self.process.kill()
            self.process.wait()
        finally:
            self.errlog.close()


async def raw_scenarios(run: Runner) -> None:
    async def before_initialize() -> None:
        raw = RawServer(run, "raw-before-init")
        try:
            early = await raw.request(1, "tools/list")
            expect("an error response to tools/list before initialize", "error" in early, early)
            expect("code -32600 or -32002", early["error"].get("code") in (-32600, -32002), early["error"])
            init = await raw.initialize()
            expect("initialize afterwards succeeds", "result" in init, init)
            listed = await raw.request(2, "tools/list")
            expect("tools/list then works", isinstance(listed.get("result", {}).get("tools"), list), listed)
            expect_equal("lines on stdout that are not JSON-RPC", raw.bad_lines, [])
        finally:
            raw.close()

    await run.scenario("raw-before-initialize", before_initialize)

    async def bad_input() -> None:
        raw = RawServer(run, "raw-bad-input")
        try:
            await raw.initialize()
            raw.send("{this is not json")
            await wait_for("a -32700 response", lambda: raw.find(lambda m: (m.get("error") or {}).get("code") == -32700), 5)
            parse = raw.find(lambda m: (m.get("error") or {}).get("code") == -32700)
            expect_equal("parse error id", parse.get("id", "(missing)"), None)
            unknown = await raw.request(7, "no/such/method", {})
            expect_equal("unknown method error code", (unknown.get("error") or {}).get("code"), -32601)
            ping = await raw.request(8, "ping")
            expect_equal("ping still answered", ping.get("result"), {})
            call = await raw.request(9, "tools/call", {"name": "notify_levels", "arguments": {"text": "raw"}})
            expect_equal("a call still works", (call.get("result") or {}).get("content"), [{"type": "text", "text": "sent 3 notifications"}])
            expect_equal("lines on stdout that are not JSON-RPC", raw.bad_lines, [])
            await wait_for(
                "the tool's console.log on stderr",
                lambda: "notify_levels ran with raw" in Path(raw.errlog.name).read_text(),
                2,
            )
        finally:
            raw.close()

    await run.scenario("raw-bad-input", bad_input)

    async def cancel_by_hand() -> None:
        raw = RawServer(run, "raw-cancel")
        marker = run.work / "aborted-raw.txt"
        try:
            await raw.initialize()
            raw.send(
                {
                    "jsonrpc": "2.0",
                    "id": 40,
                    "method": "tools/call",
                    "params": {"name": "wait_for_abort", "arguments": {"marker": str(marker)}, "_meta": {"progressToken": "p40"}},
                }
            )
            await wait_for(
                "the progress `waiting`",
                lambda: raw.find(lambda m: m.get("method") == "notifications/progress" and m["params"].get("progressToken") == "p40"),
            )
            progress = raw.find(lambda m: m.get("method") == "notifications/progress")
            expect_equal(
                "progress params", progress["params"], {"progressToken": "p40", "progress": 1, "message": "waiting"}
            )
            raw.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 40, "reason": "test"}})
            # writeFileSync creates the file before it writes: wait for its text, not for it to exist.
            await wait_for(f"marker file {marker}", lambda: marker.exists() and marker.read_text() != "", 5)
            expect_equal("marker content", marker.read_text(), "aborted")
            ping = await raw.request(41, "ping")
            expect_equal("ping after the cancel", ping.get("result"), {})
            await anyio.sleep(0.3)
            expect_equal("responses to the cancelled request", raw.find(lambda m: m.get("id") == 40), None)
        finally:
            raw.close()

    await run.scenario("raw-cancel", cancel_by_hand)

    for version in ("2025-11-25", "2025-06-18", "2025-03-26"):

        async def protocol(version: str = version) -> None:
            raw = RawServer(run, f"raw-{version}")
            try:
                init = await raw.initialize(version)
                expect_equal("protocolVersion in the answer", (init.get("result") or {}).get("protocolVersion"), version)
                listed = await raw.request(2, "tools/list")
                names = [t.get("name") for t in (listed.get("result") or {}).get("tools", [])]
                expect("tools/list works", "greet" in names, listed)
            finally:
                raw.close()

        await run.scenario(f"raw-protocol-{version}", protocol)


async def main() -> int:
    if len(sys.argv) != 2:
        print("usage: python tests/mcp/python-client.py <pihost binary>", file=sys.stderr)
        return 2
    binary = str(Path(sys.argv[1]).resolve())
    work = Path(tempfile.mkdtemp(prefix="pihost-mcp-py-"))
    run = Runner(binary, work)
    try:
        try:
            await sdk_scenarios(run)
        except Exception as error:  # noqa: BLE001 - the connection itself failed
            run.failures += 1
            print(f"FAILED sdk-connection: threw {describe(error)}".replace("\n", "\\n"), flush=True)
        await headless_scenario(run)
        await raw_scenarios(run)
        if run.failures and os.environ.get("PIHOST_MCP_SHOW_STDERR"):
            for path in run.stderr_files:
                print(f"--- server stderr ({path.name}) ---\n{path.read_text()[-4000:]}", file=sys.stderr)
        elif run.failures:
            print("python-client: set PIHOST_MCP_SHOW_STDERR=1 to see the servers' stderr", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
