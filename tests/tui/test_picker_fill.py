"""The picker shows the quick listing at once and fills in turn and pivot counts behind it."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from msgspec.structs import replace

from pivotal.catalog import discovery
from pivotal.model import SessionRef
from pivotal.tui import picker
from pivotal.tui.app import ReplayerApp
from pivotal.tui.picker_fill import FillingPicker
from pivotal.tui.session_list import SessionList

ROOT = Path(__file__).resolve().parents[2]
QUICK = [
    SessionRef("claude-code", Path("/h/.claude/projects/p/a.jsonl"), size=120_000, updated=3.0),
    SessionRef("codex", Path("/h/.codex/sessions/rollout-b.jsonl"), size=48_000, updated=2.0),
]


def rows(app: ReplayerApp) -> list[str]:
    """The rows as drawn (every row of these short lists is on screen)."""
    shown = app.screen.query_one(SessionList)
    return [shown.render_line(y).text.rstrip() for y in range(shown.count)]


def counts(row: str, cols: picker.Columns = picker.WIDE) -> tuple[str, str]:
    """The turns and pivots columns of a picker row (drawn with `cols`)."""
    start = picker.AGENT + cols.project + cols.started + 3
    turns = row[start : start + picker.TURNS].strip()
    pivots = row[start + picker.TURNS + 1 : start + picker.TURNS + 1 + picker.PIVOTS].strip()
    return turns, pivots


def title(app: ReplayerApp) -> str:
    return str(app.screen.query_one("#picker-title").render())


async def wait_for(condition, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


async def test_rows_show_at_once_and_fill_in_as_details_arrive() -> None:
    first_read, second_read = threading.Event(), threading.Event()

    def details(wanted=None) -> Iterator[list[SessionRef]]:  # type: ignore[no-untyped-def]
        first_read.wait(10)
        yield [replace(QUICK[1], turns=40, pivots=2)]
        second_read.wait(10)
        yield [replace(QUICK[0], turns=1234, pivots=1)]

    app = ReplayerApp(None, refs=QUICK, details=details)
    async with app.run_test(size=(120, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, FillingPicker)
        before = rows(app)
        assert [counts(row) for row in before] == [("…", "…"), ("…", "…")]  # not read yet
        assert "a.jsonl" in before[0] and "rollout-b.jsonl" in before[1]
        assert title(app).startswith("2 sessions found · counting turns and pivots 0/2 · Enter")
        first_read.set()
        await wait_for(lambda: counts(rows(app)[1]) == ("40", "2"))
        assert counts(rows(app)[0]) == ("…", "…")  # order kept
        second_read.set()
        await wait_for(lambda: counts(rows(app)[0]) == ("1234", "1"))
        await wait_for(lambda: "counting" not in title(app))
        assert title(app).startswith("2 sessions found · Enter replays")
        await pilot.press("enter")  # the chosen ref is the detailed one
        assert app.replay is not None and app.replay.live.ref.turns == 1234  # type: ignore[union-attr]


async def test_choosing_does_not_wait_for_the_details() -> None:
    never = threading.Event()

    def details(wanted=None) -> Iterator[list[SessionRef]]:  # type: ignore[no-untyped-def]
        never.wait(2)
        yield []

    app = ReplayerApp(None, refs=QUICK, details=details)
    async with app.run_test(size=(120, 20)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")
        assert app.replay is not None and app.replay.live.ref == QUICK[1]
    never.set()


async def test_the_rows_a_person_filters_to_are_counted_next() -> None:
    """The counting thread is told which rows are on screen without counts."""
    many = [
        SessionRef("claude-code", Path(f"/h/.claude/projects/p/s{n:02}.jsonl"), updated=100.0 - n)
        for n in range(30)
    ]
    target = many[25].path
    named: list[tuple[Path, ...]] = []

    def details(wanted) -> Iterator[list[SessionRef]]:  # type: ignore[no-untyped-def]
        for _ in range(1000):  # up to 10 s
            named.append(tuple(wanted()))
            if target in named[-1]:
                yield [replace(many[25], turns=7, pivots=1)]
                return
            time.sleep(0.01)

    app = ReplayerApp(None, refs=many, details=details)
    async with app.run_test(size=(120, 20)) as pilot:
        await wait_for(lambda: any(named))
        assert many[0].path in named[-1] and target not in named[-1]  # off screen
        await pilot.press(*"s25")
        await wait_for(lambda: counts(rows(app)[0]) == ("7", "1"))
        assert "s25.jsonl" in rows(app)[0]


def test_discover_details_yields_what_discover_sessions_finds(tmp_path: Path) -> None:
    project = tmp_path / ".claude" / "projects" / "-home-dev-work"
    project.mkdir(parents=True)
    for name in ("demo.jsonl", "seed_dead_end.jsonl"):
        shutil.copy2(ROOT / "sample_sessions" / "claude" / name, project / name)
    quick = discovery.discover_sessions([tmp_path], details=False)
    assert [r.turns for r in quick] == [None, None]
    streamed = [ref for refs in discovery.discover_details([tmp_path]) for ref in refs]
    full = discovery.discover_sessions([tmp_path])
    assert sorted(streamed, key=lambda r: str(r.path)) == sorted(full, key=lambda r: str(r.path))
    assert all(r.turns and r.pivots is not None for r in streamed)
    # the second time every file comes from the session index, with the same values
    again = [ref for refs in discovery.discover_details([tmp_path]) for ref in refs]
    assert sorted(again, key=lambda r: str(r.path)) == sorted(full, key=lambda r: str(r.path))


def test_details_arrive_newest_first_as_the_picker_shows_them(tmp_path: Path) -> None:
    project = tmp_path / ".claude" / "projects" / "-home-dev-work"
    project.mkdir(parents=True)
    names = ["a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl", "e.jsonl"]
    ages = [3, 1, 4, 0, 2]  # days old: not the order of the names, nor of creation
    for name, age in zip(names, ages, strict=True):
        path = project / name
        shutil.copy2(ROOT / "sample_sessions" / "claude" / "seed_dead_end.jsonl", path)
        stamp = 1_790_000_000 - age * 86400
        os.utime(path, (stamp, stamp))
    shown = [r.path.name for r in discovery.discover_sessions([tmp_path], details=False)]
    streamed = [r.path.name for refs in discovery.discover_details([tmp_path]) for r in refs]
    assert shown == ["d.jsonl", "b.jsonl", "e.jsonl", "a.jsonl", "c.jsonl"]
    assert streamed == shown


def folder_of_sessions(tmp_path: Path) -> Path:
    """A folder of sessions outside any agent's own folder (a copy, a download)."""
    folder = tmp_path / "shared-sessions"
    folder.mkdir()
    for name in ("demo.jsonl", "seed_dead_end.jsonl"):
        shutil.copy2(ROOT / "sample_sessions" / "claude" / name, folder / name)
    shutil.copy2(
        ROOT / "sample_sessions" / "codex" / "seed_dead_end.jsonl",
        folder / "rollout-2026-11-02T08-40-00-01a19b6a.jsonl",
    )
    return folder


def test_pivotal_folder_gives_its_picker_the_counts_to_fill_in(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 35: 6: `pivotal FOLDER` showed `—` for every count, for ever."""
    import argparse

    from pivotal.cli import replay as command

    folder = folder_of_sessions(tmp_path)
    given: dict[str, object] = {}
    monkeypatch.setattr(command, "_run_app", lambda ref, **kwargs: given.update(kwargs, ref=ref))
    parser = argparse.ArgumentParser()
    command.configure(parser)
    args = parser.parse_args([str(folder)])
    args.handler(args)
    refs, details = given["refs"], given["details"]
    assert given["ref"] is None and len(refs) == 3  # type: ignore[arg-type]
    assert all(ref.turns is None for ref in refs)  # type: ignore[union-attr]
    assert details is not None, "the folder's picker would never count its sessions"
    counted = [ref for batch in details(wanted=lambda: ()) for ref in batch]  # type: ignore[operator]
    key = lambda ref: str(ref.path)  # noqa: E731
    assert [str(r.path) for r in sorted(counted, key=key)] == sorted(str(r.path) for r in refs)
    for ref in counted:
        assert ref.turns and ref.pivots is not None, ref


async def test_a_folder_picker_fills_in_its_counts(tmp_path: Path) -> None:
    from functools import partial

    from pivotal.cli.replay import _resolve_for_app

    folder = folder_of_sessions(tmp_path)
    _, refs = _resolve_for_app(folder)
    assert refs is not None
    app = ReplayerApp(None, refs=refs, details=partial(discovery.details_of, refs))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await wait_for(lambda: "counting" not in title(app))
        for row in rows(app):
            turns, pivots = counts(row, app.screen.cols)
            assert turns.isdigit() and pivots.isdigit(), row
