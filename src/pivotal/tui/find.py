"""What `/` looks for and where: every turn that matches, found fast enough for 100 MB.

A `Query` is the person's text (or a regular expression with the regex
toggle), case-insensitive unless it has a capital letter (smart case, as in
vim and ripgrep). `find_all` returns every matching turn, so the screen can
say "match 3/9" and `n` / `N` are a bisect, not another search.

Most of a big Claude Code session's text is not in memory: an assistant turn
keeps the byte spans of its records (`turn.extra["spans"]`) and decodes them
when asked, which costs ~1 s over 100 MB. For a plain query whose JSON form
is the text itself (printable ASCII without `"` or `\\`), the file is scanned
in chunks for it first (a miss over 100 MB is one pass of `bytes.find`); only
turns whose records hold it are decoded and checked. Any other query is
scanned for the longest piece of it that JSON writes as itself (`é` in
`héllo wörld` leaves `llo w`; a regex's literal runs that every match holds:
`zz+qq` leaves `qq`), so only a query with no such piece decodes every turn:
1 GB, a miss cost 6-8 s that way and costs one pass over the file so
(~0.7 s). Both passes report how far they got and stop when cancelled. The turns held in
memory are searched as one text (`MemoryText`: every turn's text end to end)
for a plain query, with one `str.find` per matching turn instead of a regex
call per turn (100,000 turns: ~45-100 ms -> a few ms). Regexes are checked
turn by turn. Either way a turn matches exactly when the query's pattern
matches its `turn_text`. No Textual here.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence, Sized
from dataclasses import dataclass, field

from pivotal.model import Turn
from pivotal.text.shell import input_lines

OUTPUT_LIMIT = 200_000
"""Characters of a tool's output that are searched (what the transcript can show, and more)."""
CHUNK = 1 << 20
RAW_SAFE = re.compile(r"[ !#-\[\]-~]+")
"""Printable ASCII but `"` and `\\`: JSON writes these characters as themselves."""
MIN_RAW = 2
"""Shorter pieces are not looked for in the file: nearly every record holds them."""
FOLDING = "\u0130\u0131\u017f\u212a"
FOLDS_TO_ASCII = re.compile(f"[{FOLDING}]")
"""The letters besides ASCII's that `re.IGNORECASE` matches to ASCII ones (İ ı ſ K):
in a text without them, lower-casing it and `find` agree with the pattern."""


@dataclass(frozen=True, slots=True)
class Query:
    """The person's search: text (or a regex) and whether case matters."""

    text: str
    regex: bool = False
    typed: str | None = None
    """What the person typed, when the pattern was built for them from it (a hit of the
    cross-session search: its terms as a regex). Shown, and searched again by `*`."""

    @property
    def label(self) -> str:
        """The search in the person's words."""
        return self.typed if self.typed is not None else self.text

    @property
    def case_sensitive(self) -> bool:
        return any(ch.isupper() for ch in self.text)

    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern (raises re.error for a bad regex)."""
        source = self.text if self.regex else re.escape(self.text)
        return re.compile(source, 0 if self.case_sensitive else re.IGNORECASE)

    def plain(self) -> str | None:
        """The text when `str.find` of it (lower-cased, unless case matters) is the search."""
        if self.regex or not self.text or "\0" in self.text:
            return None
        if self.case_sensitive:
            return self.text
        return self.text.lower() if self.text.isascii() else None

    def raw(self) -> tuple[bytes, bool] | None:
        """(bytes every match holds as they are in the file, compare them lower-cased), or None.

        JSON writes printable ASCII but `"` and `\\` as itself, so the longest such
        piece of the text (of a regex: of the literal runs every match holds) is in
        the records of every turn that matches. None when no piece is `MIN_RAW` long.
        """
        runs, fold = [self.text], not self.case_sensitive
        if self.regex:
            runs, ignores_case = required_literals(self.text)
            fold = fold or ignores_case
        pieces = [piece for run in runs for piece in RAW_SAFE.findall(run)]
        best = max(pieces, key=len, default="")
        if len(best) < MIN_RAW:
            return None
        raw = best.encode("ascii")
        return (raw.lower() if fold else raw), fold


def required_literals(pattern: str) -> tuple[list[str], bool]:
    """Runs of characters every match of the regex `pattern` holds as they are, and whether
    its own flags (`(?i)`) ignore case; ([], False) when it cannot be parsed."""
    from re import _constants, _parser  # type: ignore[attr-defined]

    try:
        parsed = _parser.parse(pattern)
    except Exception:  # noqa: BLE001 - a bad regex is reported when it is compiled
        return [], False
    runs: list[str] = []
    _literal_runs(parsed, runs, _constants)
    return runs, bool(parsed.state.flags & re.IGNORECASE)


def _literal_runs(items: object, runs: list[str], ops: object) -> None:
    """Append the runs of LITERALs in `items` (a parsed pattern) that every match passes."""
    run: list[str] = []
    for op, arg in items:  # type: ignore[attr-defined]
        if op is ops.LITERAL:  # type: ignore[attr-defined]
            run.append(chr(arg))
            continue
        if run:
            runs.append("".join(run))
            run = []
        if op is ops.SUBPATTERN and not arg[1] and not arg[2]:  # a group, its flags as ours
            _literal_runs(arg[3], runs, ops)
        elif op in (ops.MAX_REPEAT, ops.MIN_REPEAT) and arg[0] >= 1:  # type: ignore[attr-defined]
            _literal_runs(arg[2], runs, ops)  # at least once: what it holds is held
    if run:
        runs.append("".join(run))


def turn_text(turn: Turn) -> str:
    """Everything of a turn a person might search for: what the transcript can show."""
    pieces = [turn.preview]
    try:
        parts = turn.parts
    except Exception:  # noqa: BLE001 - undecodable turns are still searchable by preview
        parts = []
    for part in parts:
        pieces.append(part.text)
        call = part.tool
        if call is not None:
            pieces += [call.name, input_text(call.input), (call.output or "")[:OUTPUT_LIMIT]]
    return "\n".join(pieces)


def input_text(value: object) -> str:
    """A call's input as the transcript shows it (a command given as words as typed)."""
    return input_lines(value)


@dataclass(slots=True)
class SpanIndex:
    """Byte spans of the lazily decoded turns, by offset: which turn a byte belongs to."""

    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)
    lazy: set[int] = field(default_factory=set)
    memory: MemoryText | None = None
    """The text of the turns held in memory, made once: every search reads them all."""

    def memory_of(self, turns: list[Turn]) -> MemoryText:
        if self.memory is None:
            self.memory = MemoryText(turns, self.lazy)
        return self.memory

    def text_of(self, turn: Turn) -> str:
        if turn.index in self.lazy or self.memory is None:
            return turn_text(turn)  # decoded from the file: not kept (it may be megabytes)
        return self.memory.text_of(turn.index)

    @classmethod
    def of(cls, turns: list[Turn]) -> SpanIndex:
        spans = []
        lazy = set()
        for turn in turns:
            if turn._parts is not None or turn._loader is None or not turn.extra:
                continue
            found = turn.extra.get("spans")
            if not isinstance(found, list):
                continue
            lazy.add(turn.index)
            spans += [(offset, offset + length, turn.index) for offset, length in found]
        spans.sort()
        starts, ends, owners = ([span[n] for span in spans] for n in range(3))
        return cls(starts, ends, owners, lazy)

    def memory_is_cheap(self, turns: list[Turn]) -> bool:
        """Whether `memory_of` would only copy text already in memory: every turn not read
        from its byte spans holds its parts (a reader that rebuilds parts on demand, such as
        Kimi's or Cline's, would have every turn decoded and its text kept)."""
        lazy = self.lazy
        return all(t._parts is not None or t._loader is None or t.index in lazy for t in turns)

    def owner(self, offset: int) -> int | None:
        pos = bisect_right(self.starts, offset) - 1
        if pos >= 0 and offset < self.ends[pos]:
            return self.owners[pos]
        return None


class MemoryText:
    """Every in-memory turn's `turn_text`, end to end with a NUL between two (no query has one).

    `find` looks for a plain query in all of them at once; `starts` says whose
    text an offset is in. The lower-cased copy is made on the first search
    that ignores case.
    """

    def __init__(self, turns: list[Turn], lazy: set[int]) -> None:
        self.indices = [n for n in range(len(turns)) if n not in lazy]
        self.position = {index: k for k, index in enumerate(self.indices)}
        texts = [turn_text(turns[n]) for n in self.indices]
        self.text = "\0".join(texts)
        self.starts = starts_of(texts)
        self._folded: tuple[str, list[int], set[int]] | None = None

    def text_of(self, index: int) -> str:
        k = self.position[index]
        end = self.starts[k + 1] - 1 if k + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[k] : end]

    def find(self, needle: str, fold: bool, cancelled: Callable[[], bool]) -> set[int] | None:
        """Turns whose text holds `needle` (lower-cased when `fold`); None when cancelled.

        With `fold`, turns holding one of `FOLDS_TO_ASCII` are left for the
        caller to check with the pattern (`unsure`).
        """
        hay: str | bytes = self.text
        starts, wanted = self.starts, needle
        if fold:  # a query that ignores case is ASCII (`Query.plain`)
            hay, starts, _ = self.folded()
            wanted = needle.encode("ascii")
        found: set[int] = set()
        at = hay.find(wanted)  # type: ignore[arg-type]  # bytes in bytes, str in str
        while at >= 0:
            k = bisect_right(starts, at) - 1
            found.add(self.indices[k])
            if len(found) % 4096 == 0 and cancelled():
                return None
            at = hay.find(wanted, starts[k + 1]) if k + 1 < len(starts) else -1  # type: ignore[arg-type]
        return found

    def unsure(self) -> set[int]:
        """Turns where lower-casing and `re.IGNORECASE` may disagree (see `FOLDS_TO_ASCII`)."""
        return self.folded()[2]

    def folded(self) -> tuple[bytes, list[int], set[int]]:
        """The text as UTF-8 with ASCII lower-cased, where each turn starts in it, and the
        turns holding a letter `re.IGNORECASE` folds to ASCII (see `FOLDS_TO_ASCII`).

        For an ASCII needle, the only kind folded (`Query.plain`), this finds what
        lower-casing the text finds: no other character lower-cases to ASCII, and no
        byte of a character beyond ASCII is an ASCII byte. It is built in a third of the
        time (a 1 GB session's 24 M characters in memory: 0.06 s, not 0.18) and half the
        memory of a lower-cased copy of a text that is not all ASCII.
        """
        if self._folded is None:
            texts = [self.text_of(index) for index in self.indices]
            unsure: set[int] = set()
            if any(letter in self.text for letter in FOLDING):
                pairs = zip(self.indices, texts, strict=True)
                unsure = {index for index, text in pairs if FOLDS_TO_ASCII.search(text)}
            encoded = [text.encode("utf-8", "surrogatepass") for text in texts]
            self._folded = (b"\0".join(encoded).lower(), starts_of(encoded), unsure)
        return self._folded


def starts_of(texts: Sequence[Sized]) -> list[int]:
    """Where each of `texts` starts once they are joined with one character between."""
    starts, at = [], 0
    for text in texts:
        starts.append(at)
        at += len(text) + 1
    return starts


def raw_hits(
    path: str,
    needle: bytes,
    fold: bool,
    cancelled: Callable[[], bool],
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
    next_from: Callable[[int], int] | None = None,
) -> Iterator[int]:
    """Byte offsets in the file where `needle` starts (`fold`: compare lower-cased), ascending.

    Each block is searched where it lies (no copy of it joined to the last one's
    tail); a match across two blocks is found in the few bytes around their seam.
    Blocks of 1 MiB stay in the cache between the read, `lower` and `find`: 100 MB
    took 92-97 ms in 4 MiB blocks joined to the tail, 64-66 ms so (1 Dec 2026).
    `progress` is told the bytes read so far after each block; `next_from(offset)`
    says where to look on after a hit (the end of its record: a word in every line
    of a 1 GB file is then one hit a record, not millions).
    """
    overlap = len(needle) - 1
    base = 0
    tail = b""
    resume = 0
    """No hit before this offset is wanted."""
    with open(path, "rb", buffering=0) as handle:
        while not cancelled():
            block = handle.read(chunk)
            if not block:
                return
            hay = block.lower() if fold else block
            if tail:  # a match that starts in the last block and ends in this one
                seam, seam_at = tail + hay[:overlap], base - len(tail)
                start = seam.find(needle, max(resume - seam_at, 0))
                while 0 <= start < len(tail):
                    at = seam_at + start
                    yield at
                    resume = max(next_from(at) if next_from else 0, at + 1)
                    start = seam.find(needle, resume - seam_at)
            start = hay.find(needle, max(resume - base, 0))
            while start >= 0:
                at = base + start
                yield at
                resume = max(next_from(at) if next_from else 0, at + 1)
                start = hay.find(needle, resume - base)
            tail = (tail + hay if len(hay) < overlap else hay)[-overlap:] if overlap else b""
            base += len(block)
            if progress is not None:
                progress(base)


Progress = Callable[[str, int, int], None]
"""Told how far a search got: ("file", bytes read, file size) or ("turns", checked, to check)."""
PROGRESS_EVERY = 256
"""Turns checked between two calls of `Progress`."""


class Finder:
    """One query over one turn list: which turns match, each turn checked at most once.

    `path` is the session file the lazy turns' spans point into (None: none are).
    Building it scans the file for a raw-safe query (see the module docstring).
    """

    def __init__(
        self,
        turns: list[Turn],
        query: Query,
        path: str | None,
        cancelled: Callable[[], bool] = lambda: False,
        spans: SpanIndex | None = None,
        progress: Progress | None = None,
    ) -> None:
        self.turns = turns
        self.pattern = query.pattern()
        self.cancelled = cancelled
        self.progress = progress
        self.skip: set[int] = set()
        """Lazy turns whose records do not hold the query: no need to decode them."""
        self._checked: dict[int, bool] = {}
        spans = self.spans = spans or SpanIndex.of(turns)
        raw = query.raw()
        if raw is not None and path is not None and os.path.isfile(path) and spans.lazy:
            self.skip = spans.lazy - self._raw_owners(path, *raw)
        self.known: set[int] | None = None
        """The in-memory turns that match, when found at once (`MemoryText`)."""
        # the in-memory text is made once and kept with the spans: a regex reads it turn by turn
        memory = spans.memory_of(turns)
        needle = query.plain()
        if needle is not None:
            fold = not query.case_sensitive
            known = memory.find(needle, fold, cancelled)
            if known is not None and fold:  # İ ı ſ K: the pattern decides
                for index in memory.unsure():
                    text = memory.text_of(index)
                    (known.add if self.pattern.search(text) else known.discard)(index)
            self.known = known

    def _raw_owners(self, path: str, needle: bytes, fold: bool) -> set[int]:
        """The lazy turns whose records hold `needle` (one pass over the file)."""
        spans, owners = self.spans, set()
        size = max(os.path.getsize(path), 1)
        progress = self.progress

        def next_from(offset: int) -> int:
            pos = bisect_right(spans.starts, offset) - 1
            if pos >= 0 and offset < spans.ends[pos]:
                owners.add(spans.owners[pos])
                return spans.ends[pos]  # the rest of this record cannot add its turn again
            return offset + 1

        def read(done: int) -> None:
            if progress is not None:
                progress("file", done, size)

        for _ in raw_hits(path, needle, fold, self.cancelled, progress=read, next_from=next_from):
            pass
        return owners

    def matches(self, index: int) -> bool:
        if index in self.skip:
            return False
        if self.known is not None and index not in self.spans.lazy:
            return index in self.known
        found = self._checked.get(index)
        if found is None:
            turn = self.turns[index]
            text = self.spans.text_of(turn)
            found = self._checked[index] = bool(self.pattern.search(text))
        return found

    def all(self) -> list[int] | None:
        """Every matching turn, ascending (None when cancelled)."""
        if self.known is not None:  # only the lazy turns are left to check
            found = set(self.known)
            left = sorted(self.spans.lazy - self.skip)
            for done, index in enumerate(left):
                if self.stopped(done, len(left)):
                    return None
                if self.matches(index):
                    found.add(index)
            return sorted(found)
        result = []
        for index in range(len(self.turns)):
            if self.stopped(index, len(self.turns)):
                return None
            if self.matches(index):
                result.append(index)
        return result

    def stopped(self, done: int, total: int) -> bool:
        """Cancelled? (Every `PROGRESS_EVERY` turns it also says how far it got.)"""
        if done % PROGRESS_EVERY == 0 and self.progress is not None and done:
            self.progress("turns", done, total)
        return self.cancelled()


def find_all(
    turns: list[Turn],
    query: Query,
    path: str | None,
    cancelled: Callable[[], bool] = lambda: False,
    spans: SpanIndex | None = None,
) -> list[int] | None:
    """Indices of every turn matching `query`, ascending (None when cancelled)."""
    return Finder(turns, query, path, cancelled, spans).all()
