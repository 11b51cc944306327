"""Counting aider's inputs without the reader: the yardstick the reader is held to.

aider writes each input line as `#### text` plus two spaces (`io.py`
`user_input`), so an input is a run of consecutive such lines. Of those, an
input starting with `/` or `!` is a command, and one that repeats the model's
reply just before it (only aider's own lines between) is an architect plan
handed to the editor model. Everything else is something a person typed.
This deliberately shares no code with `pivotal.readers.aider`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MIN_PLAN = 40


@dataclass
class Inputs:
    """Line numbers (1-based, first line of each input) by kind."""

    typed: list[int] = field(default_factory=list)
    commands: list[int] = field(default_factory=list)
    plans: list[int] = field(default_factory=list)
    blank: list[int] = field(default_factory=list)
    """Typed inputs that are aider's `<blank>` (a bare Enter)."""


def _aider_line(line: str) -> bool:
    return line.startswith("####") and (len(line) == 4 or line[4] == " ") and line.endswith("  ")


def _repeats_reply(before: list[str], text: str) -> bool:
    """`text` is what the model replied just before (aider's own lines dropped from the end)."""
    rest = list(before)
    while rest and (not rest[-1].strip() or rest[-1].startswith(">") or rest[-1].endswith("  ")):
        rest.pop()
    reply = "\n".join(line.rstrip() for line in rest).strip()
    return bool(rest) and len(text) >= MIN_PLAN and reply.endswith(text)


def count_inputs(data: bytes) -> Inputs:
    lines = [line.rstrip("\r") for line in data.decode("utf-8", "replace").split("\n")]
    found = Inputs()
    group: list[str] = []
    start = end_of_last = 0
    for number, line in enumerate([*lines, ""], start=1):
        if _aider_line(line):
            if not group:
                start = number
            group.append(line[:-2][5:])
            continue
        if not group:
            continue
        text = "\n".join(body.rstrip() for body in group).strip()
        if group[0].startswith(("/", "!")):
            found.commands.append(start)
        elif _repeats_reply(lines[end_of_last : start - 1], text):
            found.plans.append(start)
        else:
            found.typed.append(start)
            if group == ["<blank>"]:
                found.blank.append(start)
        end_of_last = number - 1
        group = []
    return found
