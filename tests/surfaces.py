"""One session through every surface a person meets: `scan --json`, `export --to json`,
`sessions --json` and the replayer.

A reader that learns a new shape is only right when the person sees it right everywhere:
a turn read correctly by `read_session` but dropped by the listing, or shown as the person
in the replayer, is still a bug. Reader tests call `through_cli` (and `listed` when the file
sits in an agent's home layout) and `in_replayer`, then assert on what each returned.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cli_helpers import invoke
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.transcript import TranscriptView

SIZE = (160, 48)


@dataclass(frozen=True)
class CliView:
    """What `scan --json` and `export --to json` said of one session."""

    scan: dict[str, Any]
    export: dict[str, Any]

    @property
    def person(self) -> list[str]:
        """The text of every turn the export calls the person's, in order."""
        return [_text(turn) for turn in self.export["transcript"] if turn["who"] == "person"]

    def turns_by(self, who: str) -> list[dict[str, Any]]:
        return [turn for turn in self.export["transcript"] if turn["who"] == who]


def _text(turn: dict[str, Any]) -> str:
    return "\n".join(part["text"] for part in turn["parts"] if part["kind"] == "text")


def through_cli(path: Path, key: str | None = None) -> CliView:
    """`scan --json` and `export --to json` of one session; both must exit 0 with one record."""
    extra = ["--key", key] if key is not None else []
    scan = invoke("scan", "--json", path, *extra)
    assert scan.exit_code == 0, scan.output
    records = [json.loads(line) for line in scan.stdout.splitlines() if line.strip()]
    assert len(records) == 1, scan.output
    export = invoke("export", path, "--to", "json", *extra)
    assert export.exit_code == 0, export.output
    return CliView(records[0], json.loads(export.stdout))


def listed(home: Path) -> list[dict[str, Any]]:
    """`sessions --json --root HOME`: every row (exit 0 required)."""
    result = invoke("sessions", "--json", "--root", home)
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


@dataclass(frozen=True)
class ReplayerView:
    """What the replayer showed once the session was read: each turn's text as drawn."""

    turns: list[str]
    status: str
    human: list[int]
    """Indices of the turns the replayer treats as the person's (its "your messages" filter)."""

    @property
    def person(self) -> list[str]:
        return [self.turns[i] for i in self.human]


async def in_replayer(path: Path, key: str | None = None) -> ReplayerView:
    """Open the replayer on `path` (as `pivotal PATH` does), wait until it has read the session
    and judged its silences, and return every turn as drawn."""
    refs = find_sessions([path]).refs
    if key is not None:
        refs = [ref for ref in refs if ref.key == key]
    assert refs, f"no session found in {path}"
    app = ReplayerApp(refs[0])
    async with app.run_test(size=SIZE) as pilot:
        screen = app.replay
        assert screen is not None
        await _until(pilot, lambda: screen.analysed)
        await app.workers.wait_for_complete()
        await pilot.pause()
        view: TranscriptView = screen.transcript
        turns = screen.playback.turns
        drawn = [
            "\n".join(strip.text for strip in view.rendered(i).strips) for i in range(len(turns))
        ]
        human = [turn.index for turn in turns if turn.is_human]
        return ReplayerView(drawn, screen.timeline.status().plain, human)


async def _until(pilot: Any, condition: Any, tries: int = 3000) -> None:
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("the replayer did not finish reading the session")
