"""Exports are written as they are rendered: a turn's parts are read only when it is written.

Issue 18.18: a 1 GB session's JSON export peaked at 3.5 GB. Now each format
yields its output turn by turn (`render_chunks`); these tests hold that no turn's
parts are decoded before the output up to it has been handed out, with and
without `--redact` (bench/bench_export.py measures the memory this saves).
"""

from __future__ import annotations

import json

import pytest

from pivotal.export import render, render_chunks
from pivotal.export.common import ExportInput
from pivotal.export.jsonout import export_json
from pivotal.model import Part, PartKind, Role, Session, SessionRef, Turn, TurnFlag

TURNS = 200


def _session(decoded: list[int]) -> ExportInput:
    def load(turn: Turn) -> list[Part]:
        decoded.append(turn.index)
        return [
            Part(
                PartKind.TEXT, f"reply {turn.index} token ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"
            )
        ]

    turns = []
    for index in range(TURNS):
        human = index % 10 == 0
        turn = Turn(
            index,
            Role.USER if human else Role.ASSISTANT,
            TurnFlag.HUMAN if human else TurnFlag.NONE,
            1.0e9 + index,
            _loader=load,
        )
        turns.append(turn)
    ref = SessionRef("claude-code", SessionRef("claude-code", "/s.jsonl").path)
    return ExportInput(ref, Session("claude-code", ref.path, id="s1", turns=turns), [])


@pytest.mark.parametrize("fmt", ["json", "html", "cast"])
@pytest.mark.parametrize("redact", [False, True], ids=["plain", "redacted"])
def test_turns_are_decoded_only_as_they_are_written(fmt: str, redact: bool) -> None:
    decoded: list[int] = []
    chunks = render_chunks(fmt, _session(decoded), redact=redact)
    written = ""
    while "reply 5 " not in written:
        written += next(chunks)
    assert max(decoded) <= 10, f"turns up to {max(decoded)} decoded to write turn 5"
    rest = "".join(chunks)
    assert max(decoded) == TURNS - 1 and "reply 199 " in rest
    assert ("ghp_" in written + rest) is not redact


def test_the_streamed_json_is_the_whole_document() -> None:
    data = _session([])
    assert json.loads(render("json", data)) == json.loads(json.dumps(export_json(data)))
