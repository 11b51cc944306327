"""Big synthetic sessions in the newer agents' own layouts, for `bench_huge.py --readers`.

`../shared/tools/gen_session.py` writes Claude Code, opencode and Codex only. This
module writes the same kind of session (a person's prompt, the agent's reasoning and
text, a shell command and its output, ~3 % of outputs 50-500 KB, ~2 % of prompts
empty) as Kimi (kimi-cli, and Kimi Code: `kimi-code`), Mistral Vibe, Kilo, Cline,
Continue and Qwen store it, each in a home of its own, streamed to disk so a 1 GB
session costs the generator no memory.
The shapes are the real clients' (`../shared/realclients`), filled with made-up text.

`escapes` chooses what the tool outputs hold:

* `none`: plain text;
* `json`: colour escapes (SGR around words, as `ls --color` or a test runner print
  them), written as JSON escapes (`\\u001b`), as every client writes them;
* `raw`: the same escapes written as raw ESC bytes inside the JSON strings (not
  valid JSON: a damaged or hand-made file). Issue 34's Continue session was of this
  kind: its whole-document repair needed 35 times the file.
"""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

FORMATS = ("kimi", "vibe", "kilo", "cline", "continue", "qwen", "kimi-code")
ESCAPES = ("none", "json", "raw")
CWD = "/home/dev/work/huge"
T0 = 1_796_000_000_000  # ms
KILO_DB = (
    Path(__file__).resolve().parents[1] / "tests/fixtures/realclients/kilo-short/.local/share/kilo"
)
"""A database Kilo wrote, kept with the tests: its schema is copied (not ../shared: the
repository's tests must run on a machine without it)."""

WORDS = (
    "the a to of and in is it that for this we should file function test error value "
    "return call update fix config module import class method request response parse "
    "line index cache render widget session message user tool result output input path"
).split()
COLOURS = ("\x1b[32m", "\x1b[1;31m", "\x1b[01;34m", "\x1b[33m", "\x1b[2m", "\x1b[38;5;208m")


@dataclass
class Round:
    """One exchange: the person's prompt, the agent's reply and one shell command."""

    n: int
    prompt: str
    thinking: str
    text: str
    command: str
    output: str
    exit_code: int
    final: str

    @property
    def call_id(self) -> str:
        return f"call_{self.n:08d}"

    def ms(self, step: int) -> int:
        return T0 + self.n * 10_000 + step * 1_000


def rounds(seed: int, colour: bool) -> Iterator[Round]:
    """An endless, deterministic stream of rounds."""
    rng = random.Random(seed)

    def words(low: int, high: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, high)))

    def output_line() -> str:
        if not colour:
            return words(4, 14)
        return " ".join(
            f"{rng.choice(COLOURS)}{rng.choice(WORDS)}\x1b[0m" if rng.random() < 0.6 else w
            for w in words(4, 14).split()
        )

    n = 0
    while True:
        n += 1
        big = rng.random() < 0.03
        lines = rng.randint(800, 8000) if big else rng.randint(8, 60)
        failed = rng.random() < 0.1
        yield Round(
            n=n,
            prompt="" if rng.random() < 0.02 else words(5, 40),
            thinking=words(10, 60),
            text=words(5, 50),
            command=f"pytest tests/test_{rng.choice(WORDS)}.py -q",
            output="\n".join(output_line() for _ in range(lines)),
            exit_code=1 if failed else 0,
            final=words(10, 80),
        )


def dumps(value: object, raw: bool, indent: int | None = None) -> str:
    """JSON as the clients write it; `raw` leaves ESC bytes unescaped (not valid JSON)."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return text.replace("\\u001b", "\x1b") if raw else text


HOLE = "@items@"


def document_around(doc: dict) -> tuple[str, str]:
    """A document written with `indent=2` as its writer does, cut where its list's items go."""
    head, tail = json.dumps(doc, indent=2).split(json.dumps(HOLE))
    return head + "[", "\n  ]" + tail + "\n"


class Sink:
    """A file written in pieces, counting its bytes."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.handle = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        self.size = 0

    def write(self, text: str) -> None:
        self.size += len(text.encode("utf-8"))
        self.handle.write(text)

    def close(self) -> None:
        self.handle.close()


Writer = Callable[[Path, Iterator[Round], int, bool], Path]


def write_continue(home: Path, stream: Iterator[Round], target: int, raw: bool) -> Path:
    sid = "0b6e2d4a-1111-4c8e-9f00-000000000001"
    folder = home / ".continue" / "sessions"
    sink = Sink(folder / f"{sid}.json")
    doc = {
        "sessionId": sid,
        "title": "Huge session",
        "workspaceDirectory": CWD,
        "history": HOLE,
        "usage": {"totalCost": 0},
    }
    head, tail = document_around(doc)
    sink.write(head)
    first = True
    for r in stream:
        call = {
            "id": r.call_id,
            "type": "function",
            "function": {"name": "Bash", "arguments": json.dumps({"command": r.command})},
        }
        output = r.output if not r.exit_code else f"Error (exit code {r.exit_code}): {r.output}"
        items = [
            {"message": {"role": "user", "content": r.prompt}, "contextItems": []},
            {
                "message": {"role": "assistant", "content": r.text, "toolCalls": [call]},
                "contextItems": [],
                "reasoning": {"active": False, "text": r.thinking, "startAt": r.ms(1)},
                "toolCallStates": [
                    {
                        "toolCallId": r.call_id,
                        "toolCall": call,
                        "status": "errored" if r.exit_code else "done",
                        "parsedArgs": {"command": r.command},
                        "output": [{"content": output, "name": "Tool Result"}],
                    }
                ],
            },
            {"message": {"role": "assistant", "content": r.final}, "contextItems": []},
        ]
        for item in items:
            sink.write(
                ("\n    " if first else ",\n    ") + dumps(item, raw, 2).replace("\n", "\n    ")
            )
            first = False
        if sink.size >= target:
            break
    sink.write(tail)
    sink.close()
    index = [{"sessionId": sid, "title": "Huge session", "dateCreated": str(T0)}]
    (folder / "sessions.json").write_text(json.dumps(index, indent=2))
    return folder / f"{sid}.json"


def write_cline(home: Path, stream: Iterator[Round], target: int, raw: bool) -> Path:
    sid = "1796000000000_huge1"
    folder = home / ".cline" / "data" / "sessions" / sid
    manifest = {
        "version": 1,
        "session_id": sid,
        "source": "cli",
        "started_at": "2026-12-01T08:00:00.000Z",
        "status": "completed",
        "model": "mock-model",
        "cwd": CWD,
        "workspace_root": CWD,
        "prompt": "Huge session",
        "metadata": {"title": "Huge session"},
    }
    folder.mkdir(parents=True)
    (folder / f"{sid}.json").write_text(json.dumps(manifest, indent=2))
    sink = Sink(folder / f"{sid}.messages.json")
    head, tail = document_around(
        {"version": 1, "agent": "lead", "sessionId": sid, "messages": HOLE}
    )
    sink.write(head)
    first = True
    for r in stream:
        result = {"query": r.command, "result": r.output, "success": not r.exit_code}
        if r.exit_code:
            result["error"] = f"Command exited with code {r.exit_code}"
        messages = [
            {
                "id": f"u{r.n}",
                "role": "user",
                "content": [
                    {"type": "text", "text": f'<user_input mode="act">{r.prompt}</user_input>'}
                ],
                "ts": r.ms(0),
            },
            {
                "id": f"a{r.n}",
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": r.thinking},
                    {"type": "text", "text": r.text},
                    {
                        "type": "tool_use",
                        "id": r.call_id,
                        "name": "run_commands",
                        "input": {"commands": [r.command]},
                    },
                ],
                "ts": r.ms(1),
                "metrics": {"inputTokens": 1000, "outputTokens": 50},
            },
            {
                "id": f"t{r.n}",
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": r.call_id,
                        "name": "run_commands",
                        "content": [result],
                    }
                ],
                "ts": r.ms(2),
            },
            {
                "id": f"f{r.n}",
                "role": "assistant",
                "content": [{"type": "text", "text": r.final}],
                "ts": r.ms(3),
            },
        ]
        for message in messages:
            sink.write(
                ("\n    " if first else ",\n    ") + dumps(message, raw, 2).replace("\n", "\n    ")
            )
            first = False
        if sink.size >= target:
            break
    sink.write(tail)
    sink.close()
    return folder


def write_kimi(home: Path, stream: Iterator[Round], target: int, raw: bool) -> Path:
    digest = hashlib.md5(CWD.encode(), usedforsecurity=False).hexdigest()
    folder = home / ".kimi" / "sessions" / digest / "7d5c057b-0000-4d91-b0ef-000000000001"
    (home / ".kimi").mkdir(parents=True)
    (home / ".kimi" / "kimi.json").write_text(json.dumps({"work_dirs": [{"path": CWD}]}))
    sink = Sink(folder / "wire.jsonl")
    (folder / "state.json").write_text(json.dumps({"version": 1, "custom_title": "Huge"}))
    (folder / "context.jsonl").write_text('{"role": "_checkpoint", "id": 0}\n')
    sink.write(json.dumps({"type": "metadata", "protocol_version": "1.10"}) + "\n")
    for r in stream:
        message = (
            f"Command failed with exit code: {r.exit_code}."
            if r.exit_code
            else "Command executed successfully."
        )
        call = {"name": "Shell", "arguments": json.dumps({"command": r.command})}
        usage = {"token_usage": {"input_other": 1000, "output": 50}, "message_id": f"m{r.n}"}
        events = [
            ("TurnBegin", {"user_input": r.prompt}),
            ("StepBegin", {"n": 1}),
            ("ContentPart", {"type": "think", "think": r.thinking, "encrypted": None}),
            ("ContentPart", {"type": "text", "text": r.text}),
            ("ToolCall", {"type": "function", "id": r.call_id, "function": call}),
            ("StatusUpdate", usage),
            (
                "ToolResult",
                {
                    "tool_call_id": r.call_id,
                    "return_value": {
                        "is_error": bool(r.exit_code),
                        "output": r.output,
                        "message": message,
                        "display": [],
                    },
                },
            ),
            ("StepBegin", {"n": 2}),
            ("ContentPart", {"type": "text", "text": r.final}),
        ]
        for step, (kind, payload) in enumerate(events):
            record = {"timestamp": r.ms(step) / 1000, "message": {"type": kind, "payload": payload}}
            sink.write(dumps(record, raw) + "\n")
        if sink.size >= target:
            break
    sink.close()
    return folder


def write_kimi_code(home: Path, stream: Iterator[Round], target: int, raw: bool) -> Path:
    """Kimi Code's journal: flat records, each step streamed as loop events."""
    folder = home / ".kimi-code" / "sessions" / "wd_huge_0a1b2c3d4e5f" / "session_huge1"
    (folder / "agents" / "main").mkdir(parents=True)
    state = {"createdAt": T0, "title": "Huge session", "cwd": CWD, "agents": {}, "custom": {}}
    (folder / "state.json").write_text(json.dumps(state, indent=2))
    sink = Sink(folder / "agents" / "main" / "wire.jsonl")
    sink.write(json.dumps({"type": "metadata", "protocol_version": "1.4", "created_at": T0}))
    sink.write("\n")
    usage = {"inputOther": 1000, "output": 50, "inputCacheRead": 0, "inputCacheCreation": 0}
    for r in stream:
        text = [{"type": "text", "text": r.prompt}]
        message = {"role": "user", "content": text, "toolCalls": [], "origin": {"kind": "user"}}
        output = r.output + (
            f"\nCommand failed with exit code: {r.exit_code}." if r.exit_code else ""
        )
        first, second = f"step-{r.n}a", f"step-{r.n}b"
        events = [
            {"type": "step.begin", "uuid": first},
            {
                "type": "content.part",
                "stepUuid": first,
                "part": {"type": "think", "think": r.thinking},
            },
            {"type": "content.part", "stepUuid": first, "part": {"type": "text", "text": r.text}},
            {
                "type": "tool.call",
                "stepUuid": first,
                "toolCallId": r.call_id,
                "name": "Bash",
                "args": {"command": r.command},
            },
            {
                "type": "tool.result",
                "toolCallId": r.call_id,
                "result": {"output": output, "isError": bool(r.exit_code)},
            },
            {"type": "step.end", "uuid": first, "usage": usage, "finishReason": "tool_use"},
            {"type": "step.begin", "uuid": second},
            {"type": "content.part", "stepUuid": second, "part": {"type": "text", "text": r.final}},
            {"type": "step.end", "uuid": second, "usage": usage, "finishReason": "end_turn"},
        ]
        records = [
            {"type": "turn.prompt", "input": text},
            {"type": "context.append_message", "message": message, "agentId": "main"},
            {"type": "llm.request", "kind": "loop", "model": "mock-model"},
            *({"type": "context.append_loop_event", "event": e, "agentId": "main"} for e in events),
            {"type": "turn.ended", "turnId": r.n, "reason": "completed"},
        ]
        for step, record in enumerate(records):
            sink.write(dumps({**record, "time": r.ms(step)}, raw) + "\n")
        if sink.size >= target:
            break
    sink.close()
    return folder


def write_qwen(home: Path, stream: Iterator[Round], target: int, raw: bool) -> Path:
    sid = "02b5d7da-0000-4cd2-94a7-000000000001"
    folder = home / ".qwen" / "projects" / "-home-dev-work-huge" / "chats" / f"{sid}.jsonl"
    sink = Sink(folder)
    parent: str | None = None
    for r in stream:
        shell = (
            f"Command: {r.command}\nDirectory: (root)\nOutput: {r.output}\nError: (none)\n"
            f"Exit Code: {r.exit_code}\nSignal: 0\nProcess Group PGID: 4242"
        )
        usage = {"promptTokenCount": 1000, "candidatesTokenCount": 50, "totalTokenCount": 1050}
        call = {"id": r.call_id, "name": "run_shell_command", "args": {"command": r.command}}
        records = [
            ("user", {"message": {"role": "user", "parts": [{"text": r.prompt}]}}),
            (
                "assistant",
                {
                    "model": "mock-model",
                    "message": {
                        "role": "model",
                        "parts": [
                            {"text": r.thinking, "thought": True},
                            {"text": r.text},
                            {"functionCall": call},
                        ],
                    },
                    "usageMetadata": usage,
                },
            ),
            (
                "tool_result",
                {
                    "message": {
                        "role": "user",
                        "parts": [
                            {
                                "functionResponse": {
                                    "id": r.call_id,
                                    "name": "run_shell_command",
                                    "response": {"output": shell},
                                }
                            }
                        ],
                    },
                    "toolCallResult": {
                        "callId": r.call_id,
                        "status": "success",
                        "resultDisplay": r.output,
                    },
                },
            ),
            (
                "assistant",
                {
                    "model": "mock-model",
                    "message": {"role": "model", "parts": [{"text": r.final}]},
                    "usageMetadata": usage,
                },
            ),
        ]
        for step, (kind, body) in enumerate(records):
            uuid = f"{r.n:08d}-0000-4000-8000-{step:012d}"
            record = {
                "uuid": uuid,
                "parentUuid": parent,
                "sessionId": sid,
                "timestamp": f"2026-12-01T08:00:00.{step:03d}Z",
                "type": kind,
                "cwd": CWD,
                "version": "0.15.10",
                **body,
            }
            sink.write(dumps(record, raw) + "\n")
            parent = uuid
        if sink.size >= target:
            break
    sink.close()
    return folder


def write_vibe(home: Path, stream: Iterator[Round], target: int, raw: bool) -> Path:
    sid = "98c38544-0000-0bf9-0e5d-000000000001"
    folder = home / ".vibe" / "logs" / "session" / "unified" / sid
    (folder / "chunks").mkdir(parents=True)
    meta = {
        "session_id": sid,
        "start_time": "2026-12-01T08:00:00+00:00",
        "environment": {"working_directory": CWD},
        "title": "Huge session",
        "config": {"active_model": "mock", "model_name": "mock-model"},
    }
    (folder / "meta.json").write_text(json.dumps(meta, indent=2))
    digests: list[str] = []
    pending: list[str] = []
    pending_size = total = 0

    def flush() -> None:
        nonlocal pending_size, total
        data = ("[" + ",".join(pending) + "]").encode("utf-8")
        digest = hashlib.sha256(data).hexdigest()
        (folder / "chunks" / f"{digest}.json").write_bytes(data)
        digests.append(digest)
        total += len(data)
        pending.clear()
        pending_size = 0

    for r in stream:
        turn = f"turn-{r.n:08d}"
        user = f"user-{turn}-1"
        common = {"sessionId": sid, "turnId": turn, "generationStatus": "completed"}
        structured = {
            "command": r.command,
            "returncode": r.exit_code,
            "stdout": r.output,
            "stderr": "",
            "timed_out": False,
        }
        entries = [
            {
                **common,
                "type": "message",
                "id": user,
                "role": "user",
                "source": "turn_start",
                "content": [{"type": "text", "text": r.prompt}],
                "createdAt": r.ms(0),
            },
            {
                **common,
                "type": "reasoning",
                "id": f"reasoning-{r.n}a-0",
                "text": r.thinking,
                "inputEntryId": user,
                "createdAt": r.ms(1),
            },
            {
                **common,
                "type": "message",
                "id": f"assistant-{r.n}a",
                "role": "assistant",
                "source": "harness",
                "inputEntryId": user,
                "content": [{"type": "text", "text": r.text}],
                "createdAt": r.ms(1),
            },
            {
                **common,
                "type": "effect",
                "id": f"effect-{r.n}",
                "inputEntryId": user,
                "detail": {
                    "kind": "tool",
                    "toolName": "file_system.bash",
                    "input": {"command": r.command},
                },
                "state": {
                    "status": "completed",
                    "output": {
                        "type": "success",  # a command that exited non-zero too
                        "content": [],
                        "structured_content": structured,
                    },
                },
                "createdAt": r.ms(2),
            },
            {
                **common,
                "type": "message",
                "id": f"assistant-{r.n}b",
                "role": "assistant",
                "source": "harness",
                "inputEntryId": user,
                "content": [{"type": "text", "text": r.final}],
                "createdAt": r.ms(3),
            },
        ]
        for entry in entries:
            text = dumps(entry, raw)
            pending.append(text)
            pending_size += len(text)
        if pending_size >= 4_000_000:
            flush()
        if total + pending_size >= target:
            break
    if pending:
        flush()
    generation = "0000000000000001"
    manifest = {
        "generation": generation,
        "snapshot_sequence": 1,
        "checkpoint": {"chunks": []},
        "projection_state": {"chunks": digests},
        "session_id": sid,
    }
    manifest_text = json.dumps(manifest)
    (folder / "generations" / generation).mkdir(parents=True)
    (folder / "generations" / generation / "manifest.json").write_text(manifest_text)
    current = {
        "generation": generation,
        "manifest_sha256": hashlib.sha256(manifest_text.encode()).hexdigest(),
        "session_id": sid,
        "snapshot_sequence": 1,
        "store_format": "mistral.vibe.unified-session-store/v1",
        "store_format_minor": 9,
    }
    (folder / "CURRENT").write_text(json.dumps(current))
    return folder


def write_kilo(home: Path, stream: Iterator[Round], target: int, raw: bool) -> Path:
    folder = home / ".local" / "share" / "kilo"
    folder.mkdir(parents=True)
    path = folder / "kilo.db"
    source = sqlite3.connect(f"file:{KILO_DB / 'kilo.db'}?immutable=1", uri=True)
    schema = [
        sql
        for (sql,) in source.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")
        if not sql.startswith("CREATE TABLE sqlite_")
    ]
    source.close()
    db = sqlite3.connect(path)
    for sql in schema:
        db.execute(sql)
    sid = "ses_huge000000000000000000001"
    columns = {row[1] for row in db.execute("PRAGMA table_info(session)")}
    row = {
        "id": sid,
        "project_id": "global",
        "slug": "huge",
        "directory": CWD,
        "title": "Huge session",
        "version": "7.7.7",
        "time_created": T0,
        "time_updated": T0,
    }
    row = {k: v for k, v in row.items() if k in columns}
    db.execute(
        f"INSERT INTO session ({','.join(row)}) VALUES ({','.join('?' * len(row))})",
        list(row.values()),
    )
    size = 0
    for r in stream:
        user_id, agent_id, final_id = f"msg_{r.n:08d}u", f"msg_{r.n:08d}a", f"msg_{r.n:08d}f"
        agent = {
            "parentID": user_id,
            "role": "assistant",
            "modelID": "mock-model",
            "providerID": "mock",
            "path": {"cwd": CWD, "root": "/"},
            "tokens": {"input": 1000, "output": 50, "reasoning": 0, "cache": {"read": 0}},
            "time": {"created": r.ms(1), "completed": r.ms(2)},
        }
        messages = [
            (user_id, r.ms(0), {"role": "user", "time": {"created": r.ms(0)}}),
            (agent_id, r.ms(1), agent),
            (final_id, r.ms(3), {**agent, "time": {"created": r.ms(3)}}),
        ]
        state = {
            "status": "completed",
            "input": {"command": r.command},
            "output": r.output,
            "metadata": {"output": r.output, "exit": r.exit_code},
            "time": {"start": r.ms(1), "end": r.ms(2)},
        }
        parts = [
            (user_id, {"type": "text", "text": r.prompt}),
            (agent_id, {"type": "reasoning", "text": r.thinking}),
            (agent_id, {"type": "text", "text": r.text}),
            (agent_id, {"type": "tool", "tool": "bash", "callID": r.call_id, "state": state}),
            (final_id, {"type": "text", "text": r.final}),
        ]
        for ident, created, data in messages:
            text = dumps(data, raw)
            size += len(text)
            db.execute(
                "INSERT INTO message (id, session_id, time_created, time_updated, data)"
                " VALUES (?, ?, ?, ?, ?)",
                (ident, sid, created, created, text),
            )
        for number, (message, data) in enumerate(parts):
            text = dumps(data, raw)
            size += len(text)
            db.execute(
                "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (f"prt_{r.n:08d}{number}", message, sid, r.ms(1), r.ms(1), text),
            )
        if size >= target:
            break
    db.commit()
    db.close()
    return path


WRITERS: dict[str, Writer] = {
    "kimi": write_kimi,
    "vibe": write_vibe,
    "kilo": write_kilo,
    "cline": write_cline,
    "continue": write_continue,
    "qwen": write_qwen,
    "kimi-code": write_kimi_code,
}


def make_home(home: Path, fmt: str, target_bytes: int, escapes: str, seed: int = 1) -> Path:
    """Write one session of about `target_bytes` as `fmt` under `home`; the path to read."""
    stream = rounds(seed, colour=escapes != "none")
    return WRITERS[fmt](home, stream, target_bytes, escapes == "raw")


def session_bytes(path: Path) -> int:
    """The bytes of a session: its file, or every file of its folder."""
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
