"""Possible pivots in the replayer (issue 30, Deliver 4): a silence whose confidence is in
the band just under the bar has its own hollow ◇ on the bar and on its turn, is never
paused at, has its own keys (w / W), is explained by the panel (its signals, why it stayed
under the bar) and is never counted with the pivots ("2 pivots · 1 possible").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec.structs import replace

from pivotal.detect.evaluate import Rejection
from pivotal.model import Pivot, PivotKind, Signal, Silence, StateChange
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.keys import HELP_GROUPS, PALETTE_KEYS, bindings
from pivotal.tui.loading import analyse
from pivotal.tui.screens import LEGEND

from .conftest import replay, wait_for
from .sessions import demo_pivots, demo_session, human

DEMO = Path(__file__).parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"
SIZES = [(160, 48), (80, 24)]
MAYBE = 12
"""The possible pivot's turn: a bare "ok" in the middle of the benchmark runs."""


def possible_pivot() -> Pivot:
    return Pivot(
        turn=MAYBE,
        kind=PivotKind.IMPLICIT_APPROVAL,
        silence=Silence.ACK,
        confidence=0.55,
        cluster=[MAYBE],
        signals=[
            Signal("silence", [MAYBE], "the person only said go on", 0.17, "silence", ["ok"]),
            Signal(
                "milestone",
                [11],
                "success reported",
                0.2,
                "before",
                ["**Benchmark 1:** 107 tok/s"],
            ),
            Signal("autonomous action", [13], "1 tool call(s) without asking", 0.18, "after", []),
        ],
        state=StateChange(phase_before="benchmarking", phase_after="benchmarking"),
        summary="You said 'ok' after the agent reported a milestone; it then acted on its own.",
        possible=True,
    )


def app_with_possible(**kwargs: object) -> ReplayerApp:
    session = demo_session()
    ok = human("ok")
    ok.index, ok.timestamp = MAYBE, session.turns[MAYBE].timestamp
    session.turns[MAYBE] = ok
    pivots = [*demo_pivots(), possible_pivot()]
    return ReplayerApp(session=session, pivots=pivots, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", SIZES)
async def test_a_possible_pivot_has_its_own_hollow_marker_on_the_bar_and_its_turn(size) -> None:  # type: ignore[no-untyped-def]
    app = app_with_possible(at=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = replay(app)
        timeline = screen.timeline
        bar = timeline.render_line(0).text
        width = timeline.size.width
        assert bar[timeline.column_of(MAYBE, width)] == "◇"
        assert bar.count("✦") == 2  # the two pivots keep theirs; ◇ is neither ✦ nor ✧
        banner = screen.transcript.rendered(MAYBE).strips[0].text
        assert banner.lstrip("▏ ").startswith("◇ possible pivot")
        assert "✦" not in banner and "PIVOT" not in banner  # told apart without colour
        status = timeline.status().plain
        assert ("2 pivots · 1 possible" if size[0] == 160 else "2 pivots") in status


async def test_playing_never_pauses_at_a_possible_pivot() -> None:
    app = app_with_possible(at=MAYBE - 2)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = replay(app)
        await pilot.press("space")
        for _ in range(6):
            screen.tick()
        await pilot.pause()
        assert screen.playback.cursor > MAYBE and screen.playback.playing
        for _ in range(30):
            if not screen.playback.playing:
                break
            screen.tick()
        await pilot.pause()
        assert screen.playback.cursor == 24 and not screen.playback.playing  # the pivot


async def test_w_and_shift_w_jump_to_possible_pivots_and_the_panel_explains_one() -> None:
    app = app_with_possible(at=0)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = replay(app)
        await pilot.press("w")
        await pilot.pause()
        assert screen.playback.cursor == MAYBE
        text = screen.panel.text.plain
        lines = text.splitlines()
        heading = f"◇ Possible pivot 1/1 · turn #{MAYBE + 1} · implicit approval"
        assert lines[0] == heading + " — silence taken as a yes"  # the banner's name, glossed
        bar = f"{app.config.min_confidence:.2f}"
        said = f"Not paused at: it stayed just under the bar (0.55; a pivot needs {bar})."
        assert lines[1] == said
        assert "Why it stayed under the bar" in text
        # nothing held it down: it says so, and names the strongest evidence (not the silence)
        assert "did not add up to the bar; the most was: success reported" in text
        assert "doing        still benchmarking" in text  # not "benchmarking → benchmarking"
        assert "“**Benchmark 1:** 107 tok/s”" in text  # the session's text, as written
        weights = text.index("Weights")
        assert text.index("+0.20") > weights and "confidence 0.55" in text[weights:]
        await pilot.press("w")
        await pilot.pause()
        assert screen.playback.cursor == MAYBE and screen.status == "no later possible pivot"
        await pilot.press("G", "W")
        await pilot.pause()
        assert screen.playback.cursor == MAYBE
        await pilot.press("backspace")  # a jump like any other
        await pilot.pause()
        assert screen.playback.cursor == 27


async def test_pivot_keys_counts_and_numbers_leave_possible_pivots_out() -> None:
    app = app_with_possible(at=5)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = replay(app)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert screen.playback.cursor == 24  # ] goes past the possible pivot to the pivot
        assert screen.panel.text.plain.startswith("Pivot 2/2 ")
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert screen.playback.cursor == 5
        assert screen.panel.text.plain.startswith("Pivot 1/2 ")
        await pilot.press("backslash", "backslash")  # the pivots filter: pivots only
        await pilot.pause()
        assert MAYBE not in screen.playback.visible


async def test_between_a_pivot_and_a_later_possible_one_the_panel_explains_the_nearer() -> None:
    app = app_with_possible(at=MAYBE + 3)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = replay(app)
        assert screen.panel.text.plain.startswith("◇ Possible pivot 1/1")
        await pilot.press("colon", *"9", "enter")
        await pilot.pause()
        assert screen.playback.cursor == 8
        assert screen.panel.text.plain.startswith("Pivot 1/2 ")


def test_the_keys_the_help_and_the_legend_name_them() -> None:
    keys = [key for b in bindings() for key in b.key.split(",")]
    assert len(keys) == len(set(keys))  # no key does two things
    assert "w" in keys and "W" in keys and "{" not in keys and "}" not in keys
    assert PALETTE_KEYS["next_possible"] == "w" and PALETTE_KEYS["prev_possible"] == "W"
    rows = dict(row for _, group in HELP_GROUPS for row in group)
    assert "possible pivot" in rows["w"].lower() and "possible pivot" in rows["W"].lower()
    assert any(glyph == "◇" and "never paused at" in what for glyph, what in LEGEND)


async def test_the_reading_worker_judges_each_silence_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Pivots, possible pivots and turned-down silences come from one pass of the detector."""
    import pivotal.detect.tracker as tracker

    judged: list[int] = []
    real = tracker.judge

    def counting(turns, anchor, *args):  # type: ignore[no-untyped-def]
        judged.append(anchor)
        return real(turns, anchor, *args)

    monkeypatch.setattr(tracker, "judge", counting)
    # at `low` the demo has all three: turn #31 (0.71) is under that bar, in the band
    app = ReplayerApp(find_sessions([DEMO]).refs[0], sensitivity="low")
    async with app.run_test(size=(160, 48)):
        screen = replay(app)
        await wait_for(lambda: screen.analysed)
        pb = screen.playback
        assert pb.possible and pb.rejections and pb.pivots
        verdicts = sorted(
            [p.turn for p in (*pb.pivots, *pb.possible)] + [r.turn for r in pb.rejections]
        )
        assert sorted(judged) == verdicts  # each silence judged once, none twice


def test_the_live_analyser_hands_over_possible_pivots_and_rejections_as_the_batch_does() -> None:
    from pivotal.tui.live_feed import Analyser

    from .test_session_name import read_all

    turns = read_all(DEMO).turns
    analyser = Analyser()
    judged, _ = analyser.update(turns[:40], 0)
    judged, _ = analyser.update(turns, 40)
    batch = analyse(turns)
    assert [p.turn for p in judged if p.possible] == [p.turn for p in batch.possible]
    assert [p.turn for p in judged if not p.possible] == [p.turn for p in batch.pivots]
    assert [r.turn for r in analyser.rejections] == [r.turn for r in batch.rejections]
    assert all(isinstance(r, Rejection) for r in analyser.rejections)


def test_a_possible_pivot_with_evidence_against_says_what_held_it_down() -> None:
    from pivotal.tui.pivot_story import pivot_text

    held = Signal("mid-task", [11], "the agent was still working", -0.2, "before", [])
    pivot = possible_pivot()
    pivot = replace(pivot, signals=[*pivot.signals, held], confidence=0.35)
    text = pivot_text(pivot, 1, 1, bar=0.62).plain
    why = text[text.index("Why it stayed under the bar") :]
    assert why.splitlines()[1] == "• the agent was still working"
    assert text.index("What speaks against") > text.index("What points to a pivot")
