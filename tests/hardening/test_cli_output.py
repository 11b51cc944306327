"""Every CLI output shows hostile session text as text: no escape reaches the terminal.

A real scenario with pivots (the seed dead-end essay) is written in every agent
format by the sample writers, with escape sequences, C1 controls, bidi and
zero-width characters and Rich-markup look-alikes injected into the agent's
text, reasoning, tool commands and tool output. `pivotal scan` (plain, --explain,
--json) and `pivotal sessions` run as real processes; their stdout and stderr may
carry printable text only (SGR colour allowed when colour is forced).
"""

from __future__ import annotations

import copy
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_sessions"

PAYLOAD = (
    "\x1b]0;pwned-title\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1b[H"
    "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\\x1bP1$r0m\x1b\\"
    "\x9b31m\x9d0;c1-title\x9c\u202eevil\u202c\u2066x\u2069zero\u200bwidth\ufeff"
    "[bold red]markup[/] [link=https://evil.example]l[/link]\x00\x08\x07\r"
    "\x1b[31mred\x1b[0m"
)
# What must never appear in output bytes: ESC not starting SGR, BEL, NUL, BS, CR, C1, bidi.
FORBIDDEN = re.compile(
    "\x1b(?!\\[[0-9;:]*m)|[\x00\x07\x08\r\x80-\x9f\u202a-\u202e\u2066-\u2069\u200b\ufeff]"
)
FORMATS = ["claude", "codex", "gemini", "opencode", "aider", "generic"]


def poison(text: str) -> str:
    return f"{PAYLOAD} {text} {PAYLOAD}" if text else text


def poisoned(value: object) -> object:
    if isinstance(value, str):
        return poison(value)
    if isinstance(value, dict):
        return {key: poisoned(item) for key, item in value.items()}
    if isinstance(value, list):
        return [poisoned(item) for item in value]
    return value


def hostile_scenario():  # type: ignore[no-untyped-def]
    """The seed dead-end scenario with hostile text wherever the agent or a tool writes."""
    from _gen.dsl import A, Compact, H
    from _gen.scenarios.seed_dead_end import SCENARIOS

    scenario = copy.deepcopy(SCENARIOS[0])
    scenario.cwd = f"{scenario.cwd}/\x1b]0;cwd-title\x07\u202eevil\x9b2J"
    for step in scenario.steps:
        if isinstance(step, A):
            step.text, step.reasoning = poison(step.text), poison(step.reasoning)
            for tool in step.tools:
                tool.input = poisoned(tool.input)
                tool.output = poison(tool.output)
        elif isinstance(step, H) and len(step.text) > 40:
            step.text = poison(step.text)  # prompts only: go-ons stay as typed
        elif isinstance(step, Compact):
            step.summary = poison(step.summary)
    return scenario


@cache
def written(fmt: str, root: str) -> Path:
    if str(SAMPLES) not in sys.path:
        sys.path.insert(0, str(SAMPLES))
    try:
        from _gen.writers import writer
    except ImportError as exc:  # pragma: no cover - the sample kit is part of the repo
        pytest.fail(f"sample writers unavailable: {exc}")
    out = Path(root) / fmt
    out.mkdir(parents=True)
    mod = writer(fmt)
    path = out / ("hostile" if fmt == "opencode" else f"hostile.{mod.EXT}")
    if fmt == "opencode":
        path.mkdir()
        path = path / "opencode.db"
    mod.write(hostile_scenario(), path)
    return path


def run(*args: str, colour: bool = False) -> tuple[str, str, int]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    env["COLUMNS"] = "120"
    if colour:
        env["FORCE_COLOR"] = "1"
    proc = subprocess.run(
        [sys.executable, "-m", "pivotal", *args], capture_output=True, env=env, timeout=120
    )
    decode = lambda b: b.decode("utf-8", "surrogateescape")  # noqa: E731
    return decode(proc.stdout), decode(proc.stderr), proc.returncode


def assert_inert(output: str) -> None:
    match = FORBIDDEN.search(output)
    if match is not None:
        start = match.start()
        context = output[max(0, start - 80) : start + 40]
        pytest.fail(f"raw {match.group()!r} at {start}: {context!r}")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("hostile"))


MSGSPEC_JSON = (
    "scan_command.py encodes --json with msgspec, which writes C1 controls (U+009B = 8-bit "
    "CSI) and bidi overrides raw; follow_scan.py uses json.dumps(ensure_ascii=True)"
)
JSON_XFAIL = pytest.mark.xfail(strict=True, reason=MSGSPEC_JSON)
SESSIONS_JSON = (
    "sessions_view.py --json: the title is cleaned but cwd is encoded raw by msgspec, "
    "so C1 controls and bidi overrides from the session's cwd reach the terminal"
)


def scan_params() -> list:
    params = []
    for fmt in FORMATS:
        for name, args in (("plain", ()), ("explain", ("--explain",)), ("json", ("--json",))):
            marks = [JSON_XFAIL] if name == "json" and fmt != "aider" else []
            params.append(pytest.param(fmt, args, id=f"{name}-{fmt}", marks=marks))
    return params


@pytest.mark.parametrize(("fmt", "args"), scan_params())
def test_scan_output_is_inert(fmt: str, args: tuple[str, ...], root: str) -> None:
    path = written(fmt, root)
    out, err, code = run("scan", *args, str(path))
    assert code in (0, 1, 2), err
    assert_inert(out)
    assert_inert(err)
    assert out.strip(), "scan printed nothing: the hostile text never reached the output"


@pytest.mark.parametrize("fmt", FORMATS)
def test_scan_explain_with_forced_colour_has_only_sgr(fmt: str, root: str) -> None:
    out, err, _ = run("scan", "--explain", str(written(fmt, root)), colour=True)
    assert_inert(out)
    assert_inert(err)


def test_payload_reaches_the_output_visibly(root: str) -> None:
    """The checks above are not vacuous: the agent's hostile text is shown, made visible."""
    out, _, _ = run("scan", "--explain", str(written("claude", root)))
    assert "␛]0;pwned-title␇" in out or "␛" in out, out[:2000]


HOME_PATHS = {
    "claude": ".claude/projects/-home-dev-work-hostile/0b6f1c2e-0000-4000-8000-000000000001.jsonl",
    "codex": ".codex/sessions/2026/11/02/"
    "rollout-2026-11-02T09-00-00-0b6f1c2e-0000-4000-8000-000000000002.jsonl",
    "gemini": ".gemini/tmp/hostile/chats/session-2026-11-02T09-00-0b6f1c2e.jsonl",
    "opencode": ".local/share/opencode/opencode.db",
}


@pytest.fixture(scope="module")
def home(root: str) -> Path:
    """A home folder with the hostile session at each agent's default location."""
    home = Path(root) / "home"
    for fmt, relative in HOME_PATHS.items():
        target = home / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        source = written(fmt, root)
        target.write_bytes(source.read_bytes())
    return home


@pytest.mark.parametrize(
    "args",
    [(), pytest.param(("--json",), marks=pytest.mark.xfail(strict=True, reason=SESSIONS_JSON))],
    ids=["plain", "json"],
)
def test_sessions_listing_is_inert(args: tuple[str, ...], home: Path) -> None:
    out, err, code = run("sessions", "--root", str(home), *args)
    assert code == 0, err
    assert len(out.strip().splitlines()) >= len(HOME_PATHS), out
    assert_inert(out)
    assert_inert(err)
