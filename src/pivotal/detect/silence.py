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

from collections.abc import Iterator, Sequence

from pivotal.detect.acks import is_go_on
from pivotal.detect.config import RUN_CAP, PivotConfig
from pivotal.detect.lexicon import WRAPPER_TAG
from pivotal.model import PartKind, Role, Silence, Turn, TurnFlag

SILENT_CAP = 2048
"""A long human message is judged on its first and last 2 KB."""
PREVIEW_FULL = 190
"""A preview shorter than this is the whole text (readers keep ~200 chars)."""


_INVISIBLE_CHARS = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_INVISIBLE = dict.fromkeys(map(ord, _INVISIBLE_CHARS), None)


def strip_wrappers(text: str) -> str:
    """Text without XML-like wrapper tags, invisible characters and opencode's literal quotes."""
    # Every human turn's preview comes through here: skip the work that cannot apply
    # (`isascii` is O(1), and every invisible character is non-ASCII; a tag needs a "<").
    # `translate` with a table walks the text a character at a time in Python objects;
    # looking for the six characters first is a fast C scan each.
    if not text.isascii() and any(ch in text for ch in _INVISIBLE_CHARS):
        text = text.translate(_INVISIBLE)
    if "<" in text:
        text = WRAPPER_TAG.sub(" ", text)
    stripped = text.strip()
    while len(stripped) >= 2 and stripped[0] == stripped[-1] and stripped[0] in "\"'`":
        stripped = stripped[1:-1].strip()
    return stripped


def _wordless(text: str) -> bool:
    """Punctuation, symbols and emoji only ("…", "👍🏽", "?!"): nothing that could direct."""
    return not any(ch.isalnum() for ch in text)


def classify_text(text: str, config: PivotConfig) -> Silence | None:
    """`empty`, `ack` or None (the text gives direction)."""
    core = strip_wrappers(text)
    if not core:
        return Silence.EMPTY
    if _wordless(core):
        return Silence.ACK
    if core.startswith(("#", "/")):
        return None  # a slash command or a heading is direction
    return Silence.ACK if is_go_on(core, config.ack_max_words, config.approval_max_words) else None


_BOUNDARY = int(TurnFlag.COMPACTION_BOUNDARY)
_HUMAN = int(TurnFlag.HUMAN)
_NOT_SPOKEN = int(TurnFlag.INTERRUPTED | TurnFlag.SYNTHETIC | TurnFlag.META)
_HARNESS = int(TurnFlag.SYNTHETIC | TurnFlag.META)
_COMPACTION = int(TurnFlag.COMPACTION_BOUNDARY | TurnFlag.COMPACTION_SUMMARY)
_SUMMARY = int(TurnFlag.COMPACTION_SUMMARY)
_INTERRUPTED = int(TurnFlag.INTERRUPTED)
_UNSENT = int(TurnFlag.UNSENT)
_MAY_BE_SILENT = int(TurnFlag.HUMAN | TurnFlag.COMPACTION_BOUNDARY | TurnFlag.COMPACTION_SUMMARY)
"""Only a person's turn or a compaction record can be a silence (`classify_turn`,
`is_summary_start`): every other turn is ruled out by its flags alone."""
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
    if len(text) > 2 * SILENT_CAP:
        # a silence is short: its head and tail decide (no pattern runs over a pasted log)
        text = text[:SILENT_CAP] + " " + text[-SILENT_CAP:]
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
        turn = turns[i]
        flags = int(turn.flags)
        if not flags & _MAY_BE_SILENT:
            return None
        if i in self._cache:
            return self._cache[i]
        kind = classify_turn(turn, self.config)
        if kind is None and flags & _SUMMARY:  # is_summary_start
            prev = turns[i - 1] if i > 0 else None
            if prev is None or not int(prev.flags) & _BOUNDARY:
                kind = Silence.COMPACTION
        self._cache[i] = kind
        if i > self._hi:
            self._hi = i
        return kind

    def anchors(self, turns: Sequence[Turn], start: int) -> Iterator[int]:
        """Positions from `start` on that anchor a cluster, in order.

        Every turn of a session passes through here: a flags test skips the turns
        that cannot be silent before any other work, and a person's turn is judged
        silent or not before anything else is asked of it.
        """
        silence = self.silence
        for i in range(start, len(turns)):
            if (
                int(turns[i].flags) & _MAY_BE_SILENT
                and silence(turns, i) is not None
                and self.is_anchor(turns, i)
            ):
                yield i

    def in_cluster(self, turns: Sequence[Turn], i: int) -> bool:
        return self.silence(turns, i) is not None or is_transparent(turns[i])

    def is_anchor(self, turns: Sequence[Turn], i: int) -> bool:
        """Silent, and no earlier silent turn in the same unbroken run (a message the client
        never sent, such as aider's bare Enter, does not start the run of one it did send)."""
        if self.silence(turns, i) is None:
            return False
        j = i - 1
        while j >= 0 and j > i - RUN_CAP and self.in_cluster(turns, j):
            if self.silence(turns, j) is not None and not int(turns[j].flags) & _UNSENT:
                return False
            j -= 1
        return True

    def cluster(self, turns: Sequence[Turn], anchor: int) -> list[int]:
        """Positions of the cluster starting at `anchor` (as far as turns exist)."""
        out = [anchor]
        j = anchor + 1
        while j < len(turns) and j < anchor + RUN_CAP and self.in_cluster(turns, j):
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
