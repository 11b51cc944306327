"""Which turns are silences, and which turns form one silent cluster.

A human turn is silent when it carries no direction: nothing at all
(`empty`) or a bare go-on (`ack`). A compaction record is a silence of its
own kind (`compaction`): the format, not necessarily the person, paused the
work. Silent, synthetic and compaction turns in a row are one cluster,
anchored at the first silent turn. Only cheap fields are read for turns that
cannot be silent; a human turn's parts are read only when its preview looks
silent (to rule out an attachment such as a pasted screenshot).
"""

from __future__ import annotations

from collections.abc import Sequence

from pivotal.detect.config import PivotConfig
from pivotal.detect.lexicon import ACK_WORDS, PUNCT_ONLY, WRAPPER_TAG
from pivotal.model import PartKind, Role, Silence, Turn, TurnFlag

PREVIEW_FULL = 190
"""A preview shorter than this is the whole text (readers keep ~200 chars)."""


def strip_wrappers(text: str) -> str:
    """Text without XML-like wrapper tags and without opencode's literal quotes."""
    stripped = WRAPPER_TAG.sub(" ", text).strip()
    while len(stripped) >= 2 and stripped[0] == stripped[-1] and stripped[0] in "\"'`":
        stripped = stripped[1:-1].strip()
    return stripped


def classify_text(text: str, config: PivotConfig) -> Silence | None:
    """`empty`, `ack` or None (the text gives direction)."""
    core = strip_wrappers(text)
    if not core:
        return Silence.EMPTY
    if core.startswith(("#", "/")) and len(core) > 1 and not PUNCT_ONLY.match(core):
        return None  # a slash command or a heading is direction
    if PUNCT_ONLY.match(core):
        return Silence.ACK
    words = [w.strip(".,!?…;:\"'()").lower() for w in core.split()]
    words = [w for w in words if w]
    if not words or len(words) > config.ack_max_words:
        return Silence.ACK if not words else None
    if all(w in ACK_WORDS or PUNCT_ONLY.match(w) for w in words):
        return Silence.ACK
    return None


_BOUNDARY = int(TurnFlag.COMPACTION_BOUNDARY)
_HUMAN = int(TurnFlag.HUMAN)
_NOT_SPOKEN = int(TurnFlag.INTERRUPTED | TurnFlag.SYNTHETIC | TurnFlag.META)
_HARNESS = int(TurnFlag.SYNTHETIC | TurnFlag.META)
_COMPACTION = int(TurnFlag.COMPACTION_BOUNDARY | TurnFlag.COMPACTION_SUMMARY)
_SUMMARY = int(TurnFlag.COMPACTION_SUMMARY)
_INTERRUPTED = int(TurnFlag.INTERRUPTED)
# Flags are read as plain ints: `IntFlag & IntFlag` builds a new enum member each time,
# and every turn of a session passes through here.


def classify_turn(turn: Turn, config: PivotConfig) -> Silence | None:
    """The silence kind of one turn, or None if it is not a silence."""
    flags = int(turn.flags)
    if flags & _BOUNDARY:
        return Silence.COMPACTION
    if turn.role is not Role.USER or not flags & _HUMAN or flags & _NOT_SPOKEN:
        return None
    preview = turn.preview or ""
    if len(preview) >= PREVIEW_FULL and len(strip_wrappers(preview)) > 60:
        return None  # long text: certainly direction, parts never touched
    quick = classify_text(preview, config)
    if quick is None and len(preview) < PREVIEW_FULL:
        return None
    try:
        parts = turn.parts
    except Exception:
        parts = []
    if any(p.kind is PartKind.ATTACHMENT for p in parts):
        return None  # a pasted image or file is content
    text = "\n".join(p.text for p in parts if p.kind is PartKind.TEXT and p.text)
    if not parts:
        text = preview
    return classify_text(text, config)


def is_transparent(turn: Turn) -> bool:
    """Turns that may sit inside a cluster without breaking it."""
    flags = int(turn.flags)
    if flags & _COMPACTION:
        return True
    human = turn.role is Role.USER and flags & _HUMAN
    if flags & _HARNESS and not human:
        return True  # harness text on either side (Gemini's "Got it. Thanks ..." reply)
    if turn.role is Role.USER and not human:
        return not flags & _INTERRUPTED
    return turn.role is Role.SYSTEM


def is_summary_start(turn: Turn) -> bool:
    """A compaction summary without a boundary before it (older Claude Code, some readers)."""
    return bool(int(turn.flags) & _SUMMARY)


class SilenceIndex:
    """Cached silence classification of turns (invalidated from an index on)."""

    def __init__(self, config: PivotConfig) -> None:
        self.config = config
        self._cache: dict[int, Silence | None] = {}
        self._hi = -1

    def invalidate(self, start: int) -> None:
        if start <= self._hi:  # appends (start past every cached index) cost nothing
            for key in [k for k in self._cache if k >= start]:
                del self._cache[key]
            self._hi = start - 1

    def silence(self, turns: Sequence[Turn], i: int) -> Silence | None:
        if i in self._cache:
            return self._cache[i]
        turn = turns[i]
        kind = classify_turn(turn, self.config)
        if kind is None and is_summary_start(turn):
            prev = turns[i - 1] if i > 0 else None
            if prev is None or not int(prev.flags) & _BOUNDARY:
                kind = Silence.COMPACTION
        self._cache[i] = kind
        self._hi = max(self._hi, i)
        return kind

    def in_cluster(self, turns: Sequence[Turn], i: int) -> bool:
        return self.silence(turns, i) is not None or is_transparent(turns[i])

    def is_anchor(self, turns: Sequence[Turn], i: int) -> bool:
        """Silent, and no earlier silent turn in the same unbroken run."""
        if self.silence(turns, i) is None:
            return False
        j = i - 1
        while j >= 0 and j > i - 200 and self.in_cluster(turns, j):
            if self.silence(turns, j) is not None:
                return False
            j -= 1
        return True

    def cluster(self, turns: Sequence[Turn], anchor: int) -> list[int]:
        """Positions of the cluster starting at `anchor` (as far as turns exist)."""
        out = [anchor]
        j = anchor + 1
        while j < len(turns) and j < anchor + 200 and self.in_cluster(turns, j):
            out.append(j)
            j += 1
        # trailing harness records (hook output) belong to the cluster only if a
        # silence or summary follows them; otherwise they are ordinary context
        while len(out) > 1 and not self._anchors_cluster(turns, out[-1]):
            out.pop()
        return out

    def _anchors_cluster(self, turns: Sequence[Turn], i: int) -> bool:
        turn = turns[i]
        if self.silence(turns, i) is not None:
            return True
        return bool(int(turn.flags) & (_COMPACTION | _HARNESS))
