"""asciicast v2 and v3 exports, checked against the specs (docs.asciinema.org/manual/asciicast).

Spec points checked: newline-delimited JSON; the first line is the header
object and not a comment; `version` is the integer 2 or 3; v3: `term` is an
object with integer `cols` and `rows`; v2: integer `width` and `height`;
optional `timestamp` integer, `idle_time_limit` float, `title` string; every
later line is a 3-element array `[time, code, data]` with a code among
o/i/m/r/x and string data, where time is a non-negative float interval since
the previous event (v3) or a non-decreasing time since the start (v2); `m` is
a marker whose data is its label. The real players are in test_cast_players.py.
"""

from __future__ import annotations

import json
import re

import pytest

from pivotal.export import render

from .conftest import SECRET_VALUES

CODES = {"o", "i", "m", "r", "x"}
OUR_SGR = re.compile(r"\x1b\[[0-9;]*m")


def parse_cast(text: str, version: int = 2) -> tuple[dict, list[tuple[float, str, str]]]:
    """Header and events, each event's time given as the interval since the previous one."""
    lines = text.split("\n")
    assert lines[-1] == "", "file ends with a newline"
    lines = lines[:-1]
    assert not lines[0].startswith("#")
    header = json.loads(lines[0])
    assert isinstance(header, dict)
    assert header["version"] == version and type(header["version"]) is int
    if version == 3:
        term = header["term"]
        assert isinstance(term, dict)
        size = (term["cols"], term["rows"])
    else:
        assert "term" not in header
        size = (header["width"], header["height"])
    assert all(type(n) is int and n > 0 for n in size)
    if "timestamp" in header:
        assert type(header["timestamp"]) is int
    if "idle_time_limit" in header:
        assert isinstance(header["idle_time_limit"], int | float)
    if "title" in header:
        assert isinstance(header["title"], str)
    events = []
    previous = 0.0
    for line in lines[1:]:
        if line.startswith("#"):
            continue
        event = json.loads(line)
        assert isinstance(event, list) and len(event) == 3, line
        when, code, data = event
        assert isinstance(when, int | float) and not isinstance(when, bool)
        assert when >= 0
        if version == 2:
            assert when >= previous, "v2 times never go back"
            interval, previous = round(when - previous, 3), when
        else:
            interval = when
        assert code in CODES and isinstance(data, str)
        if code == "r":
            assert re.fullmatch(r"\d+x\d+", data)
        events.append((float(interval), code, data))
    return header, events


VERSIONS = pytest.mark.parametrize("version", [2, 3])


@VERSIONS
def test_valid_cast_with_one_marker_per_pivot(demo_input, version):
    header, events = parse_cast(render("cast", demo_input, cast_version=version), version)
    if version == 3:
        assert header["term"] == {"cols": 100, "rows": 30, "type": "xterm-256color"}
    else:
        assert (header["width"], header["height"]) == (100, 30)
        assert header["env"] == {"TERM": "xterm-256color"}
    assert header["timestamp"] == int(demo_input.session.started)
    assert header["idle_time_limit"] == 2.0
    assert header["title"].startswith("pivotal: ")
    markers = [(i, data) for i, (_, code, data) in enumerate(events) if code == "m"]
    assert len(markers) == len(demo_input.pivots)
    for (position, label), pivot in zip(markers, demo_input.pivots, strict=True):
        assert f"turn #{pivot.turn + 1}" in label and str(pivot.kind) in label
        # the player stops right after the silent turn and the pivot banner are on screen
        shown = "".join(data for _, code, data in events[:position] if code == "o")
        last_turn = re.findall(r"▌ turn #(\d+)", shown)[-1]
        assert int(last_turn) == pivot.turn + 1
        assert "PIVOT" in events[position - 1][2]


@VERSIONS
def test_intervals_are_capped_and_rounded(demo_input, version):
    _, events = parse_cast(render("cast", demo_input, cast_version=version), version)
    intervals = [interval for interval, _, _ in events]
    assert all(i <= 2.0 for i in intervals)
    assert all(round(i, 3) == i for i in intervals)
    assert events[0][0] == 0.0
    total = sum(intervals)
    # demo turns are minutes apart, so most turn gaps hit the 2 s cap: the replay
    # lasts far less than the session but more than a turn per event
    assert 30 < total < 2.0 * len(events)


def test_the_default_is_v2_and_both_versions_play_the_same(demo_input):
    v2 = parse_cast(render("cast", demo_input), 2)[1]
    v3 = parse_cast(render("cast", demo_input, cast_version=3), 3)[1]
    assert [(c, d) for _, c, d in v2] == [(c, d) for _, c, d in v3]
    assert [round(t, 3) for t, _, _ in v2] == [round(t, 3) for t, _, _ in v3]


def test_only_our_colours_reach_the_terminal(hostile_input):
    _, events = parse_cast(render("cast", hostile_input))
    output = "".join(data for _, code, data in events if code == "o")
    assert "pwned" in output
    bare = OUR_SGR.sub("", output)
    assert "\x1b" not in bare and "\x07" not in bare
    assert not any(0x80 <= ord(c) <= 0x9F for c in bare)
    assert not any(ord(c) < 0x20 and c not in "\r\n" for c in bare)


def test_redacted_cast_has_no_secrets(hostile_input):
    assert any(s in render("cast", hostile_input) for s in SECRET_VALUES)
    text = render("cast", hostile_input, redact=True)
    parse_cast(text)
    for secret in SECRET_VALUES:
        assert secret not in text


def test_wide_characters_are_wrapped_by_display_width():
    from pivotal.export.cast import _wrap, cells

    line = "修复" * 60 + " done"  # 120 wide characters = 240 cells
    wrapped = _wrap(line, 98)
    assert all(sum(cells(c) for c in w) <= 98 for w in wrapped)
    assert "".join(wrapped) == line
    assert max(len(w) for w in _wrap("plain words " * 20, 40)) <= 40
