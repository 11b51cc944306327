"""Garbage collection waits for a pause between keys (tui/collector.py).

Driven with a stand-in app (it only needs `set_interval`) and the clock the
collector reads, so nothing here depends on how fast the machine is.
"""

from __future__ import annotations

import gc

import pytest

from pivotal.tui import collector as module
from pivotal.tui.collector import CEILING, FLOOR, QUIET, SETTLE, IdleCollector


class StandInApp:
    def __init__(self) -> None:
        self.intervals: list[tuple[float, object]] = []

        self.after_refresh: list[object] = []
        self.timers: list[tuple[float, object]] = []

    def set_interval(self, every: float, callback: object, name: str = "") -> None:
        self.intervals.append((every, callback))

    def call_after_refresh(self, callback: object) -> None:
        self.after_refresh.append(callback)

    def set_timer(self, delay: float, callback: object) -> None:
        self.timers.append((delay, callback))

    def fire_timers(self) -> None:
        waiting, self.timers = self.timers, []
        for _, callback in waiting:
            callback()  # type: ignore[operator]

    def refresh(self) -> None:
        """A frame was drawn: what waited for it runs."""
        waiting, self.after_refresh = self.after_refresh, []
        for callback in waiting:
            callback()  # type: ignore[operator]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    now = [1000.0]
    monkeypatch.setattr(module, "monotonic", lambda: now[0])
    return now


class Collections:
    """gc.collect calls (`made`: how many objects waited, and the generation asked for)."""

    def __init__(self) -> None:
        self.made: list[tuple[int, ...]] = []
        self.waiting = 0


@pytest.fixture
def collections(monkeypatch: pytest.MonkeyPatch) -> Collections:
    seen = Collections()
    monkeypatch.setattr(module.gc, "collect", lambda *a: seen.made.append((seen.waiting, *a)) or 0)
    monkeypatch.setattr(module.gc, "get_count", lambda: (seen.waiting, 0, 0))
    return seen


@pytest.fixture(autouse=True)
def collector_back_on():  # type: ignore[no-untyped-def]
    yield
    gc.enable()
    gc.unfreeze()


def test_start_turns_the_automatic_collector_off_and_ticks(clock, collections) -> None:  # type: ignore[no-untyped-def]
    app = StandInApp()
    idle = IdleCollector(app)  # type: ignore[arg-type]
    idle.start()
    assert not gc.isenabled()
    assert len(app.intervals) == 1
    idle.start()  # a second analysis (the live file grew) adds no second timer
    assert len(app.intervals) == 1
    idle.stop()
    assert gc.isenabled()


def test_collects_only_when_no_key_came_for_a_while(clock, collections) -> None:  # type: ignore[no-untyped-def]
    idle = IdleCollector(StandInApp())  # type: ignore[arg-type]
    idle.start()
    collections.waiting = FLOOR * 5
    idle.key()
    clock[0] += QUIET / 2
    idle.tick()
    assert collections.made == []  # keys are coming: not now
    clock[0] += QUIET
    idle.tick()
    assert collections.made == [(FLOOR * 5,)]  # a full collection


def test_little_garbage_waits_even_in_a_pause(clock, collections) -> None:  # type: ignore[no-untyped-def]
    idle = IdleCollector(StandInApp())  # type: ignore[arg-type]
    idle.start()
    collections.waiting = FLOOR - 1
    clock[0] += QUIET * 10
    idle.tick()
    assert collections.made == []


def test_keys_held_down_get_a_young_collection_after_a_frame(clock, collections) -> None:  # type: ignore[no-untyped-def]
    app = StandInApp()
    idle = IdleCollector(app)  # type: ignore[arg-type]
    idle.start()
    collections.waiting = CEILING
    idle.key()
    idle.tick()
    assert collections.made == []  # not between the key and its frame
    idle.tick()  # a second tick before the frame asks for no second collection
    clock[0] += 2 * SETTLE
    app.refresh()
    assert collections.made == [(CEILING, 0)]  # the youngest generation only
    app.refresh()
    assert collections.made == [(CEILING, 0)]


def test_a_young_collection_waits_for_a_key_just_pressed(clock, collections) -> None:  # type: ignore[no-untyped-def]
    # Ctrl+D's frame waits on a scroll: the screen is idle before it, and runs what
    # waited for "after the frame" there: the collection must not be in that key
    app = StandInApp()
    idle = IdleCollector(app)  # type: ignore[arg-type]
    idle.start()
    collections.waiting = CEILING
    idle.key()
    clock[0] += 2 * SETTLE
    idle.tick()  # keys keep coming: a young collection after the next frame
    idle.key()  # ... and one more came just before that frame
    app.refresh()
    assert collections.made == [] and len(app.timers) == 1
    clock[0] += 2 * SETTLE
    app.fire_timers()
    app.refresh()
    assert collections.made == [(CEILING, 0)]


def test_far_too_many_waiting_are_collected_even_right_after_a_key(clock, collections) -> None:  # type: ignore[no-untyped-def]
    app = StandInApp()
    idle = IdleCollector(app)  # type: ignore[arg-type]
    idle.start()
    collections.waiting = 4 * CEILING
    idle.key()
    idle.tick()
    app.refresh()
    assert collections.made == [(4 * CEILING, 0)]


def test_a_reader_that_turned_collection_back_on_is_undone(clock, collections) -> None:  # type: ignore[no-untyped-def]
    idle = IdleCollector(StandInApp())  # type: ignore[arg-type]
    idle.start()
    gc.enable()  # what readers/base.py's pause does when it ends
    idle.tick()
    assert not gc.isenabled()
