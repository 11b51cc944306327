"""Shared machinery for fuzzing the line-based readers.

Each reader is driven exactly as the app drives it: `spec.refs(path)` then
`spec.open(ref).poll(final=True)`, and every turn's `parts` are decoded (lazy
readers only parse content then). A session is compared through `signature()`,
a plain tuple of everything a user could see. Every session read is also
checked for what its consumers rely on (`check_consumable`): times inside the
calendar, durations finite, text fields text.

Values drawn for fields include the numbers that broke consumers before
(issue 18: 10): 1e20, -1e20, 20-digit integers and infinity, which `encode`
writes as the JSON number `1e400` (what JSON has for it).
"""

from __future__ import annotations

import importlib
import json
import math
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from pivotal.model import Part, Session, SessionRef, Turn
from pivotal.readers.base import FormatSpec, SessionReader

FIXTURES = Path(__file__).parent / "fixtures"

FUZZ = os.environ.get("PIVOTAL_FUZZ") == "1"
EXAMPLES = int(os.environ.get("PIVOTAL_FUZZ_EXAMPLES") or (5000 if FUZZ else 60))
"""Examples per fuzz test: 60 in CI (the same ones every run), 5000 with PIVOTAL_FUZZ=1
(new ones every run); PIVOTAL_FUZZ_EXAMPLES=N sets any other count."""

FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not FUZZ,  # CI runs the same examples every time; PIVOTAL_FUZZ=1 explores
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class LineFormat:
    """One line-based format under test and real files its agent wrote."""

    module: str
    fixtures: tuple[str, ...]
    suffix: str
    json_lines: bool = True
    """True for JSONL: any non-JSON line is malformed and must be skipped."""
    first_line_decides: bool = False
    """The reader picks its mode from line 1, so garbage there is tested separately (xfail)."""

    @property
    def id(self) -> str:
        return self.module.rsplit(".", 1)[-1]

    def spec(self) -> FormatSpec:
        """The format's registry entry; skips (visibly) while the reader has not landed."""
        try:
            module = importlib.import_module(self.module)
        except ImportError as exc:
            pytest.skip(f"{self.module} has not landed yet ({exc})")
        return module.SPEC

    def lines(self, fixture: str | None = None) -> list[bytes]:
        data = (FIXTURES / (fixture or self.fixtures[0])).read_bytes()
        return data.splitlines()


LINE_FORMATS = [
    LineFormat(
        "pivotal.readers.claude_code",
        ("claude-short.jsonl", "claude-autocompact.jsonl"),
        ".jsonl",
    ),
    LineFormat("pivotal.readers.codex", ("codex-short.jsonl",), ".jsonl"),
    LineFormat(
        "pivotal.readers.gemini", ("gemini-short.jsonl",), ".jsonl", first_line_decides=True
    ),
    LineFormat(
        "pivotal.readers.generic", ("generic-openai.jsonl",), ".jsonl", first_line_decides=True
    ),
    LineFormat("pivotal.readers.aider", ("aider-short.chat.history.md",), ".md", json_lines=False),
]
JSON_FORMATS = [f for f in LINE_FORMATS if f.json_lines]
IDS = [f.id for f in LINE_FORMATS]
JSON_IDS = [f.id for f in JSON_FORMATS]


@contextmanager
def session_file(data: bytes, fmt: LineFormat) -> Iterator[Path]:
    """A temporary session file holding `data` (hypothesis cannot use tmp_path per example)."""
    with tempfile.TemporaryDirectory(prefix="pivotal-fuzz-") as folder:
        path = Path(folder) / f"session{fmt.suffix}"
        if fmt.id == "aider":
            path = Path(folder) / ".aider.chat.history.md"
        path.write_bytes(data)
        yield path


def refs_for(spec: FormatSpec, path: Path) -> list[SessionRef]:
    refs = spec.refs(path)
    return refs or [SessionRef(format=spec.name, path=path)]


def read(spec: FormatSpec, path: Path) -> list[Session]:
    """Batch-read every session in `path` and decode all content, as the app would."""
    sessions = []
    for ref in refs_for(spec, path):
        reader = spec.open(ref)
        try:
            reader.poll(final=True)
            materialize(reader)
        finally:
            reader.close()
        sessions.append(reader.session)
    return sessions


def materialize(reader: SessionReader) -> None:
    """Decode every turn's parts (lazy loaders run only then) and check what consumers need."""
    for turn in reader.session.turns:
        _ = turn.parts, turn.preview
    for branch in reader.session.branches:
        for turn in branch:
            _ = turn.parts
    check_consumable(reader.session)


def check_consumable(session: Session) -> None:
    """What every consumer (exports, scan, the replayer) relies on, whatever the input held.

    Times are None or inside the calendar (years 1-9999); durations are None or
    finite and not negative; exit codes are whole numbers; text is text.
    """
    from pivotal.readers.base import MAX_TIME, MIN_TIME

    for name in ("started", "ended"):
        value = getattr(session, name)
        assert value is None or MIN_TIME <= value <= MAX_TIME, (name, value)
    for name in ("id", "title", "cwd", "model"):
        value = getattr(session, name)
        assert value is None or isinstance(value, str), (name, value)
    turns = list(session.turns) + [t for branch in session.branches for t in branch]
    for turn in turns:
        stamp = turn.timestamp
        assert stamp is None or MIN_TIME <= stamp <= MAX_TIME, ("timestamp", stamp)
        assert isinstance(turn.preview, str)
        for part in turn.parts:
            assert isinstance(part.text, str), ("part text", part.text)
            tool = part.tool
            if tool is None:
                continue
            ms = tool.duration_ms
            assert ms is None or (math.isfinite(ms) and ms >= 0), ("duration_ms", ms)
            assert tool.exit_code is None or type(tool.exit_code) is int, tool.exit_code
            assert isinstance(tool.name, str), ("tool name", tool.name)
            assert tool.output is None or isinstance(tool.output, str), ("output", tool.output)


def part_signature(part: Part) -> tuple:
    tool = part.tool
    if tool is None:
        return (str(part.kind), part.text)
    return (
        str(part.kind),
        part.text,
        tool.call_id,
        tool.name,
        repr(tool.input),
        tool.output,
        tool.is_error,
        tool.exit_code,
        tool.status,
    )


def turn_signature(turn: Turn, *, lines: bool) -> tuple:
    base = (
        str(turn.role),
        int(turn.flags),
        turn.timestamp,
        turn.message_id,
        turn.preview,
        tuple(part_signature(p) for p in turn.parts),
    )
    return base + ((turn.source.line,) if lines else ())


def signature(sessions: list[Session], *, lines: bool = True) -> tuple:
    """Everything a user could see of `sessions` (line numbers optional)."""
    result = []
    for session in sessions:
        turns = tuple(turn_signature(t, lines=lines) for t in session.turns)
        branches = tuple(
            tuple(turn_signature(t, lines=lines) for t in branch) for branch in session.branches
        )
        skipped = tuple((s.line, s.reason) for s in session.skipped) if lines else ()
        result.append((session.id, session.cwd, turns, branches, skipped))
    return tuple(result)


def skipped_lines(sessions: list[Session]) -> set[int | None]:
    return {s.line for session in sessions for s in session.skipped}


# -- strategies ---------------------------------------------------------------

HOSTILE_NUMBERS = [1e20, -1e20, 12345678901234567890, 10**30, float("inf"), float("-inf"), -0.0]
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(HOSTILE_NUMBERS),
    st.text(max_size=40),
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)


def garbage_line(valid: list[bytes]) -> st.SearchStrategy[bytes]:
    """A line no JSON reader may accept: never blank, never valid JSON."""
    truncated = st.sampled_from([line for line in valid if len(line) > 2]).flatmap(
        lambda line: st.integers(1, len(line) - 1).map(lambda cut: line[:cut])
    )
    return st.one_of(
        st.binary(min_size=1, max_size=200).map(lambda b: b"#" + b.replace(b"\n", b" ")),
        truncated,
        st.sampled_from([b"{", b"}", b"{]", b'{"type":', b"\x00\x00", b"\xff\xfe{", b"NaN"]),
    )


def json_paths(value: object, prefix: tuple = ()) -> list[tuple]:
    """Every path into a decoded JSON value (the root included)."""
    paths = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            paths += json_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += json_paths(item, (*prefix, index))
    return paths


def mutate(record: object, path: tuple, new: object, delete: bool) -> object:
    """`record` with the value at `path` replaced by `new` (or removed)."""
    if not path:
        return new
    parent = record
    for key in path[:-1]:
        parent = parent[key]  # type: ignore[index]
    last = path[-1]
    if delete and isinstance(parent, dict):
        del parent[last]
    else:
        parent[last] = new  # type: ignore[index]
    return record


def encode(value: object) -> bytes:
    """Compact JSON as agents write it; infinity becomes `1e400` (JSON has no Infinity)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("-Infinity", "-1e400").replace("Infinity", "1e400")
    return text.encode("utf-8", "surrogatepass")


# -- first records longer than the sniff head ------------------------------------------

SNIFF_HEAD = 64 * 1024
"""What pivotal reads of a file to tell its format (`pivotal.readers.HEAD_BYTES`)."""
FILLER = st.text(
    alphabet=st.one_of(
        st.sampled_from(list(' "\\/\n\t{}[]:,<>`é中🎉')), st.characters(codec="utf-8")
    ),
    min_size=1,
    max_size=24,
)
"""What a pasted log or an inlined prompt repeats: quotes, backslashes, escapes, non-ASCII
(so the head's cut falls inside an escape or a character as often as not)."""


def _text_leaves(record: object) -> list[tuple]:
    """Paths of the string values in `record` that are text (they hold a space), not an
    id, a type or a time."""
    leaves = []
    for path in json_paths(record):
        value = record
        for key in path:
            value = value[key]  # type: ignore[index]
        if isinstance(value, str) and " " in value:
            leaves.append(path)
    return leaves


def lengthened(data: st.DataObject, records: list[object]) -> tuple[list[object], int]:
    """A copy of `records` whose first record holding text has one of its texts made longer
    than the sniff head (the cut lands anywhere in it, and sometimes past it), and the
    index of that record. A first prompt with a pasted log, an agent's inlined
    instructions, a long queued prompt are all this."""
    out = json.loads(json.dumps(records))
    index = next(n for n, record in enumerate(out) if _text_leaves(record))
    path = data.draw(st.sampled_from(_text_leaves(out[index])), label="text")
    piece = data.draw(FILLER, label="filler")
    size = data.draw(st.integers(SNIFF_HEAD - 2048, 3 * SNIFF_HEAD), label="size")
    repeats = size // max(len(piece.encode("utf-8", "surrogatepass")), 1) + 1
    if not path:  # the record is a text itself (a line of a Markdown log)
        out[index] += piece * repeats
        return out, index
    parent = out[index]
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] += piece * repeats
    return out, index
