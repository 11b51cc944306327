"""The time since the session started, as the status line shows it.

At 80 columns the status line has no room for `/ total`; a bare `22:31` beside a turn
stamped `21:59:23` reads as half past ten at night. The short form says what it is.
"""

from __future__ import annotations

from pivotal.tui.status_line import Part, clock, fit, since_start


def test_the_short_form_cannot_be_read_as_a_time_of_day() -> None:
    assert since_start(22 * 60 + 31) == "22m31s"
    assert since_start(3600 + 3 * 60 + 17) == "1h03m"
    assert since_start(-4) == "0m00s"
    assert clock(22 * 60 + 31) == "22:31"  # the full form, beside its total, is unchanged


def test_a_narrow_line_shows_the_short_form() -> None:
    elapsed = Part("1:03:17 / 3:37:17", since_start(3797), 3)
    place = Part("turn 17/68 · 25%", "17/68 25%", 8)
    assert fit([place, elapsed], 80) == "turn 17/68 · 25% │ 1:03:17 / 3:37:17"
    assert fit([place, elapsed], 26) == "turn 17/68 · 25% │ 1h03m"


def test_the_span_counts_the_whole_seconds_the_turns_show() -> None:
    """A turn stamped 15:15:58 in a session that began at 14:00:00 is 1:15:58 in, even when
    the fractions underneath (14:00:00.9, 15:15:58.1) are 1:15:57.2 apart."""
    from pivotal.model import Role, SourceRef, Turn
    from pivotal.tui.playback import Playback

    start = 1_780_000_000.9
    turns = [
        Turn(0, Role.USER, timestamp=start, source=SourceRef(line=1)),
        Turn(1, Role.ASSISTANT, timestamp=start - 0.9 + 4558.1, source=SourceRef(line=2)),
    ]
    playback = Playback(turns, [])
    playback.cursor = 1
    elapsed, duration = playback.clock()
    assert clock(elapsed) == "1:15:58" and clock(duration) == "1:15:58"


def test_a_span_of_days_is_a_clock_of_days_not_of_hundreds_of_hours() -> None:
    """A session resumed over nine days read `0:00 / 235:38:24` (the audit): under a day the
    status line keeps its clock, from a day on it counts days and hours."""
    nine_days = 235 * 3600 + 38 * 60 + 24
    assert clock(nine_days) == "9d 19h"  # a clock: the hours gone, not rounded up
    assert since_start(nine_days) == "9d19h"
    assert clock(86_399) == "23:59:59" and clock(86_400) == "1d 00h"
    assert since_start(86_399) == "23h59m" and since_start(26 * 3600) == "1d02h"
    elapsed = Part(f"{clock(0)} / {clock(nine_days)}", since_start(0), 3)
    assert fit([elapsed], 80) == "0:00 / 9d 19h"


def test_a_call_that_ran_for_hours_says_hours() -> None:
    from pivotal.tui.render import format_duration

    assert format_duration(44) == "44 ms" and format_duration(90_000) == "1.5 min"
    assert format_duration(3_600_000 * 2 + 5 * 60_000) == "2 h 5 min"
    assert format_duration(842_472_000) == "9 d 18 h"  # not 14041.2 min


def test_a_turn_list_changed_from_its_start_is_timed_from_its_own_first_turn() -> None:
    """A followed file replaced by an older session with more turns kept the old first stamp:
    every turn of the new one was before it, and the clock read 0:00 for good."""
    from pivotal.model import Role, SourceRef, Turn
    from pivotal.tui.playback import Playback

    def session(start: float, count: int, gap: float) -> list[Turn]:
        role = (Role.USER, Role.ASSISTANT)
        return [
            Turn(i, role[i % 2], timestamp=start + i * gap, source=SourceRef(line=i + 1))
            for i in range(count)
        ]

    playback = Playback(session(1_800_000_000.0, 3, 40.0), [])
    playback.cursor = 2
    assert playback.clock() == (80.0, 80.0)
    playback.set_turns(session(1_700_000_000.0, 8, 600.0), 0)  # reloaded: another file
    playback.cursor = 7
    assert playback.clock() == (4200.0, 4200.0)
    # a change inside the list (the last turn rewritten) looks the stamps up again too
    rewritten = session(1_700_000_000.0, 8, 600.0)
    rewritten[7] = Turn(7, Role.ASSISTANT, timestamp=1_700_005_000.0, source=SourceRef(line=8))
    playback.set_turns(rewritten, 7)
    assert playback.clock() == (5000.0, 5000.0)
    # turns added after the known ones keep the start
    playback.set_turns([*rewritten, *session(1_700_006_000.0, 1, 0.0)])
    assert playback.clock() == (5000.0, 6000.0)


class _Counted(list):
    """A turn list that counts the turns looked up one by one (a slice counts once)."""

    looked = 0

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        type(self).looked += 1
        return super().__getitem__(key)


def test_the_clock_never_runs_back_and_a_growing_session_is_read_in_its_new_turns() -> None:
    """Times do not always rise (a tool result stamped a second before its call, a resumed
    file's copied message typed hours earlier): the elapsed time is the latest time up to
    the cursor, the total the latest of all, not the last turn's. Live follow appends turns
    many times a second: each look at the clock reads the new ones only."""
    from pivotal.model import Role, SourceRef, Turn
    from pivotal.tui.playback import Playback

    start = 1_800_000_000.0
    offsets = [0.0, 30.0, 28.0, 90.0, -3600.0, 120.0]
    turns = _Counted(
        Turn(i, (Role.USER, Role.ASSISTANT)[i % 2], timestamp=start + o, source=SourceRef(line=i))
        for i, o in enumerate(offsets)
    )
    playback = Playback(turns, [])
    shown = []
    for cursor in range(len(turns)):
        playback.cursor = cursor
        shown.append(playback.clock())
    assert [elapsed for elapsed, _ in shown] == [0.0, 30.0, 30.0, 90.0, 90.0, 120.0]
    assert {total for _, total in shown} == {120.0}
    late = Turn(6, Role.ASSISTANT, timestamp=start + 100.0, source=SourceRef(line=6))
    grown = _Counted([*turns, late])
    playback.set_turns(grown)  # followed live: a turn stamped before the latest arrives
    playback.cursor = 6
    _Counted.looked = 0
    assert playback.clock() == (120.0, 120.0)
    assert _Counted.looked <= 2  # the new turn and the cursor's, not the whole session
    _Counted.looked = 0
    assert playback.clock() == (120.0, 120.0)
    assert _Counted.looked <= 1
