"""Claude Code 1.0's usage-limit line says when the limit resets, not a raw epoch.

At a usage limit Claude Code 1.0 wrote a reply of its own (model `<synthetic>`,
`isApiErrorMessage` true) reading `Claude AI usage limit reached|<seconds since the epoch>`:
the part after the bar is when the limit resets, for the client to format. It often made
the session's title of it too (`summary` records at the top of the file). pivotal showed
the number as it is, in the replayer, the exports, `scan`'s header and search's title. It
now reads "Claude AI usage limit reached (resets 2026-12-03 15:00 UTC)": in UTC, the clock
the transcript's turn headers show. The reply stays Claude Code's own error line. Text
written for the test in the shape of the real records.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.model import Role, TurnFlag
from pivotal.readers import find_sessions, read_session
from surfaces import in_replayer, through_cli

from . import claude_builders as cb

RAW = "Claude AI usage limit reached|1796310000"  # 2026-12-03 15:00 UTC
SAID = "Claude AI usage limit reached (resets 2026-12-03 15:00 UTC)"
ASKED = "Port the ledger export to the streaming writer"


def _limit(uuid: str, parent: str, second: int) -> dict:
    record = cb.harness_reply(uuid, parent, second, RAW)
    record["isApiErrorMessage"] = True
    return cb.in_v1(record)


def _summary(leaf: str) -> dict:
    return {"type": "summary", "summary": RAW, "leafUuid": leaf}


def _home(tmp_path: Path) -> Path:
    records = [
        _summary("a2"),
        _summary("u1"),
        cb.in_v1(cb.user("u1", None, 0, ASKED)),
        cb.in_v1(cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "grep -rn write_rows ledger/")),
        cb.in_v1(cb.tool_result("r1", "a1", 6, "call_1", "ledger/export.py:88: write_rows(")),
        _limit("a2", "r1", 7),
    ]
    return cb.home(tmp_path, records)


async def test_the_limit_says_when_it_resets_everywhere_it_is_shown(tmp_path: Path) -> None:
    path = _home(tmp_path)
    session = read_session(find_sessions([path]).refs[0])
    (line,) = [t for t in session.turns if t.role is Role.SYSTEM]
    assert (line.text, line.preview) == (SAID, SAID)
    assert line.flags == TurnFlag.SYNTHETIC | TurnFlag.ERROR
    assert session.title == SAID
    cli = through_cli(path)
    assert [t["parts"][0]["text"] for t in cli.turns_by("system")] == [SAID]
    assert RAW not in json.dumps(cli.export) and RAW not in json.dumps(cli.scan)
    shown = await in_replayer(path)
    drawn = shown.turns[line.index]
    assert "10:00:07" in drawn.splitlines()[0]  # the header's clock: UTC, as the reset
    assert SAID in drawn and "|1796310000" not in drawn


@pytest.mark.parametrize("command", [["scan", "--explain"], ["export", "--to", "md"]])
def test_the_title_says_when_it_resets(tmp_path: Path, command: list[str]) -> None:
    result = invoke(*command, _home(tmp_path))
    assert result.exit_code == 0, result.output
    assert SAID in result.stdout and "|1796310000" not in result.stdout


def test_search_names_the_session_by_the_readable_title(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    _home(tmp_path)
    result = invoke("search", "streaming writer", "--root", tmp_path, "--json")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows and {row["title"] for row in rows} == {SAID}


def test_only_a_reset_time_is_rewritten_any_other_limit_line_is_left_as_it_is(
    tmp_path: Path,
) -> None:
    lines = {
        RAW: SAID,
        "Claude AI usage limit reached|soon": None,
        "Claude AI usage limit reached|1796310000 and more": None,
        "Claude AI usage limit reached|99999999999": None,  # no time Claude Code would name
        "5-hour limit reached ∙ resets 10pm": None,  # 1.0.6x+ said it in words
    }
    records: list[dict] = [cb.user("u1", None, 0, ASKED)]
    for n, text in enumerate(lines):
        records.append(cb.harness_reply(f"a{n}", records[-1]["uuid"], 5 + n, text))
    session = read_session(find_sessions([cb.home(tmp_path, records)]).refs[0])
    said = [t.text for t in session.turns if t.role is Role.SYSTEM]
    assert said == [shown or text for text, shown in lines.items()]
    assert all(t.flags & TurnFlag.ERROR for t in session.turns if t.role is Role.SYSTEM)
