"""The picker's search mode (issue 32: 2): Ctrl+F (in the footer) searches every session's
text as you type; Enter opens the replayer at the hit's turn with the match marked and the
panel on the nearest pivot; Esc there comes back to the results; `*` in a replay searches
every session for the `/` search's text."""

from __future__ import annotations

import shutil
from functools import partial
from pathlib import Path

from msgspec.structs import replace

from pivotal.catalog.discovery import discover_details, discover_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.picker import PickerScreen
from pivotal.tui.session_list import SessionList
from search_homes import write_claude

from .conftest import wait_for

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "src" / "pivotal" / "_demo" / "demo.jsonl"
SIZE = (140, 36)


def make_home(tmp_path: Path, monkeypatch) -> Path:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    home = tmp_path / "home"
    folder = home / ".claude/projects/-home-dev-work-qwen-serve"
    folder.mkdir(parents=True)
    shutil.copy(DEMO, folder / "demo.jsonl")  # pivots at #17, #31, #57 (at `low`: #17, #57)
    write_claude(home, "cjk", [("you", "连接超时了，请重试一下"), ("agent", "好的，我再试一次。")])
    long = "a long preamble of words before it " * 3 + "then the hugepages-setting, at last"
    write_claude(home, "long", [("you", long)])
    return home


def app_over(home: Path, sensitivity: str = "normal") -> ReplayerApp:
    """The app as `pivotal` opens it: the quick listing, counts (and the index) filled behind."""
    refs = discover_sessions([home], details=False)
    details = partial(discover_details, [home], warn=print)
    return ReplayerApp(None, refs=refs, details=details, sensitivity=sensitivity)


def rows(app: ReplayerApp) -> list[str]:
    shown = app.screen.query_one(SessionList)
    return [shown.render_line(y).text.rstrip() for y in range(min(shown.count, 20))]


def title(app: ReplayerApp) -> str:
    return str(app.screen.query_one("#picker-title").render())


def footer(app: ReplayerApp) -> str:
    from textual.widgets import Footer

    bar = app.screen.query_one(Footer)
    return " ".join(str(item.render()) for item in bar.query("FooterKey"))


async def test_ctrl_f_searches_text_and_enter_lands_on_the_hit(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    home = make_home(tmp_path, monkeypatch)
    # at `low` the demo's pivots are #17 and #57 only, so the pivot nearest the hit (#57)
    # is not the one the cursor is under (#17)
    app = app_over(home, sensitivity="low")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        assert "Search text" in footer(app)  # the key is shown
        await pilot.press("ctrl+f", *"survives reboots")
        await wait_for(lambda: any("survives reboots" in r for r in rows(app)))
        first = rows(app)[0]
        assert "#44" in first and "you" in first and "claude" in first
        assert "Filter sessions" in footer(app) and "Search text" not in footer(app)
        assert len(first) <= SIZE[0] and "survives reboots" in first  # match in view
        assert "hit" in title(app) and "^F filters sessions" in title(app)
        await pilot.press("enter")
        await wait_for(lambda: app.replay is not None and app.replay.landing is None)
        screen = app.replay
        assert screen is not None and screen.analysed
        assert screen.playback.cursor == 43  # the hit's turn (#44)
        assert screen.search.pattern is not None
        assert screen.search.pattern.search("SURVIVES REBOOTS")  # the match is marked
        assert screen.transcript.highlighter.pattern is screen.search.pattern
        # the nearest pivot is #57 (13 turns on), not #17 (27 back), which the cursor is under
        panel = screen.jumps.panel_pivot()
        assert [p.turn for p in screen.playback.pivots] == [16, 56]
        assert panel is not None and panel.turn == 56
        await pilot.press("escape")  # back to the results, as they were
        assert isinstance(app.screen, PickerScreen)
        assert app.screen.query_one("#picker-filter").value == "survives reboots"
        await wait_for(lambda: any("survives reboots" in r for r in rows(app)))
        await pilot.press("escape", "escape")  # clears the text, then back to filtering
        assert not app.screen.text_search.active and "Search text" in footer(app)
        await pilot.press(*"cjk")  # filtering works as before
        await wait_for(lambda: len(rows(app)) == 1)


async def test_cjk_as_you_type_and_star_from_the_replay(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    home = make_home(tmp_path, monkeypatch)
    app = app_over(home)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+f", *"超时")
        await wait_for(lambda: any("超时" in r for r in rows(app)))
        assert len(rows(app)) == 1 and "#1" in rows(app)[0] and "you" in rows(app)[0]
        await pilot.press(*["backspace"] * 2, *"hugepages-setting")
        await wait_for(lambda: any("hugepages-setting" in r for r in rows(app)))  # in view
        await pilot.press(*["backspace"] * 17, *"超时")
        await wait_for(lambda: any("超时" in r for r in rows(app)))
        await pilot.press("ctrl+f")  # back to filtering: the text is the filter now
        await pilot.press(*["backspace"] * 2, *"qwen")
        await wait_for(lambda: len(rows(app)) == 1 and "qwen" in rows(app)[0])
        await pilot.press("enter")
        await wait_for(lambda: app.replay is not None and app.replay.analysed)
        screen = app.replay
        await pilot.press("slash", *"EAGLE-3", "enter")
        await wait_for(lambda: screen.search.needle == "EAGLE-3")
        await pilot.press("asterisk")  # every session searched for it
        assert isinstance(app.screen, PickerScreen) and app.screen.text_search.active
        assert app.screen.query_one("#picker-filter").value == "EAGLE-3"
        await wait_for(lambda: any("EAGLE-3" in r for r in rows(app)))
        await pilot.press("escape", "escape", "escape")  # clear, filter mode, back to the replay
        assert app.screen is screen


async def test_star_after_a_hit_searches_what_was_typed(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A hit's matches are marked with its terms as a regex (`survives\\ reboots`); the status
    and `*` speak the person's words, as typed in the picker."""
    home = make_home(tmp_path, monkeypatch)
    app = app_over(home)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+f", *"hugepages-setting")
        await wait_for(lambda: any("hugepages-setting" in r for r in rows(app)))
        await pilot.press("enter")
        await wait_for(lambda: app.replay is not None and app.replay.landing is None)
        screen = app.replay
        assert "“hugepages-setting” at turn" in screen.status
        await pilot.press("asterisk")
        assert isinstance(app.screen, PickerScreen) and app.screen.text_search.active
        assert app.screen.query_one("#picker-filter").value == "hugepages-setting"
        await wait_for(lambda: any("hugepages-setting" in r for r in rows(app)))


async def test_the_title_says_when_counts_are_known_and_text_is_being_indexed(
    tmp_path: Path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    import threading

    home = make_home(tmp_path, monkeypatch)
    refs = discover_sessions([home], details=True)
    release = threading.Event()

    def details(wanted, progress):  # type: ignore[no-untyped-def]
        yield refs  # every count known at once (cached) ...
        progress.reading, progress.read = 5, 2  # ... and five files read again for their text
        progress.tell()
        release.wait(20)
        progress.read, progress.finished = 5, True  # as the pass says at its end

    app = ReplayerApp(None, refs=[replace(r, turns=None) for r in refs], details=details)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await wait_for(lambda: "indexing text for search 2/5" in title(app))
        await pilot.press("ctrl+f")
        await wait_for(lambda: "indexing 2/5" in title(app))
        release.set()
        await wait_for(lambda: "indexing" not in title(app))


async def test_at_80_columns_the_hint_counts_the_esc_the_drawer_takes(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch
) -> None:
    """A narrow screen opens the panel as a drawer at the hit: the first Esc closes it, so the
    hint says two, and comes before the panel's words, which an 80-column line cuts."""
    home = make_home(tmp_path, monkeypatch)
    app = app_over(home, sensitivity="low")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+f", *"survives reboots")
        await wait_for(lambda: any("#44" in r for r in rows(app)))
        await pilot.press("enter")
        await wait_for(lambda: app.replay is not None and app.replay.landing is None)
        screen = app.replay
        assert screen is not None and screen.panes.open  # the drawer
        line = screen.timeline.render_line(1).text
        assert "Esc Esc back to the results" in line, line
        await pilot.press("escape")  # the drawer
        assert app.screen is screen and not screen.panes.open
        await pilot.press("escape")  # the results
        assert isinstance(app.screen, PickerScreen)
