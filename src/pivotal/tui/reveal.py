"""A search match folded away in a turn: which of its parts to unfold so that it shows.

The transcript folds what would flood it (`render`): a tool call shows its
header until opened, injected text its first three lines, a long message or
reasoning its first 4,000 characters. A search (`/`, `n`, `N`, a hit of the
search across sessions) that lands on a turn whose match is only in what is
folded unfolds the parts that hold it, as Enter would; a part whose folded form
already shows a match stays as it is, so Enter on the turn still opens its calls.
Reasoning shows only while `t` shows it everywhere: a match there is said, not
unfolded. No Textual here.
"""

from __future__ import annotations

import re

from pivotal.model import PartKind, Turn
from pivotal.tui.find import OUTPUT_LIMIT, input_text
from pivotal.tui.render import cut_reasoning, cut_text
from pivotal.tui.safe import clean


def parts_to_open(turn: Turn, pattern: re.Pattern[str], reasoning: bool) -> list[int]:
    """Indices of `turn`'s parts that, folded, hide a match of `pattern` that opening shows:
    tool calls whose input or output matches, text cut before its match, and reasoning so
    cut while `reasoning` (t) shows it."""
    try:
        parts = turn.parts
    except Exception:  # noqa: BLE001 - an unreadable turn has nothing to unfold
        return []
    found = []
    for number, part in enumerate(parts):
        call = part.tool
        if call is not None:
            output = (call.output or "")[:OUTPUT_LIMIT]
            if pattern.search(output) or pattern.search(input_text(call.input)):
                found.append(number)
        elif part.kind is PartKind.TEXT or (part.kind is PartKind.REASONING and reasoning):
            body = clean(part.text)
            if part.kind is PartKind.TEXT:
                folded = cut_text(body, turn, expanded=False)[0]
            else:
                folded = cut_reasoning(body, expanded=False)
            if len(folded) < len(body) and not pattern.search(folded) and pattern.search(body):
                found.append(number)
    return found


def in_folded_reasoning(turn: Turn, pattern: re.Pattern[str]) -> bool:
    """The match is in the turn's reasoning (drawn only while t shows it)."""
    try:
        parts = turn.parts
    except Exception:  # noqa: BLE001
        return False
    return any(p.kind is PartKind.REASONING and pattern.search(p.text) for p in parts)
