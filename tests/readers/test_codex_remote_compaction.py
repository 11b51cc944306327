"""Codex compactions whose summary is encrypted: a `compacted` record with an empty message.

From 0.64 (December 2025) a compaction done by the server writes `compacted` with
`message: ""`; the summary is only the encrypted `compaction_summary` item (2026 builds:
`compaction`, with `window_*` ids) inside `replacement_history`. 2026 builds also write
`world_state` lines and `thread_settings_applied` events around it. The compaction is one
boundary, said to be remote; there is no summary to show, so no empty one is shown. A
compaction that wrote its summary (in `message`, or only as the user message of
`replacement_history`) keeps it. All text written for the tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.model import TurnFlag
from pivotal.readers import find_sessions, read_session
from pivotal.readers.codex_records import SUMMARY_PREFIX

from .codex_builders import Rollout

UUID = "019ae50c-0000-7000-8000-00000000c0de"
REMOTE = "Context compacted (remote; the summary is encrypted)"
SUMMARY = f"{SUMMARY_PREFIX} and produced a summary of its thinking process:\nTOML: 12 of 40."


def _said(text: str) -> dict:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _history(last: dict | None) -> list[dict]:
    items = [
        _said("<environment_context>\n  <cwd>/home/dev/printer-kit</cwd>\n</environment_context>")
    ]
    items.append(_said("convert the printer list to TOML"))
    if last is not None:
        items.append(last)
    items.append({"type": "ghost_snapshot", "ghost_commit": {"id": "70cb3e1", "parent": "6248da8"}})
    return items


SHAPES: dict[str, dict] = {
    "0.64": {
        "message": "",
        "replacement_history": _history(
            {"type": "compaction_summary", "encrypted_content": "gAAAAABpLQ-x1"}
        ),
    },
    "2026": {
        "message": "",
        "replacement_history": _history({"type": "compaction", "encrypted_content": "gAAAAB-2"}),
        "window_number": 2,
        "first_window_id": "019f7d4f-0001",
        "previous_window_id": "019f7d4f-0001",
        "window_id": "019f7d4f-0002",
    },
}


def _rollout(payload: dict, tmp_path: Path) -> Path:
    rollout = Rollout(session_id=UUID)
    rollout.meta(version="0.64.0")
    rollout.add("world_state", {"full": True, "state": {"agents_md": {"text": "# Kit\n"}}})
    rollout.both("convert the printer list to TOML")
    rollout.reply("Converted 12 of 40 files so far.", "python convert.py")
    rollout.add("compacted", payload, gap=5.0)
    rollout.compacted_event()
    rollout.add("world_state", {"full": False, "state": {}})
    rollout.add("event_msg", {"type": "thread_settings_applied", "thread_settings": {"cwd": "/k"}})
    rollout.turn_context()
    rollout.both("go on")
    rollout.reply("All 40 converted.", "python convert.py")
    return rollout.write(tmp_path)


@pytest.mark.parametrize("shape", SHAPES)
def test_an_encrypted_summary_is_one_remote_boundary_and_no_empty_summary(
    tmp_path: Path, shape: str
) -> None:
    session = read_session(find_sessions([_rollout(SHAPES[shape], tmp_path)]).refs[0])
    boundaries = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert [t.text for t in boundaries] == [REMOTE]
    assert not [t for t in session.turns if t.flags & TurnFlag.COMPACTION_SUMMARY]
    assert [t.text for t in session.human_turns()] == ["convert the printer list to TOML", "go on"]
    assert not session.skipped


@pytest.mark.parametrize(
    ("payload", "summary"),
    [
        ({"message": SUMMARY, "replacement_history": _history(_said(SUMMARY))}, SUMMARY),
        ({"message": "", "replacement_history": _history(_said(SUMMARY))}, SUMMARY),
        ({"message": SUMMARY}, SUMMARY),
    ],
    ids=["message", "only-in-history", "no-history"],
)
def test_a_written_summary_is_still_shown(tmp_path: Path, payload: dict, summary: str) -> None:
    session = read_session(find_sessions([_rollout(payload, tmp_path)]).refs[0])
    boundaries = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert [t.text for t in boundaries] == ["Context compacted"]
    summaries = [t.text for t in session.turns if t.flags & TurnFlag.COMPACTION_SUMMARY]
    assert summaries == [summary]
