"""The model's value semantics that the rest of pivotal relies on.

The classes are msgspec Structs; these are the behaviours the readers, the
worker processes (which pickle what they hand back; the split scan sends its
pivots as typed msgpack instead), the picker (which keys on refs) and the
exports (which copy with replaced fields) assume.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import msgspec
import pytest

from pivotal.model import (
    Part,
    PartKind,
    Pivot,
    PivotKind,
    Role,
    SessionRef,
    Signal,
    Silence,
    SourceRef,
    StateChange,
    ToolCall,
    Turn,
)


def test_refs_are_frozen_and_equal_by_value():
    a = SessionRef(format="claude-code", path=Path("/s/a.jsonl"), key="k")
    b = SessionRef(format="claude-code", path=Path("/s/a.jsonl"), key="k")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != msgspec.structs.replace(a, key="other")
    with pytest.raises(AttributeError):
        a.key = "changed"  # type: ignore[misc]
    assert SourceRef(line=3) == SourceRef(line=3)


def test_turns_compare_by_identity_and_parts_load_lazily():
    loads: list[int] = []

    def loader(turn: Turn) -> list[Part]:
        loads.append(turn.index)
        return [Part(PartKind.TEXT, "hello")]

    lazy = Turn(index=4, role=Role.ASSISTANT, _loader=loader)
    twin = Turn(index=4, role=Role.ASSISTANT, _loader=loader)
    assert lazy != twin and lazy == lazy
    assert lazy.text == "hello" and loads == [4]
    lazy.parts = [Part(PartKind.TEXT, "set")]
    assert lazy.text == "set" and loads == [4]
    assert Turn(index=0, role=Role.USER).source is not Turn(index=1, role=Role.USER).source


def test_mutable_defaults_are_not_shared():
    one, two = (
        Pivot(1, PivotKind.OTHER, Silence.EMPTY, 0.5),
        Pivot(2, PivotKind.OTHER, Silence.ACK, 0.5),
    )
    one.signals.append(Signal("x", [0], "d"))
    one.state.open_threads.append("t")
    assert two.signals == [] and two.state == StateChange()


def test_a_pivot_survives_pickling_between_processes():
    pivot = Pivot(
        turn=7,
        kind=PivotKind.IMPLICIT_APPROVAL,
        silence=Silence.ACK,
        confidence=0.8,
        cluster=[7, 8],
        signals=[Signal("proposal pending", [6], "plan offered", 0.4, "before", ["shall I?"])],
        state=StateChange(phase_before="plan", phase_after="build"),
    )
    back = pickle.loads(pickle.dumps(pivot))
    assert back == pivot and back is not pivot
    assert back.kind is PivotKind.IMPLICIT_APPROVAL


def test_tool_call_reads_its_result():
    call = ToolCall("c1", "Bash", {"command": "pytest -q"}, output="1 failed", exit_code=1)
    assert call.failed and call.has_result and call.key_argument() == "pytest -q"
    assert not ToolCall("c2", "Read", {"file_path": "a.py"}).has_result


def test_a_call_that_runs_several_commands_is_named_by_them():
    """Cline's run_commands takes a list: the header shows the commands, not an empty name."""
    call = ToolCall("c3", "run_commands", {"commands": ["ls -la", "git status"]})
    assert call.key_argument() == "ls -la git status"


def test_failed_is_the_flag_the_exit_code_or_the_status():
    assert ToolCall("a", "Bash", exit_code=2).failed
    assert ToolCall("b", "Bash", status="timeout").failed
    assert ToolCall("c", "Bash", is_error=True, exit_code=0).failed
    assert not ToolCall("d", "Bash", status="completed", exit_code=0).failed
    assert not ToolCall("e", "Bash", status="cancelled").failed  # stopped, not failed
    assert ToolCall("f", "Bash").exit_code is None  # unknown stays unknown
