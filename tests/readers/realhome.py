"""Run `pivotal` the way a person would, with HOME at a copy of a real client's home.

The fixtures under tests/fixtures/realclients/<client>-<scenario>/ are homes in the
client's own layout (written by the real CLI against our scripted model). Each
test copies one into a temporary folder, points HOME there, clears every variable
that would send an agent's lookup elsewhere, and runs the command in-process.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"
OVERRIDES = (
    "CLAUDE_CONFIG_DIR",
    "CODEX_HOME",
    "XDG_DATA_HOME",
    "GEMINI_CLI_HOME",
    "QWEN_HOME",
    "QWEN_RUNTIME_DIR",
    "KIMI_SHARE_DIR",
    "KIMI_CODE_HOME",
    "VIBE_HOME",
    "CLINE_DIR",
    "CLINE_DATA_DIR",
    "CLINE_SESSION_DATA_DIR",
    "CONTINUE_GLOBAL_DIR",
)


def copied_home(tmp_path: Path, name: str) -> Path:
    """A private copy of tests/fixtures/realclients/<name> (a whole home folder)."""
    home = tmp_path / name
    shutil.copytree(REAL / name, home)
    return home


def with_home(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    monkeypatch.setenv("HOME", str(home))
    for name in OVERRIDES:
        monkeypatch.delenv(name, raising=False)


def listed(monkeypatch: pytest.MonkeyPatch, home: Path) -> list[dict[str, Any]]:
    """`pivotal sessions --json` with HOME=home: one object per session."""
    with_home(monkeypatch, home)
    result = invoke("sessions", "--json")
    if result.exit_code == 3:  # nothing found: said on stderr, nothing on stdout
        assert result.stdout == "" and "no agent sessions found" in result.stderr
        return []
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def scanned(path: Path, *extra: str) -> list[dict[str, Any]]:
    """`pivotal scan --json PATH`: one object per session."""
    result = invoke("scan", "--json", path, *extra)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def exported(path: Path, *extra: str) -> dict[str, Any]:
    """`pivotal export --to json PATH`: the document."""
    result = invoke("export", "--to", "json", path, *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def person_texts(doc: dict[str, Any]) -> list[str]:
    """The text of every turn the export calls a person's, in order."""
    return [_text(t) for t in doc["transcript"] if "human" in t["flags"]]


def tools(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Every tool call of the export, in order."""
    return [p["tool"] for t in doc["transcript"] for p in t["parts"] if p["kind"] == "tool"]


def flagged(doc: dict[str, Any], flag: str) -> list[dict[str, Any]]:
    return [t for t in doc["transcript"] if flag in t["flags"]]


def _text(turn: dict[str, Any]) -> str:
    return "\n\n".join(p["text"] for p in turn["parts"] if p["kind"] == "text" and p["text"])
