"""Search (issue 16: 10): starts in the current turn, says "match 3/9", wraps and says so,
marks the match in the turn, has a regex toggle, and is smart about case.

The fast path over a big file (the raw scan for lazily read turns) must find
exactly what turn-by-turn checking finds: it is held on a real Claude Code
file, where assistant turns are decoded from their records on demand.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from pivotal.readers import find_sessions, open_reader
from pivotal.tui.find import Finder, Query, SpanIndex, find_all, raw_hits, turn_text
from tail.claude_lines import ClaudeStream

from .conftest import make_app, replay, wait_for

WIDE = (160, 48)


async def search(app, pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """Type a search and wait until its matches are counted."""
    await pilot.press("slash", *keys, "enter")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def press(app, pilot, key: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(key)
    await app.workers.wait_for_complete()
    await pilot.pause()


def status(app) -> str:  # type: ignore[no-untyped-def]
    return replay(app).timeline.status().plain


async def test_match_counts_wrap_and_start_in_the_current_turn() -> None:
    app = make_app(at=3)  # turn #4 holds "OOM killed" in its tool output
    async with app.run_test(size=WIDE) as pilot:
        pb = replay(app).playback
        await search(app, pilot, *"OOM")
        assert pb.cursor == 3 and "match 1/2" in status(app)
        await press(app, pilot, "n")
        assert pb.cursor == 6 and "match 2/2" in status(app)
        await press(app, pilot, "n")
        assert pb.cursor == 3 and "match 1/2 · wrapped to the top" in status(app)
        await press(app, pilot, "N")
        assert pb.cursor == 6 and "match 2/2 · wrapped to the bottom" in status(app)
        await press(app, pilot, "N")
        assert pb.cursor == 3 and "wrapped" not in status(app)


async def test_a_search_that_went_round_the_end_still_says_so_once_counted() -> None:
    app = make_app(at=20)  # past turn #7, the last "OOM killed"
    async with app.run_test(size=WIDE) as pilot:
        await search(app, pilot, *"OOM")
        assert pb_cursor(app) == 3 and "match 1/2 · wrapped round" in status(app)
        await press(app, pilot, "n")
        assert pb_cursor(app) == 6 and "wrapped" not in status(app)


async def test_the_first_search_finds_its_index_built_while_the_person_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once the session is judged, a thread builds what a first search needs (where each
    turn's records are, the in-memory text lower-cased); the first search uses it."""
    built: list[int] = []
    of = SpanIndex.of.__func__  # type: ignore[attr-defined]

    def counted(cls: type[SpanIndex], turns: list) -> SpanIndex:  # type: ignore[type-arg]
        built.append(len(turns))
        return of(cls, turns)  # type: ignore[no-any-return]

    monkeypatch.setattr(SpanIndex, "of", classmethod(counted))
    app = make_app(at=3)
    async with app.run_test(size=WIDE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = replay(app)
        assert built == [len(screen.playback.turns)]
        revision, index = screen.search._spans
        assert revision == screen.playback.revision
        assert index.memory is not None and index.memory._folded is not None
        await search(app, pilot, *"oom")
        assert pb_cursor(app) == 3 and "match 1/2" in status(app)
        assert len(built) == 1  # not built again


async def test_no_text_is_built_ahead_for_turns_a_reader_keeps_out_of_memory() -> None:
    """Kimi's, Vibe's, Cline's readers rebuild a turn's parts when asked (no byte spans):
    building the search's text ahead would decode every turn and keep it, for a search
    that may never come. The span index is built; the text waits for a search."""
    from pivotal.tui.app import ReplayerApp

    from .sessions import demo_pivots, demo_session

    session = demo_session()
    decoded: list[int] = []
    for turn in session.turns:
        if turn.role.value == "assistant" and turn._parts is not None:
            parts = turn._parts

            def load(t, parts=parts):  # type: ignore[no-untyped-def]
                decoded.append(t.index)
                return parts

            turn._parts, turn._loader = None, load
    app = ReplayerApp(session=session, pivots=demo_pivots(), at=3)
    async with app.run_test(size=WIDE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = replay(app)
        revision, index = screen.search._spans
        assert revision == screen.playback.revision and index.memory is None
        assert decoded  # the turns were read through their loader, not held
        await search(app, pilot, *"OOM")  # a search still finds what it found
        assert pb_cursor(app) == 3 and "match 1/2" in status(app)


def pb_cursor(app) -> int:  # type: ignore[no-untyped-def]
    return replay(app).playback.cursor


async def test_the_match_is_marked_in_the_turn() -> None:
    app = make_app(at=0)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await search(app, pilot, *"crashes")
        assert screen.playback.cursor == 6
        view = screen.transcript
        style = view.get_component_rich_style("transcript--match")
        marked = [
            segment.text
            for y in range(view.size.height)
            for segment in view.render_line(y)
            if segment.style is not None and segment.style.bgcolor == style.bgcolor
        ]
        assert marked == ["crashes"], marked


async def test_regex_toggle_and_a_bad_regex() -> None:
    app = make_app(at=0)
    async with app.run_test(size=WIDE) as pilot:
        pb = replay(app).playback
        await search(app, pilot, *r"bench(mark)? [0-3]\b")  # as plain text: not there
        assert pb.cursor == 0 and "not found" in status(app)
        await pilot.press("slash", "ctrl+r")
        assert "regex" in str(app.screen.query_one("#prompt-label").render())
        await pilot.press("enter")  # the same text, now a regex
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert pb.cursor == 9 and "match 1/4" in status(app)  # Benchmark 0..3 (turns #10-16)
        await search(app, pilot, "ctrl+u", "(")
        assert "not a regular expression" in status(app) and pb.cursor == 9


@pytest.mark.parametrize("size", [(80, 24), WIDE])
async def test_a_long_search_says_how_far_it_got_and_esc_stops_it(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """Issue 35: 9: a search over 1 GB took seconds with no way out."""
    started = threading.Event()

    class Slow(Finder):
        def matches(self, index: int) -> bool:
            if not started.is_set():
                started.set()
                assert self.progress is not None
                self.progress("turns", 5_000, 60_000)
            while not self.cancelled():  # a turn that takes for ever to decode
                time.sleep(0.01)
            return False

    monkeypatch.setattr("pivotal.tui.search.Finder", Slow)
    monkeypatch.setattr("pivotal.tui.search.PROGRESS_EVERY", 0.0)
    app = make_app(at=0)
    async with app.run_test(size=size) as pilot:
        screen = replay(app)
        await pilot.press("slash", *"zzz", "enter")
        await wait_for(lambda: "5,000 of 60,000 turns read (Esc stops)" in status(app))
        assert screen.search.busy
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "search for “zzz” stopped" in status(app)
        assert not screen.search.busy and screen.playback.cursor == 0
        await pilot.press("escape")  # nothing left to stop: Esc is itself again
        assert "stopped" not in status(app)


@pytest.mark.parametrize(("needle", "found"), [("oom", [3, 6]), ("OOM", [3, 6]), ("Oom", [])])
def test_smart_case(needle: str, found: list[int]) -> None:
    from .sessions import demo_turns

    assert find_all(demo_turns(), Query(needle), None) == found


def claude_file(tmp_path: Path) -> Path:
    stream = ClaudeStream()
    chunks = [stream.human("Start: get the inference server running.")]
    for n in range(40):
        chunks.append(stream.say(f"Step {n}: looking at the config."))
        output = f"line {n}\nkv-cache {n * 3} MB\n" + ("padding text\n" * 50)
        if n == 17:
            output += 'CUDA error: out of memory "quoted" \\ back\n'
        if n == 23:
            output += "température élevée: GPU à 91 °C\n"
        chunks.append(stream.run(f"grep -n cache config{n}.yaml", output, exit_code=n % 5 == 0))
        chunks.append(stream.human(f"ok {n}"))
    path = tmp_path / "5e55104c.jsonl"
    path.write_bytes(b"".join(chunks))
    return path


NEEDLES = [
    "out of memory",  # one tool output (raw fast path)
    "OUT OF MEMORY",  # case matters: nowhere
    "cuda ERROR",  # case matters (a capital): nowhere
    "kv-cache 51 mb",  # case does not matter
    '"quoted"',  # a quote: JSON escapes it, so turn by turn
    "sessionId",  # only in the records' metadata, not in any turn's text
    "padding text",  # everywhere
    "looking at",
]


@pytest.mark.parametrize("needle", NEEDLES)
def test_the_fast_path_finds_what_turn_by_turn_finds(tmp_path: Path, needle: str) -> None:
    path = claude_file(tmp_path)
    reader = open_reader(find_sessions([path]).refs[0])
    reader.poll(final=True)
    turns = reader.session.turns
    lazy = [t for t in turns if t._parts is None and t._loader is not None]
    assert len(lazy) > 30, "the file must have lazily read turns for this test to mean much"
    fast = Finder(turns, Query(needle), str(path))
    slow = [t.index for t in turns if Query(needle).pattern().search(turn_text(t))]
    assert fast.all() == slow
    if Query(needle).raw() is not None and needle not in ("sessionId", "padding text"):
        assert fast.skip, "the raw scan must have ruled turns out"
    if needle == "out of memory":
        assert len(slow) == 1
    if needle in ("sessionId", "OUT OF MEMORY", "cuda ERROR"):
        assert slow == []


SLOW_NEEDLES = [
    ("élevée: gpu", False),  # not ASCII: the file is scanned for "e: gpu" first
    ("ÉLEVÉE", False),  # case matters, and no ASCII piece is long enough: turn by turn
    (r"kv-cache 5\d mb", True),
    ("out of (memory|disk)", True),
    (r'"quoted" \\ back', True),
    ("(?i)CUDA ERROR", True),  # its own flag ignores case
    ("(looking )+at", True),
    ("x?y*z{0,3}", True),  # nothing every match holds: turn by turn
]


@pytest.mark.parametrize(("needle", "regex"), SLOW_NEEDLES)
def test_a_regex_or_text_json_escapes_is_scanned_for_what_every_match_holds(
    tmp_path: Path, needle: str, regex: bool
) -> None:
    """A query that is not all raw-safe text is scanned for its longest raw-safe piece (issue
    35: 9): it finds what turn-by-turn checking finds, and rules turns out first."""
    path = claude_file(tmp_path)
    reader = open_reader(find_sessions([path]).refs[0])
    reader.poll(final=True)
    turns = reader.session.turns
    query = Query(needle, regex)
    fast = Finder(turns, query, str(path))
    slow = [t.index for t in turns if query.pattern().search(turn_text(t))]
    assert fast.all() == slow
    if needle not in ("ÉLEVÉE", "x?y*z{0,3}"):
        assert query.raw() is not None and fast.skip, "the raw scan must have ruled turns out"
    if needle in ("élevée: gpu", "out of (memory|disk)", r'"quoted" \\ back'):
        assert len(slow) == 1


@pytest.mark.parametrize(
    ("needle", "regex", "raw"),
    [
        ("out of memory", False, (b"out of memory", True)),
        ("Out of", False, (b"Out of", False)),
        ("héllo wörld", False, (b"llo w", True)),
        ('say "zz', False, (b"say ", True)),
        ("é", False, None),
        ("zz+qq", True, (b"qq", True)),
        ("(?i)ABC", True, (b"abc", True)),
        ("a|bcd", True, None),  # either side may match: neither is certain
        ("x(abcd)+y", True, (b"abcd", True)),
        ("x(abcd)?y", True, None),
        ("(?i:abcd)EF", True, (b"EF", False)),  # the group's own flag: left out
        ("[ab]cde", True, (b"cde", True)),
    ],
)
def test_the_piece_looked_for_in_the_file(needle: str, regex: bool, raw: object) -> None:
    assert Query(needle, regex).raw() == raw


def test_a_long_scan_says_how_far_it_got(tmp_path: Path) -> None:
    path = claude_file(tmp_path)
    reader = open_reader(find_sessions([path]).refs[0])
    reader.poll(final=True)
    told: list[tuple[str, int, int]] = []
    finder = Finder(
        reader.session.turns, Query("no such text"), str(path), progress=lambda *a: told.append(a)
    )
    size = path.stat().st_size
    assert told and told[-1] == ("file", size, size)
    assert finder.all() == []


@pytest.mark.parametrize("chunk", [1, 2, 5, 7, 64])
@pytest.mark.parametrize("fold", [True, False])
def test_the_raw_scan_finds_every_start_across_block_seams(
    tmp_path: Path, chunk: int, fold: bool
) -> None:
    path = tmp_path / "session.jsonl"
    data = b'{"a":"Abab aBAB ab"}\n{"b":"xxabaXABAB"}\nABA'
    path.write_bytes(data)
    hay = data.lower() if fold else data
    for needle in (b"ab", b"aba", b"abab", b"x", b"aba\n"):
        expected = [n for n in range(len(hay)) if hay.startswith(needle, n)]
        found = list(raw_hits(str(path), needle, fold, lambda: False, chunk=chunk))
        assert found == expected, (needle, chunk)
