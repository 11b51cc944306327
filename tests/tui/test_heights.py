"""The transcript's turn heights per layout (tui/heights.py): `p` and `t` toggle between two."""

from __future__ import annotations

from pivotal.tui.heights import Heights


def laid_out(heights: Heights, width: int, values: dict[int, int]) -> None:
    heights.switch(width)
    heights.measured.update(values)
    heights.estimates.update(values)


def test_switching_back_brings_the_other_widths_heights_back() -> None:
    heights = Heights()
    laid_out(heights, 113, {0: 3, 1: 7})
    assert heights.switch(160)
    assert heights.measured == {} and heights.estimates == {}  # another width: measure again
    laid_out(heights, 160, {0: 2, 1: 5})
    assert heights.switch(113)
    assert heights.measured == {0: 3, 1: 7} and heights.estimates == {0: 3, 1: 7}
    assert not heights.switch(113)  # the same width changes nothing
    assert heights.switch(160) and heights.measured == {0: 2, 1: 5}


def test_a_layout_is_the_width_and_whether_reasoning_is_shown() -> None:
    heights = Heights()
    laid_out(heights, (113, False), {0: 3})
    laid_out(heights, (113, True), {0: 9})  # t: the same width, reasoning shown
    heights.switch((113, False))
    assert heights.measured == {0: 3}


def test_only_the_last_other_width_is_kept() -> None:
    heights = Heights()
    laid_out(heights, 100, {0: 4})
    laid_out(heights, 110, {0: 3})
    laid_out(heights, 120, {0: 2})
    heights.switch(100)  # two widths ago: gone (a resize passes through many widths)
    assert heights.measured == {}


def test_a_turn_that_changed_is_measured_again_at_every_width() -> None:
    heights = Heights()
    laid_out(heights, 113, {0: 3, 1: 7})
    laid_out(heights, 160, {0: 2, 1: 5})
    heights.drop(1)
    assert heights.measured == {0: 2}
    heights.switch(113)
    assert heights.measured == {0: 3}


def test_forgetting_turns_drops_the_other_width_entirely() -> None:
    heights = Heights()
    laid_out(heights, 113, {0: 3, 1: 7, 2: 1})
    laid_out(heights, 160, {0: 2, 1: 5, 2: 1})
    heights.forget(lambda index: index >= 1)  # the session changed from turn 1 on
    assert heights.measured == {0: 2} and heights.estimates == {0: 2}
    heights.switch(113)
    assert heights.measured == {} and heights.estimates == {}


def test_new_colours_measure_everything_again_but_keep_the_guesses() -> None:
    heights = Heights()
    laid_out(heights, 113, {0: 3})
    laid_out(heights, 160, {0: 2})
    heights.restyled()
    assert heights.measured == {} and heights.estimates == {0: 2}
    heights.switch(113)
    assert heights.measured == {}


def test_a_new_layout_of_the_same_width_starts_from_its_guesses_not_its_measures() -> None:
    heights = Heights()
    heights.switch((113, False), 113)
    heights.guess(0, 4)
    heights.guess(1, 6)
    heights.measured[1] = heights.estimates[1] = 9  # turn 1 rendered: 9 lines without reasoning
    assert heights.switch((113, True), 113)  # t: reasoning shown, same width
    assert heights.estimates == {0: 4, 1: 6} and heights.measured == {}
    heights.guess(2, 3)
    assert heights.switch((150, True), 150)  # p: another width, nothing to start from
    assert heights.estimates == {}
    heights.switch((113, False), 113)  # two layouts ago: gone, but the guesses at 113 are kept
    assert heights.estimates == {0: 4, 1: 6, 2: 3} and heights.measured == {}


def test_guesses_of_changed_turns_are_forgotten() -> None:
    heights = Heights()
    heights.switch((113, False), 113)
    heights.guess(0, 4)
    heights.guess(5, 2)
    heights.forget(lambda index: index >= 5)
    heights.switch((113, True), 113)
    assert heights.estimates == {0: 4}


def test_the_spare_widths_guesses_outlive_switches_until_another_spare() -> None:
    heights = Heights()
    heights.switch((113, False), 113)
    heights.spare(160)[0] = 5  # guessed while idle: the panel hidden would give 160
    heights.switch((113, True), 113)
    heights.switch((100, True), 100)  # a resize through another width
    assert heights.switch((160, True), 160) and heights.estimates == {0: 5}
    heights.spare(150)  # another spare: the old one's guesses go (160 is the layout now)
    heights.switch((113, True), 113)
    heights.switch((100, True), 100)
    heights.switch((160, False), 160)
    assert heights.estimates == {}


def test_what_the_view_keeps_with_a_layout_comes_back_with_it_and_goes_with_its_heights() -> None:
    heights = Heights()
    laid_out(heights, 113, {0: 3})
    heights.kept = "offsets at 113"
    laid_out(heights, 160, {0: 2})
    assert heights.kept is None  # a layout not seen before: nothing kept
    heights.kept = "offsets at 160"
    heights.switch(113)
    assert heights.kept == "offsets at 113"
    heights.switch(160)
    assert heights.kept == "offsets at 160"
    heights.kept = "offsets at 160"
    heights.forget(lambda index: index == 0)  # the turns changed: the other layout's go too
    heights.switch(113)
    assert heights.kept is None


def test_redo_measures_a_turn_again_in_every_layout_and_drops_the_kept_offsets() -> None:
    """The cursor's turn became (or stopped being) the filter's stand-in: its height is
    known in no layout, and the other layout's offsets, summed with the old one, go."""
    heights = Heights()
    laid_out(heights, 113, {0: 3, 1: 7})
    heights.kept = ([0, 1], [0, 3, 10])
    laid_out(heights, 160, {0: 2, 1: 5})
    heights.redo({1})
    assert heights.measured == {0: 2} and heights.estimates == {0: 2}
    heights.kept = "the view's own"
    assert heights.switch(113)
    assert heights.measured == {0: 3} and heights.estimates == {0: 3}
    assert heights.kept is None
