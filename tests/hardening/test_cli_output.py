"""Every CLI output shows hostile session text as text: no escape reaches the terminal.

A real scenario with pivots (the seed dead-end essay) is written in every agent
format by the sample writers, with escape sequences, C1 controls, bidi and
zero-width characters and Rich-markup look-alikes injected into the agent's
text, reasoning, tool commands and tool output. `pivotal scan` (plain, --explain,
--json) and `pivotal sessions` run as real processes; their stdout and stderr may
carry printable text only (SGR colour allowed when colour is forced).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .hostile_samples import FORMATS, assert_inert, written


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
            marks: list = []
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
    [(), ("--json",)],
    ids=["plain", "json"],
)
def test_sessions_listing_is_inert(args: tuple[str, ...], home: Path) -> None:
    out, err, code = run("sessions", "--root", str(home), *args)
    assert code == 0, err
    assert len(out.strip().splitlines()) >= len(HOME_PATHS), out
    assert_inert(out)
    assert_inert(err)
