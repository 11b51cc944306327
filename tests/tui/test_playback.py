"""The playback model on its own: moves, filters, pacing and auto-pause (no Textual)."""

from __future__ import annotations

from pivotal.tui.pacing import FASTEST, IDLE_LIMIT, Pace
from pivotal.tui.playback import FRAME, Filter, Playback

from .sessions import demo_pivots, demo_turns


def playback(**kwargs: object) -> Playback:
    pb = Playback(**kwargs)  # type: ignore[arg-type]
    pb.set_turns(demo_turns())
    pb.set_pivots(demo_pivots())
    pb.set_failures([1, 2, 3])
    return pb


def test_steps_stop_at_the_ends() -> None:
    pb = playback()
    assert pb.step(-1) is None and pb.cursor == 0
    assert pb.step(1) == 1
    pb.last()
    assert pb.cursor == 27 and pb.step(1) is None


def test_pivot_and_failure_jumps() -> None:
    pb = playback()
    assert [pb.next_pivot(), pb.next_pivot(), pb.next_pivot()] == [5, 24, None]
    assert pb.prev_pivot() == 5 and pb.prev_pivot() is None
    pb.first()
    assert [pb.next_failure(), pb.next_failure(), pb.next_failure(), pb.next_failure()] == [
        1,
        2,
        3,
        None,
    ]
    assert pb.prev_failure() == 2


def test_pivot_at_or_before_cursor() -> None:
    pb = playback()
    assert pb.pivot_at_or_before() is None
    pb.goto(10)
    assert pb.pivot_at_or_before().turn == 5  # type: ignore[union-attr]
    pb.goto(26)
    assert pb.pivot_at_or_before().turn == 24  # type: ignore[union-attr]


def test_percent_jumps() -> None:
    pb = playback()
    assert pb.percent(0) == 0
    assert pb.percent(5) == 14
    assert pb.percent(9) == 25


def test_filters_limit_what_is_shown_and_visited() -> None:
    pb = playback()
    pb.goto(13)
    pb.set_filter(Filter.HUMAN)
    assert all(pb.turns[i].is_human for i in pb.visible)
    assert pb.cursor == 13 and pb.cursor_filtered_out  # the filter keeps the person's place
    assert pb.shown()[-2:] == [12, 13]  # shown last, after the filter's turns before it
    assert pb.step(1) == 14 and not pb.cursor_filtered_out
    assert pb.step(-1) == 12
    pb.set_filter(Filter.PIVOTS)
    assert pb.visible == [5, 24, 25, 26]
    pb.set_filter(Filter.FAILURES)
    assert pb.visible == [1, 2, 3]
    assert pb.cycle_filter() is Filter.ALL


def test_shown_is_visible_turns_up_to_cursor() -> None:
    pb = playback()
    pb.goto(3)
    assert pb.shown() == [0, 1, 2, 3]


def test_turns_per_second_is_what_it_says() -> None:
    pb = playback()
    assert pb.delay_to_next() == 1.0 and pb.pace.label() == "1 turn/s"
    assert pb.faster() == "2 turns/s" and pb.delay_to_next() == 0.5
    pb.slower()
    pb.slower()
    assert pb.speed == 0.5 and pb.delay_to_next() == 2.0


def test_any_speed_in_range_is_kept_and_a_clamp_is_said() -> None:
    pace = Pace()
    assert pace.set_speed(3) == "" and pace.speed == 3  # it was taken for 2 before
    assert "outside 1/16–1000: playing at 1000" in pace.set_speed(5000)
    assert pace.speed == FASTEST and "top speed" in pace.faster()
    assert "playing at 1/16" in pace.set_speed(0)
    assert "lowest" in pace.slower()


def test_real_time_scales_the_recorded_gaps_and_cuts_idle_ones() -> None:
    pb = playback()
    pb.pace = Pace(realtime=True)
    for turn, at in zip(pb.turns[:4], [0.0, 0.5, 30.0, 30.2], strict=True):
        turn.timestamp = 1000 + at
    assert pb.pace.label() == "real time ×1 · idle ≤ 2 s"
    assert pb.delay_to_next() == 0.5  # a recorded half second is half a second
    pb.goto(1)
    assert pb.delay_to_next() == IDLE_LIMIT  # 29.5 s idle: cut to the limit
    pb.pace.set_speed(4)
    assert pb.delay_to_next() == IDLE_LIMIT / 4
    pb.goto(2)
    assert abs(pb.delay_to_next() - 0.2 / 4) < 1e-9
    pb.pace.idle_limit = 10
    pb.goto(1)
    assert pb.delay_to_next() == 10 / 4
    pb.turns[2].timestamp = None  # no time: a second after the one before
    assert pb.delay_to_next() == 1 / 4


def test_fast_play_reveals_several_turns_per_frame_and_still_stops_at_pivots() -> None:
    pb = playback(autopause=False)
    pb.pace.set_speed(300)  # 10 turns per 1/30 s frame: the first, and 9 more due in it
    pb.playing = True
    moved, stopped = pb.advance(FRAME - 1 / 300)
    assert (moved, stopped) == (10, False) and pb.playing
    pb = playback()
    pb.pace.set_speed(1000)
    pb.playing = True
    moved, stopped = pb.advance(FRAME)
    assert (moved, stopped) == (5, True) and not pb.playing  # the pivot at turn #6


def test_advance_pauses_at_pivot_only_with_autopause() -> None:
    pb = playback()
    pb.goto(4)
    pb.playing = True
    assert pb.advance() == (5, True) and not pb.playing
    pb = playback(autopause=False)
    pb.goto(4)
    pb.playing = True
    assert pb.advance() == (5, False) and pb.playing


def test_advance_at_end_stops() -> None:
    pb = playback()
    pb.last()
    pb.playing = True
    assert pb.advance() == (None, False) and not pb.playing


def test_empty_session_never_moves() -> None:
    pb = Playback()
    assert pb.step(1) is None and pb.first() is None and pb.percent(5) is None
    assert pb.goto(3) is None and pb.next_pivot() is None
