"""A redacted copy of an export's input: session, turns, tool calls, pivots and notes.

Redaction happens on the model, before any format escapes the text: once a
Markdown renderer has put a backslash inside `sk-proj-ab\\_cd`, no pattern can
find the key any more. Every string field of every model struct and dataclass is redacted;
enum values (roles, kinds) are left alone. A turn's parts are redacted only when
they are read (the renderers read one turn at a time), and the last few are kept,
so a redacted export of a 1 GB session needs no more memory than a plain one.

A format that shows at most so many characters of one text (HTML, Markdown,
asciicast) has each text of a turn redacted that far and a margin on (`_shown`):
a 20 MB tool output shown as its first 8,000 characters is not redacted whole.

A turn's preview is redacted first and cut after: a reader cut it from the turn's
text, perhaps inside a key (`ghp_R8mN2q` is no key any rule knows), so a preview
as long as the cut is made again from the redacted text once the parts are read.

The finished text of a format is redacted again (`pivotal.export.render_chunks`).
Where a format prints a text of a turn whole, escaped, in a block of its own (HTML's
`<pre>`), that block is not redacted a second time (`Shown`): the rules its words
chose were tried on it here, so only those the words of the whole piece choose and
its own did not are.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import msgspec

from pivotal.export.redact import (
    mask_spans,
    mask_words,
    redact,
    redact_data,
    redact_member,
    redact_noting,
    spans_beyond,
    words_in,
)
from pivotal.model import Part, Role, Turn
from pivotal.readers.base import PREVIEW_LIMIT, preview_of


def scrub(
    value: Any,
    counts: Counter[str] | None = None,
    users: tuple[str, ...] = (),
    _loader: _RedactedParts | None = None,
    *,
    shown: int | None = None,
    seen: Shown | None = None,
    hidden: frozenset[str] = frozenset(),
    _cut: int | None = None,
) -> Any:
    """`value` with every string inside it redacted (structs, dataclasses, lists, dicts, paths).

    `shown` is the most characters of one text of a turn's parts the format shows
    (None: all of it): a longer one is redacted that far and a margin on (`_shown`).
    The texts of turns redacted whole are noted in `seen`, if given. `hidden` names the
    fields of a turn and its parts the format never shows (ids): they are left as they
    are. The turns of one call share one `_RedactedParts` (it lives as long as they do)."""
    if _loader is None:
        _loader = _RedactedParts(counts, users, shown, seen, hidden)
    if _as_is(value):
        return value
    if isinstance(value, str):
        return _shown(value, counts, users, _cut, _loader.seen if _cut is not None else None)
    if isinstance(value, Path):
        return Path(redact(str(value), counts, users))
    if isinstance(value, Turn):
        return _turn(value, _loader)
    if isinstance(value, msgspec.Struct):
        return _struct(value, counts, users, _loader, _cut)
    if isinstance(value, list):
        return [scrub(v, counts, users, _loader, _cut=_cut) for v in value]
    if isinstance(value, dict):
        return _data(value, counts, users, _cut)
    if isinstance(value, tuple):
        return type(value)(scrub(v, counts, users, _loader, _cut=_cut) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: scrub(getattr(value, f.name), counts, users, _loader, _cut=_cut)
            for f in dataclasses.fields(value)
            if f.init
        }
        return dataclasses.replace(value, **changes)
    return value


def _struct(
    value: msgspec.Struct,
    counts: Counter[str] | None,
    users: tuple[str, ...],
    loader: _RedactedParts,
    cut: int | None,
) -> msgspec.Struct:
    """`scrub` of a struct: a turn's parts are most of what is scrubbed, so their strings
    go straight to `_shown`, and the fields of each type that are shown are listed once."""
    noted = loader.seen if cut is not None else None
    kind = type(value)
    names = _FIELDS.get((kind, loader.hidden))
    if names is None:
        shown = tuple(name for name in value.__struct_fields__ if name not in loader.hidden)
        names = _FIELDS[kind, loader.hidden] = shown
    changes = {}
    for name in names:
        item = getattr(value, name)
        kind = type(item)
        if kind is str:
            changes[name] = _shown(item, counts, users, cut, noted)
        elif not (_AS_IS.get(kind) or _as_is(item)):
            changes[name] = scrub(item, counts, users, loader, _cut=cut)
    return msgspec.structs.replace(value, **changes)


_FIELDS: dict[tuple[type, frozenset[str]], tuple[str, ...]] = {}


def _as_is(value: Any) -> bool:
    """Whether `value` holds no text: None, a number, a flag or an enum value (a role)."""
    kind = type(value)
    known = _AS_IS.get(kind)
    if known is None:  # (asked once per type: a turn's parts ask it of every field)
        known = _AS_IS[kind] = value is None or issubclass(kind, Enum | bool | int | float)
    return known


_AS_IS: dict[type, bool] = {}


MARGIN = 1 << 16
"""Characters redacted past what a format shows: more than any secret is long."""


def _shown(
    text: str,
    counts: Counter[str] | None,
    users: tuple[str, ...],
    cut: int | None,
    seen: Shown | None = None,
) -> str:
    """`text` redacted, or as much of it as a format showing `cut` characters can show.

    Redaction costs per character and a 20 MB tool output shown as its first 8,000
    would cost nearly all of an HTML export. So a text longer than `cut` and a margin
    is redacted that far (a key across the end is cut off with the margin's last
    half, not shown), and spaces stand for the rest: the text keeps its length, which
    the format reports ("… (N more characters)"). Should masks have shortened what
    was redacted by half the margin, the whole text is redacted. A text redacted whole
    is noted in `seen`, if given."""
    if cut is None or len(text) <= cut + MARGIN:
        if seen is not None and len(text) >= Shown.SMALLEST:
            done, words = redact_noting(text, counts, users)
            seen.note(done, words)
            return done
        return redact(text, counts, users)
    head = text[: cut + MARGIN]
    found: Counter[str] | None = None if counts is None else Counter()  # kept if shown
    done = redact(head, found, users)
    if len(done) < cut + MARGIN // 2:
        return redact(text, counts, users)
    if counts is not None and found:
        counts.update(found)
    return done[: len(done) - MARGIN // 2] + " " * (len(text) - len(head) + MARGIN // 2)


def _data(value: Any, counts: Counter[str] | None, users: tuple[str, ...], cut: int | None) -> Any:
    """`redact_data`, with `_shown` for its strings."""
    if cut is None:
        return redact_data(value, counts, users)
    if isinstance(value, str):
        return _shown(value, counts, users, cut)
    if isinstance(value, dict):
        return {
            (redact(k, counts, users) if isinstance(k, str) else k): (
                redact_member(k, v, counts, users)
                if isinstance(k, str) and isinstance(v, str) and len(v) <= cut
                else _data(v, counts, users, cut)
            )
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [_data(v, counts, users, cut) for v in value]
    return value


class Shown:
    """Texts of turns redacted whole here, as a format prints them, so that its second pass
    (over its finished text) need not redact them again.

    The format prints such a text as `show(text)` (its escaping) in a block of its
    pieces (between `block`'s two strings: HTML's `<pre>`), after one of `prefixes` or
    none. A block that is one of them was redacted here with the rules its own words
    chose; the piece's other words may choose more (gitleaks' keyword test is over a
    whole text), and only those are tried on it. The rest of the piece, each such block
    left out (its prefix kept), is redacted as the whole piece was, with the blocks'
    words counted in, and what their escaping and masks show too (`mask_words`): no
    rule it chose before is left out. A text is kept from when it is noted until `KEPT`
    characters of them are.
    """

    SMALLEST = 257
    """Shorter texts are not noted: `redact` keeps what it made of them anyway."""
    KEPT = 1 << 21
    _GAP = "\x00"  # where a block was left out: in no printed text (`clean` shows it as ␀)

    def __init__(
        self,
        show: Callable[[str], str],
        block: tuple[str, str],
        longest: int,
        prefixes: tuple[str, ...] = (),
    ) -> None:
        self.show = show
        self.block = block
        self.longest = longest
        self.prefixes = prefixes
        self._escapes = words_in(show("&<>\"'"))  # the words its escaping may add
        self._texts: dict[str, tuple[frozenset[str], frozenset[str]]] = {}  # words, masks'
        self._size = 0

    def note(self, text: str, words: frozenset[str] | None) -> None:
        """`text`, redacted with the rules `words` chose (None: not by one set of words)."""
        if words is None or not self.SMALLEST <= len(text) <= self.longest:
            return
        if self._size > self.KEPT:
            self._texts.clear()
            self._size = 0
        shown = self.show(text)
        self._texts[shown] = (words, mask_words(text))  # (what it shows: made if it is shown)
        self._size += len(shown)

    def redact(self, piece: str, counts: Counter[str] | None, users: tuple[str, ...]) -> str:
        """`piece` of the format's finished text redacted, its noted blocks as above."""
        cuts: list[tuple[int, int, str, frozenset[str], frozenset[str]]] = []
        texts, escapes = self._texts, self._escapes
        for start, end in self._blocks(piece):
            block = piece[start:end]
            known = texts.get(block)
            if known is None:
                for prefix in self.prefixes:
                    if block.startswith(prefix):
                        known = texts.get(block[len(prefix) :])
                        if known is not None:
                            block = block[len(prefix) :]
                            start += len(prefix)
                            break
            if known is not None:
                tried, masks = known
                cuts.append((start, end, block, tried, tried | escapes | masks))
        if not cuts:
            return redact(piece, counts, users)
        between, position = [], 0
        for start, end, _, _, _ in cuts:
            between.append(piece[position:start])
            position = end
        between.append(piece[position:])
        around = frozenset().union(*(shows for *_, shows in cuts))
        found: Counter[str] | None = None if counts is None else Counter()
        rest, words = redact_noting(self._GAP.join(between), found, users, around)
        done = rest.split(self._GAP)
        if words is None or len(done) != len(between):  # long runs, or a mask over a gap
            return redact(piece, counts, users)
        if counts is not None and found:
            counts.update(found)
        out = [done[0]]
        for (_, _, block, tried, shows), after in zip(cuts, done[1:], strict=True):
            out.append(mask_spans(block, spans_beyond(block, words, tried, shows), counts))
            out.append(after)
        return "".join(out)

    def _blocks(self, piece: str) -> Iterator[tuple[int, int]]:
        """(start, end) of the text of each block in `piece`."""
        opening, closing = self.block
        at = piece.find(opening)
        while at >= 0:
            start = at + len(opening)
            end = piece.find(closing, start)
            if end < 0:
                return
            yield start, end
            at = piece.find(opening, end + len(closing))


class _RedactedParts:
    """The `_loader` of a redacted turn: the original turn's parts, redacted on first use;
    the last `KEEP` turns' are kept (a renderer reads a turn's parts more than once)."""

    KEEP = 8

    def __init__(
        self,
        counts: Counter[str] | None,
        users: tuple[str, ...],
        shown: int | None = None,
        seen: Shown | None = None,
        hidden: frozenset[str] = frozenset(),
    ) -> None:
        self.counts = counts
        self.users = users
        self.shown = shown
        self.seen = seen
        self.hidden = hidden
        self.originals: dict[int, Turn] = {}
        self.recent: dict[int, list[Part]] = {}

    def __call__(self, turn: Turn) -> list[Part]:
        key = id(turn)
        parts = self.recent.pop(key, None)
        if parts is None:
            original = self.originals[key]
            parts = scrub(list(original.parts), self.counts, self.users, self, _cut=self.shown)
            if len(original.preview) >= PREVIEW_LIMIT:  # perhaps cut inside a secret
                turn.preview = preview_of(_text(parts))
        self.recent[key] = parts
        if len(self.recent) > self.KEEP:
            del self.recent[next(iter(self.recent))]
        return parts


def _turn(turn: Turn, loader: _RedactedParts) -> Turn:
    counts, users = loader.counts, loader.users
    copy = Turn(
        index=turn.index,
        role=turn.role,
        flags=turn.flags,
        timestamp=turn.timestamp,
        message_id=(
            turn.message_id
            if "message_id" in loader.hidden
            else scrub(turn.message_id, counts, users)
        ),
        source=scrub(turn.source, counts, users, loader),
        model=scrub(turn.model, counts, users),
        usage=turn.usage,
        # a whole preview is redacted here; a cut one once the parts are (`_RedactedParts`)
        preview=scrub(turn.preview, counts, users) if len(turn.preview) < PREVIEW_LIMIT else "",
        _loader=loader,
        extra=None,
    )
    loader.originals[id(copy)] = turn
    return copy


def _text(parts: list[Part]) -> str:
    """What `Turn.text` joins: the text parts."""
    return Turn(index=0, role=Role.USER, _parts=parts).text
