"""Live follow in the replayer, driven through Pilot while a writer appends like the agents do.

Each test runs the real app (`ReplayerApp(ref, follow=...)`) on a real file in
a temporary folder; a writer appends Claude Code or Codex records (copied from
what the clients wrote) while the app runs, and the assertions read what the
app shows: turns in the playback and transcript, the LIVE indicator and badge
on the status line, the pivot panel, the notifications. Waits are for
conditions with a generous timeout, never for durations.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from tail.claude_lines import ClaudeStream
from tail.helpers import Writer

from .conftest import replay

TIMEOUT = 20.0
SIZE = (160, 48)
ROOT = Path(__file__).resolve().parents[2]
CODEX_SAMPLE = ROOT / "sample_sessions" / "codex" / "seed_dead_end.jsonl"


async def wait_for(condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    """Wait until `condition()` holds (checked between frames); fail after `timeout` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def status(app: ReplayerApp) -> str:
    return replay(app).timeline.status().plain


def count(app: ReplayerApp) -> int:
    return len(replay(app).playback.turns)


def panel(app: ReplayerApp) -> str:
    return replay(app).panel.text.plain


def notices(app: ReplayerApp) -> list[str]:
    return [n.message for n in app._notifications]


def open_app(path: Path, **kwargs: object) -> ReplayerApp:
    ref = find_sessions([path]).refs[0]
    return ReplayerApp(ref, **kwargs)  # type: ignore[arg-type]


def claude_file(tmp_path: Path, stream: ClaudeStream, name: str = "5e55104c.jsonl") -> Writer:
    path = tmp_path / name
    path.write_bytes(stream.human("Start here: get the inference server running."))
    return Writer(path)


async def test_follow_shows_appended_turns_and_stays_pinned(tmp_path: Path) -> None:
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    app = open_app(writer.path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(lambda: count(app) == 1 and "● LIVE" in status(app))
        writer.append(stream.say("I'll start the server and check it responds."))
        await wait_for(lambda: count(app) == 2)
        screen = replay(app)
        assert screen.playback.cursor == 1
        assert screen.transcript.shown == [0, 1]
        # a record split across two writes is held back until its line is complete
        line = stream.say("Second message, written in two pieces.")
        writer.append(line[:40])
        await pilot.pause(0.2)
        assert count(app) == 2
        writer.append(line[40:])
        await wait_for(lambda: count(app) == 3)
        assert screen.playback.turns[2].preview == "Second message, written in two pieces."
        assert screen.playback.cursor == 2
        assert "turn 3/3" in status(app)
    writer.assert_untouched()


async def test_silence_at_the_live_edge_is_a_candidate_then_confirmed(tmp_path: Path) -> None:
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    # every silence the rules let through is a pivot: this tests the live mechanics
    app = open_app(writer.path, follow=True, sensitivity="1")
    scene = stream.pivot_scene(1)[1:]  # the prompt is already in the file
    ok = next(i for i, rec in enumerate(scene) if b'"content":"ok"' in rec)
    async with app.run_test(size=SIZE):
        await wait_for(lambda: "● LIVE" in status(app) and replay(app).analysed)
        for record in scene[: ok + 1]:  # failed attempts, then the bare "ok"
            writer.append(record)
        screen = replay(app)
        silence = len(scene[: ok + 1])  # turn index of the "ok" (the prompt is turn 0)
        await wait_for(lambda: count(app) == silence + 1)
        await wait_for(lambda: "candidate" in status(app))
        # the live feed's changes reach the panel within REDRAW_EVERY
        await wait_for(lambda: "(candidate)" in panel(app))
        assert f"turn #{silence + 1}" in panel(app)
        assert screen.timeline.state.candidates == (silence,)
        for record in scene[ok + 1 :]:  # the agent takes over on its own
            writer.append(record)
        await wait_for(
            lambda: (
                not any(p.candidate for p in screen.playback.pivots)
                and bool(screen.playback.pivots)
            )
        )
        pivot = screen.playback.pivots[0]
        assert pivot.turn == silence
        # the panel is redrawn on the live feed's next tick, not with the pivots
        await wait_for(lambda: "(candidate)" not in panel(app))
        # confirmed while the view was pinned: auto-pause stops there
        await wait_for(lambda: screen.playback.cursor == silence)
        assert "auto-paused at the pivot just confirmed" in status(app)
        assert screen.timeline.state.candidates == ()
        assert "(End: back to the live end)" in status(app)
    writer.assert_untouched()


async def test_moving_away_shows_a_badge_and_end_re_pins(tmp_path: Path) -> None:
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    writer.append(stream.say("First answer."))
    app = open_app(writer.path, follow=True, autopause=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(lambda: count(app) == 2 and "● LIVE" in status(app))
        screen = replay(app)
        await pilot.press("g")  # to the first turn: away from the live edge
        assert screen.playback.cursor == 0
        for n in range(3):
            writer.append(stream.say(f"More work {n}."))
        await wait_for(lambda: count(app) == 5)
        await wait_for(lambda: "3 new turns" in status(app))
        assert screen.playback.cursor == 0
        await pilot.press("end")
        assert screen.playback.cursor == 4
        assert "new turn" not in status(app)
        writer.append(stream.say("Pinned again."))
        await wait_for(lambda: screen.playback.cursor == 5)
        assert screen.transcript.shown[-1] == 5
    writer.assert_untouched()


async def test_truncated_and_rotated_files_reload_with_a_notice(tmp_path: Path) -> None:
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    for n in range(4):
        writer.append(stream.say(f"Answer {n}."))
    app = open_app(writer.path, follow=True)
    async with app.run_test(size=SIZE):
        await wait_for(lambda: count(app) == 5)
        screen = replay(app)
        writer.truncate()
        fresh = ClaudeStream("0e550000-0000-4000-8000-00000000cafe")
        writer.append(fresh.human("A new start after truncation."))
        await wait_for(lambda: count(app) == 1)
        assert screen.playback.turns[0].preview == "A new start after truncation."
        assert screen.transcript.shown == [0]
        await wait_for(lambda: any("truncat" in n for n in notices(app)))
        other = ClaudeStream("0e550000-0000-4000-8000-00000000beef")
        writer.replace(other.human("Rotated file.") + other.say("Rotated answer."))
        await wait_for(lambda: count(app) == 2)
        assert [t.preview for t in screen.playback.turns] == ["Rotated file.", "Rotated answer."]
        await wait_for(lambda: len(notices(app)) >= 2)
        assert all(not n.markup for n in app._notifications)
    writer.assert_untouched()


async def test_deleted_file_keeps_its_turns_and_comes_back(tmp_path: Path) -> None:
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    app = open_app(writer.path, follow=True)
    async with app.run_test(size=SIZE):
        await wait_for(lambda: count(app) == 1 and "● LIVE" in status(app))
        writer.delete()
        await wait_for(lambda: "file gone" in status(app))
        assert count(app) == 1
        # notify() posts a message: the toast is queued a moment after the status changed
        await wait_for(lambda: any(n.severity == "warning" for n in app._notifications))
        writer.append(stream.human("Back again.") + stream.say("Reading on."))
        await wait_for(lambda: "file gone" not in status(app) and count(app) >= 2)
    writer.assert_untouched()


async def test_codex_records_appended_while_following(tmp_path: Path) -> None:
    lines = CODEX_SAMPLE.read_bytes().splitlines(keepends=True)
    path = tmp_path / "rollout-2026-11-02T08-40-00-01a19b6a.jsonl"
    writer = Writer(path)
    writer.append(b"".join(lines[:40]))
    expected = [t.preview for t in find_sessions_turns(CODEX_SAMPLE)]
    app = open_app(path, follow=True)
    async with app.run_test(size=SIZE):
        await wait_for(lambda: count(app) > 0 and "● LIVE" in status(app))
        start = count(app)
        for n in range(40, len(lines), 60):
            writer.append(b"".join(lines[n : n + 60]))
        await wait_for(lambda: count(app) == len(expected))
        assert count(app) > start
        screen = replay(app)
        assert [t.preview for t in screen.playback.turns] == expected
        assert screen.playback.cursor == len(expected) - 1 or "auto-paused" in status(app)
    writer.assert_untouched()


def find_sessions_turns(path: Path) -> list:
    from pivotal.readers import read_session

    return read_session(find_sessions([path]).refs[0]).turns


async def test_f_toggles_follow_on_an_open_session(tmp_path: Path) -> None:
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    writer.append(stream.say("Already there."))
    app = open_app(writer.path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(lambda: count(app) == 2 and replay(app).analysed)
        assert "LIVE" not in status(app)
        await pilot.press("F")
        await wait_for(lambda: "● LIVE" in status(app))
        writer.append(stream.say("Written while following."))
        await wait_for(lambda: count(app) == 3)
        assert replay(app).playback.cursor == 2
        await pilot.press("F")
        assert "LIVE" not in status(app)
        writer.append(stream.say("Not followed any more."))
        await pilot.pause(0.3)
        assert count(app) == 3
    writer.assert_untouched()


async def test_following_a_folder_switches_to_a_new_session(tmp_path: Path) -> None:
    folder = tmp_path / "-home-dev-work-proj"
    folder.mkdir()
    stream = ClaudeStream()
    old = Writer(folder / "11111111-0000-4000-8000-000000000001.jsonl")
    old.append(stream.human("First session.") + stream.say("Done with it."))
    ref = find_sessions([old.path]).refs[0]
    app = ReplayerApp(ref, follow=folder)
    async with app.run_test(size=SIZE):
        await wait_for(lambda: count(app) == 2 and "● LIVE" in status(app))
        new_stream = ClaudeStream("22222222-0000-4000-8000-000000000002")
        new = Writer(folder / "22222222-0000-4000-8000-000000000002.jsonl")
        new.append(new_stream.human("Second [bold]session[/bold]."))
        await wait_for(lambda: any("switched" in n for n in notices(app)))
        await wait_for(lambda: count(app) == 1)
        assert replay(app).playback.turns[0].preview == "Second [bold]session[/bold]."
        new.append(new_stream.say("Working in the new one."))
        await wait_for(lambda: count(app) == 2)
        assert replay(app).playback.cursor == 1
        # marks, notes and the resume command now belong to the new session
        await wait_for(lambda: getattr(replay(app).marking.identity, "path", None) == new.path)
    old.assert_untouched()
    new.assert_untouched()


async def test_notices_are_plain_text_even_with_brackets_in_the_path(tmp_path: Path) -> None:
    folder = tmp_path / "[red]not markup[b]"
    folder.mkdir()
    stream = ClaudeStream()
    writer = claude_file(folder, stream, "[b]5e55104c.jsonl")
    app = open_app(writer.path, follow=True)
    async with app.run_test(size=SIZE):
        await wait_for(lambda: count(app) == 1)
        writer.truncate()
        writer.append(ClaudeStream("0e550000-0000-4000-8000-00000000cafe").human("Again."))
        await wait_for(lambda: bool(notices(app)))
        assert all(not n.markup for n in app._notifications)
    writer.assert_untouched()


async def test_playback_catches_up_then_waits_at_the_live_edge(tmp_path: Path) -> None:
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    for n in range(5):
        writer.append(stream.say(f"Step {n}."))
    app = open_app(writer.path, follow=True, autopause=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(lambda: count(app) == 6 and "● LIVE" in status(app))
        screen = replay(app)
        await pilot.press("g", "plus", "plus", "plus", "plus", "space")  # replay from the top
        assert screen.playback.playing
        await wait_for(lambda: screen.playback.cursor == 5)
        await pilot.pause(0.2)
        assert screen.playback.playing  # caught up: still playing, waiting for the agent
        assert "▶ playing" in status(app)
        writer.append(stream.say("Written after playback caught up."))
        await wait_for(lambda: count(app) == 7 and screen.playback.cursor == 6)
        assert screen.transcript.shown[-1] == 6
        assert "new turn" not in status(app)
    writer.assert_untouched()


def test_snapshots_merged_while_the_ui_is_busy_keep_the_lowest_change() -> None:
    from pivotal.tui.live_feed import Snapshot, merge

    grown = Snapshot([], 7, False, [], [1], 100, 100, notice="a")
    appended = Snapshot([], 9, False, None, None, 150, 150, notice="b")
    merged = merge(grown, appended)
    assert (merged.first_changed, merged.reset, merged.done) == (7, False, 150)
    assert merged.pivots == [] and merged.failures == [1]  # the later one had no analysis
    assert merged.notice == "a; b"
    reloaded = merge(Snapshot([], None, True, [], [], 10, 10), appended)
    assert (reloaded.first_changed, reloaded.reset) == (0, True)


def test_cli_follow_folder_follows_its_newest_session(tmp_path: Path, monkeypatch) -> None:
    from cli_helpers import fake_replayer, invoke

    older, newer = ClaudeStream(), ClaudeStream("22222222-0000-4000-8000-000000000002")
    (tmp_path / "11111111-0000-4000-8000-000000000001.jsonl").write_bytes(older.human("Old."))
    newest = tmp_path / "22222222-0000-4000-8000-000000000002.jsonl"
    newest.write_bytes(newer.human("New."))
    seen = fake_replayer(monkeypatch)
    result = invoke("follow", tmp_path)
    assert result.exit_code == 0, result.output
    assert seen["follow"] == tmp_path
    result = invoke("follow", newest)
    assert result.exit_code == 0, result.output
    assert seen["follow"] is True
    assert seen["ref"].path == newest  # type: ignore[union-attr]


async def test_search_sees_output_that_joined_the_last_turn_while_following(
    tmp_path: Path,
) -> None:
    """A tool result joins its call's turn: the turn count stays, the turn's text grows."""
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    call, result = stream.run("make check", "all 12 checks green, zeppelin ready").splitlines(True)
    app = open_app(writer.path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(lambda: "● LIVE" in status(app))
        writer.append(call)
        await wait_for(lambda: count(app) == 2)
        screen = replay(app)
        await pilot.press("slash", *"zeppelin", "enter")
        await wait_for(lambda: "not found" in status(app) and screen.search.matches == [])
        before = screen.playback.revision
        writer.append(result)  # the same two turns, the second one longer
        await wait_for(lambda: screen.playback.revision != before)
        assert count(app) == 2
        await pilot.press("n")
        await wait_for(lambda: screen.search.matches == [1] and "match 1/1" in status(app))
        assert screen.playback.cursor == 1
    writer.assert_untouched()
