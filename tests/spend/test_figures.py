"""Large figures read as a person says them: a billion tokens is `1.5 B`, not `1534.6 M`;
a run of days is `9 d 20 h`, not `235 h 38 min` (the daily-use audit's finds)."""

from __future__ import annotations

import pytest

from pivotal.spend.words import count, duration


@pytest.mark.parametrize(
    ("tokens", "said"),
    [
        (950, "950"),
        (1_234, "1.2 k"),
        (45_200, "45 k"),
        (999_499, "999 k"),
        (1_234_567, "1.2 M"),
        (999_949_999, "999.9 M"),
        (999_950_000, "1.0 B"),
        (1_534_600_000, "1.5 B"),
        (2_398_000_000, "2.4 B"),
        (123_400_000_000, "123.4 B"),
    ],
)
def test_token_counts_take_the_unit_that_keeps_them_short(tokens: int, said: str) -> None:
    assert count(tokens) == said


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (40, "40 s"),
        (47 * 60, "47 min"),
        (3 * 3600 + 12 * 60, "3 h 12 min"),
        (23 * 3600 + 59 * 60, "23 h 59 min"),
        (24 * 3600, "1 d"),
        (235 * 3600 + 38 * 60 + 24, "9 d 20 h"),  # 235:38:24, to the nearest hour
        (3 * 86400 + 4 * 3600 + 10 * 60, "3 d 4 h"),
    ],
)
def test_a_span_of_days_is_said_in_days_and_hours(seconds: int, said: str) -> None:
    assert duration(seconds) == said


def test_the_stats_spend_lines_say_billions() -> None:
    from pivotal.catalog.stats import _spent

    line = _spent({"tokens": 2_400_500_000, "cost_usd": 1733.0, "count": 3})
    assert line.startswith("2.4 B tokens, $1,733"), line
