"""Looking things up in the search index: the query, the ranking, the snippet.

A query is words and "exact phrases"; every one must be in a text, as any part
of it (`time` finds `timeout`, `超时` finds `连接超时了`), case ignored. A word
or phrase of three characters or more is looked up by its trigrams in the FTS5
index; a shorter one (two Chinese characters are a word) by reading the texts
the others found, or every text when there is nothing else to go by.

Ranking is BM25's (term frequency saturating, long texts discounted against
the average text), times a weight for who wrote it: the person's own messages
and commands come before the agent's words (and the client's system lines), and
those before tool outputs, which are long and repeat what was run. Every word
must be there, so how rare each is ranks nothing; among equals the newer turn
comes first. The index ranks all candidates by length and speaker in SQL; the
best few hundred are read, checked (a text holding a phrase's trigrams apart is
no hit), counted and ranked again. One hit per turn: its best text. A
sub-agent's text is a hit of the session that ran it, at the turn whose call
ran it (`placed`), and says where in the sub-agent it is (`SubagentHit`).
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable, Iterable
from typing import NamedTuple

from pivotal.catalog.search_index import LINEAGE, SearchIndex, SessionRow, failure
from pivotal.catalog.search_text import AGENT, COMMAND, OUTPUT, SUMMARY, SYSTEM, YOU
from pivotal.text.fit import cells, head, tail
from pivotal.text.safe import clean

WEIGHTS = {YOU: 1.0, COMMAND: 0.85, AGENT: 0.6, SUMMARY: 0.6, SYSTEM: 0.6, OUTPUT: 0.3}
"""Who wrote a text, as a factor of its score: your words first, long outputs last (the
client's short system lines beside the agent's words)."""
K1, B = 1.2, 0.75
"""BM25's usual constants: term-frequency saturation and length normalisation."""
SHORT = 3
"""Terms shorter than this have no trigram: they are found by reading the texts."""
RERANK = 200
"""At least this many candidates (best by length and speaker) are read and ranked exactly."""
SNIPPET_WIDTH = 100
ELLIPSIS = "…"


class SearchQuery(NamedTuple):
    """The person's words and phrases, each to be found as a substring, case ignored."""

    text: str
    terms: tuple[str, ...]

    @property
    def pattern(self) -> re.Pattern[str]:
        """Any term (longest first, so a phrase is marked whole rather than a word inside it)."""
        ordered = sorted(self.terms, key=len, reverse=True)
        return re.compile("|".join(re.escape(t) for t in ordered), re.IGNORECASE)

    def match_expression(self) -> str | None:
        """The FTS5 MATCH text: every trigram of every long term (None: only short terms)."""
        grams: dict[str, None] = {}
        for term in self.terms:
            folded = term.lower()
            for start in range(len(folded) - SHORT + 1):
                grams.setdefault(folded[start : start + SHORT])
        if not grams:
            return None
        return " AND ".join('"' + gram.replace('"', '""') + '"' for gram in grams)

    @property
    def short_terms(self) -> list[str]:
        return [t for t in self.terms if len(t) < SHORT]

    @property
    def label(self) -> str:
        """The query as a line quotes it: as typed, but one "quoted phrase" without the
        person's own quotes (`“nccl timeout”`, not `“"nccl timeout"”`)."""
        text = self.text.strip()
        if len(self.terms) == 1 and text.startswith('"') and '"' not in text[1:-1]:
            return self.terms[0]
        return text


def parse_query(text: str) -> SearchQuery:
    """Words and "quoted phrases" (a quote left open runs to the end), each once."""
    terms: list[str] = []
    for match in re.finditer(r'"([^"]*)"?|(\S+)', text):
        phrase, word = match.group(1), match.group(2)
        term = phrase.strip() if phrase is not None else word.strip('"')
        if term and term.lower() not in (t.lower() for t in terms):
            terms.append(term)
    return SearchQuery(text, tuple(terms))


class SubagentHit(NamedTuple):
    """Where in a sub-agent a hit is: the sub-agents from the session's down to the one that
    matched (each row's `parent_turn` is its turn in the one before), and the turn there."""

    chain: tuple[SessionRow, ...]
    turn: int
    """Index in the last sub-agent's turns."""

    @property
    def row(self) -> SessionRow:
        return self.chain[-1]


class Hit(NamedTuple):
    """One turn that matches: where it is, who wrote the text that matched, its score."""

    session: SessionRow
    turn: int
    """Index in the session's turns (the replayer shows it as #turn+1); for a hit in a
    sub-agent, the turn whose call ran it (`subagent` says where in it)."""
    who: int
    time: float | None
    score: float
    body: str
    subagent: SubagentHit | None = None
    """Set when the text is a sub-agent's, not the session's own."""


def placed(
    row: SessionRow, turn: int, rows: dict[int, SessionRow]
) -> tuple[SessionRow, int, SubagentHit | None]:
    """(session, turn in it, sub-agent part) of a text at `turn` of the session `row`:
    a sub-agent's text is a hit of the session that ran it (`rows` holds its runners)."""
    chain: list[SessionRow] = []
    current, seen = row, {row.id}
    while current.parent is not None and len(chain) < LINEAGE:
        runner = rows.get(current.parent)
        if runner is None or runner.id in seen:
            break  # its runner is gone (or a loop): it is found as what it is
        seen.add(runner.id)
        chain.append(current)
        current = runner
    if not chain:
        return row, turn, None
    chain.reverse()
    return current, chain[0].parent_turn or 0, SubagentHit(tuple(chain), turn)


class Filters:
    """What narrows a search: agents (format names or their first word), a time, sessions."""

    __slots__ = ("agents", "since", "sessions")

    def __init__(
        self,
        agents: tuple[str, ...] = (),
        since: float | None = None,
        sessions: set[int] | None = None,
    ) -> None:
        self.agents = agents
        self.since = since
        self.sessions = sessions
        """Only these session ids (None: every session in the index)."""


def agent_matches(agent: str, fmt: str) -> bool:
    """`--agent claude` is Claude Code's `claude-code`; `codex` is itself."""
    agent, fmt = agent.lower(), fmt.lower()
    return fmt == agent or fmt.startswith(agent + "-")


def search(
    index: SearchIndex,
    query: SearchQuery,
    filters: Filters | None = None,
    limit: int = 20,
    cancelled: Callable[[], bool] = lambda: False,
) -> list[Hit]:
    """The `limit` best hits for `query`, best first (fewer when fewer match)."""
    if not query.terms or limit <= 0:
        return []
    filters = filters or Filters()
    try:
        return _search(index, query, filters, limit, cancelled)
    except sqlite3.Error as exc:
        raise failure(exc, index.path, "search failed") from exc


def _search(
    index: SearchIndex,
    query: SearchQuery,
    filters: Filters,
    limit: int,
    cancelled: Callable[[], bool],
) -> list[Hit]:
    conn = index.conn
    where, args = _conditions(index, query, filters)
    if where is None:
        return []
    average = index.average_length()
    weight = " ".join(f"WHEN {who} THEN {w}" for who, w in WEIGHTS.items())
    prior = (
        f"(CASE d.who {weight} ELSE 0.3 END)"
        f" / ({K1} * (1 - {B} + {B} * d.length / {float(average)}) + 1.0)"
    )
    sql = (
        "SELECT d.id, d.session, d.turn, d.who, d.time, d.length"
        " FROM text JOIN docs d ON d.id = text.rowid"
        f" WHERE {' AND '.join(where)} ORDER BY {prior} DESC, d.time DESC LIMIT ? OFFSET ?"
    )
    pattern_terms = [re.compile(re.escape(t), re.IGNORECASE) for t in query.terms]
    best: dict[tuple[int, int], tuple[float, int, int, float | None, str]] = {}
    page = max(RERANK, 4 * limit)
    offset = 0
    while True:
        rows = conn.execute(sql, (*args, page, offset)).fetchall()
        if cancelled():
            return []
        bodies = index.bodies([row[0] for row in rows])
        for doc_id, session, turn, who, time, length in rows:
            body = bodies.get(doc_id)
            if body is None:
                continue
            value = score(body, pattern_terms, who, length, average)
            if value is None:
                continue  # the trigrams are there, the phrase is not
            known = best.get((session, turn))
            if known is None or value > known[0]:
                best[(session, turn)] = (value, doc_id, who, time, body)
        offset += len(rows)
        if len(rows) < page or len(best) >= limit:
            break
    ranked = sorted(best.items(), key=lambda item: (-item[1][0], -(item[1][3] or 0.0)))[:limit]
    rows_of = index.lineage(session for (session, _), _ in ranked)
    hits = []
    for (session, turn), (value, _, who, time, body) in ranked:
        if session in rows_of:
            row, at, sub = placed(rows_of[session], turn, rows_of)
            hits.append(Hit(row, at, who, time, value, body, sub))
    return hits


def _conditions(
    index: SearchIndex, query: SearchQuery, filters: Filters
) -> tuple[list[str] | None, list[object]]:
    """The WHERE clauses and their values (None: nothing can match)."""
    where: list[str] = []
    args: list[object] = []
    match = query.match_expression()
    if match is not None:
        where.append("text MATCH ?")
        args.append(match)
    for term in query.short_terms:
        # instr, not LIKE: the trigram table answers LIKE on fewer than 3 characters with nothing
        where.append("instr(lower(text.body), ?) > 0")
        args.append(term.lower())
    if filters.agents:
        formats = [
            fmt
            for (fmt,) in index.conn.execute("SELECT DISTINCT format FROM sessions")
            if any(agent_matches(a, fmt) for a in filters.agents)
        ]
        if not formats:
            return None, []
        marks = ",".join("?" * len(formats))
        where.append(f"d.session IN (SELECT id FROM sessions WHERE format IN ({marks}))")
        args.extend(formats)
    if filters.since is not None:
        where.append(
            "(d.time >= ? OR (d.time IS NULL AND d.session IN"
            " (SELECT id FROM sessions WHERE updated >= ?)))"
        )
        args.extend([filters.since, filters.since])
    if filters.sessions is not None:
        if not filters.sessions:
            return None, []
        index.conn.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (id INTEGER PRIMARY KEY)")
        index.conn.execute("DELETE FROM temp.wanted")
        index.conn.executemany(
            "INSERT OR IGNORE INTO temp.wanted VALUES (?)", [(s,) for s in filters.sessions]
        )
        for _ in range(LINEAGE):  # and the sub-agents they ran, theirs, ...
            before = index.conn.total_changes
            index.conn.execute(
                "INSERT OR IGNORE INTO temp.wanted SELECT id FROM sessions"
                " WHERE parent IN (SELECT id FROM temp.wanted)"
            )
            if index.conn.total_changes == before:
                break
        where.append("d.session IN (SELECT id FROM temp.wanted)")
    return where, args


def score(
    body: str, terms: list[re.Pattern[str]], who: int, length: int, average: float
) -> float | None:
    """BM25 of `body` for terms that must all be there (None: one is not), times who's weight."""
    norm = K1 * (1 - B + B * length / average)
    total = 0.0
    for term in terms:
        count = 0
        for _ in term.finditer(body):
            count += 1
            if count == 50:
                break
        if not count:
            return None
        total += count * (K1 + 1) / (count + norm)
    return total * WEIGHTS.get(who, 0.3)


# -- snippets ----------------------------------------------------------------------


class Snippet(NamedTuple):
    """One line around the first match, safe to print, and where the matches are in it."""

    text: str
    spans: tuple[tuple[int, int], ...]


REDACT_WHOLE = 50_000
"""Texts up to this long are redacted whole; longer ones around the match (±`REDACT_AROUND`)."""
REDACT_AROUND = 5_000


def snippet(
    body: str,
    pattern: re.Pattern[str],
    width: int = SNIPPET_WIDTH,
    transform: Callable[[str], str] | None = None,
) -> Snippet:
    """`body` on one line of at most `width` cells around its first match, cleaned for a
    terminal: the match in view, a cut end marked `…` (inside the width, as `text.fit.clip`).

    `transform` (redaction) sees the match with enough text around it to recognise a
    secret whole (a private key, a URL with a password) before anything is cut.
    """
    found = pattern.search(body)
    at = found.start() if found else 0
    if transform is not None:
        if len(body) > REDACT_WHOLE:
            start = max(0, at - REDACT_AROUND)
            body = body[start : at + REDACT_AROUND]
        body = transform(body)
        found = pattern.search(body)
        at = found.start() if found else max(body.find("[REDACTED:"), 0)
    start = max(0, at - 4 * width)
    window = body[start : at + 4 * width]
    prefix = len(_flat(clean(window[: at - start])))
    line = _flat(clean(window))
    spans = [m.span() for m in pattern.finditer(line)]
    first = next((s for s in spans if s[0] >= prefix - 1), None)
    focus = first[0] if first is not None else min(prefix, len(line))
    begin, end = _view(line, focus, width)
    lead = ELLIPSIS if begin > 0 else ""
    text = lead + line[begin:end] + (ELLIPSIS if end < len(line) else "")
    shift = len(lead) - begin
    kept = tuple(
        (max(s, begin) + shift, min(e, end) + shift) for s, e in spans if e > begin and s < end
    )
    return Snippet(text, kept)


def _view(line: str, focus: int, width: int) -> tuple[int, int]:
    """Where the snippet starts and ends in `line`: `width` terminal cells (a CJK character
    or an emoji takes two) with the `…` marking a cut end, about a third of them before the
    match at `focus` (more when the end of the line comes into view: the room is filled)."""
    if cells(line) <= width:
        return 0, len(line)
    before = line[:focus]
    third = width // 3
    begin = 0 if cells(before) <= third else focus - len(tail(before, max(third - 1, 0)))
    if begin > 0 and cells(line[begin:]) <= width - 1:
        return len(line) - len(tail(line, width - 1)), len(line)
    room = width - (1 if begin > 0 else 0) - 1
    return begin, begin + len(head(line[begin:], max(room, 0)))


_SPACE = re.compile(r"\s+")


def _flat(text: str) -> str:
    return _SPACE.sub(" ", text)


def marked(snip: Snippet, before: str, after: str) -> str:
    """The snippet's text with `before` and `after` around each match."""
    out: list[str] = []
    position = 0
    for start, end in snip.spans:
        out.append(snip.text[position:start])
        out.append(before + snip.text[start:end] + after)
        position = end
    out.append(snip.text[position:])
    return "".join(out)


def hit_keys(hits: Iterable[Hit]) -> list[tuple[str, str | None, int]]:
    """(path, key, turn) of each hit: what tests and callers compare."""
    return [(h.session.path, h.session.key, h.turn) for h in hits]


def subagent_title(row: SessionRow) -> str:
    """What a sub-agent is called: its title (a Task call's description), else its id."""
    return row.title or row.session_id or os.path.basename(row.where[0])
