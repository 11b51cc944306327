"""A listing of the sessions every agent keeps on this machine, quick and detailed.

The quick part stats files, reads a few KB of their head for the working
directory and start time, and asks databases for their session rows. The
detailed part (turn and pivot counts) needs a full read of each session, so
it is done once per file version and kept in the session index; with
thousands of sessions only the new or changed ones are read, in a process
pool when there are many. Where each agent keeps its sessions (and the
environment variables that move them) is `locations.py`; `roots` replaces the home
directory (for copies of other machines' homes and for tests).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from stat import S_ISDIR, S_ISREG
from typing import TYPE_CHECKING, NamedTuple

from msgspec.structs import replace

from pivotal.catalog.index import IndexUnavailable, SessionIndex, Stamp, file_stamp, open_index
from pivotal.catalog.locations import agent_locations, candidate_files
from pivotal.catalog.reach import IndexedReaches
from pivotal.catalog.search_index import (
    FileText,
    SearchDamaged,
    SearchIndex,
    SearchUnavailable,
    open_search_index,
)
from pivotal.catalog.search_index import reset as reset_search
from pivotal.catalog.search_text import Doc, SubText, session_docs
from pivotal.catalog.search_writer import TextWriter
from pivotal.catalog.workers import Located, Wanted, run_all
from pivotal.cores import usable_cores
from pivotal.model import Session, SessionRef, last_change
from pivotal.readers import Problem, read_head, read_session, sniff_path
from pivotal.readers.base import decode_json, parse_timestamp
from pivotal.readers.files import claude_subagent_folder
from pivotal.readers.subagent_refs import Reach, listed_alone, reaches_of

if TYPE_CHECKING:  # spend is imported when a session is read, not for a quick listing
    from pivotal.catalog.search_subagents import Listed
    from pivotal.spend.subagents import Subagent

HEAD = 16 * 1024
POOL_THRESHOLD = 50
"""More files than this to read: use a process pool."""
MAX_WORKERS = 8
WRITE_BATCH = 200
_TIMESTAMP = re.compile(rb'"(?:timestamp|startTime)":"([0-9T:.\-+Z]{10,40})"')
_CWD = re.compile(rb'"cwd":"((?:[^"\\]|\\.){1,1000})"')


def discover_sessions(
    roots: Iterable[Path] | None = None,
    *,
    details: bool = True,
    use_cache: bool = True,
    warn: Callable[[str], None] | None = None,
    unlisted: list[Path] | None = None,
    held: list[SessionRef] | None = None,
) -> list[SessionRef]:
    """Every session in the agents' default locations, newest change first.

    A sub-agent with a file of its own is listed through the session that ran it, not
    as a session of its own, when that session is listed too and reaches it
    (`readers.subagent_refs`): the quick listing knows that from the session index, and
    lists a sub-agent whose parent's file is not counted there as it is now.
    With `details` each session also gets its exact turn, human-turn and pivot
    counts from a full read. The session index (`pivotal.catalog.index`) keeps
    them per file version, so only new or changed files are read and a warm
    listing only stats; `use_cache=False` reads everything and leaves the index
    alone. `details=False` is the quick listing (a stat and a few KB per file).
    `warn` receives one line if the index cannot be used (default: stderr). `unlisted`,
    when given, receives the quick listing's candidate files that hold something but
    listed no session (a shape pivotal does not know, a database it cannot read), so a
    caller can say so: `listing_problems` says why. `held`, when given, receives the
    sub-agents left to their parents (their files listed a session after all).
    """
    candidates = list(_located(roots))
    known = None  # the counted refs say what each session reaches
    if details:
        refs = _detailed(candidates, use_cache, warn or _warn_stderr)
    else:
        refs = []
        for path, agent in candidates:
            found = _refs_for(path, agent)
            refs.extend(found)
            if not found and unlisted is not None and _holds_something(path):
                unlisted.append(path)
        known = IndexedReaches() if use_cache else None
    shown = listed_alone(refs, known, held)
    shown.sort(key=last_change, reverse=True)
    return shown


def _candidates(roots: Iterable[Path] | None) -> Iterator[Path]:
    return (path for path, _ in _located(roots))


def _located(
    roots: Iterable[Path] | None, stamps: dict[Path, Stamp] | None = None
) -> Iterator[Located]:
    """Each candidate file (or storage folder) once, even when reachable twice (links).

    `stamps` receives each plain file's stamp from the stat this needs anyway.
    """
    homes: list[Path | None] = list(roots) if roots else [None]
    seen: set[tuple[int, int]] = set()
    for home in homes:
        for agent, folder in agent_locations(home):
            for path in candidate_files(agent, folder):
                try:
                    st = os.stat(path)  # one call, where realpath costs one per path part
                except OSError:
                    continue  # gone, or a dangling link
                if not (S_ISREG(st.st_mode) or S_ISDIR(st.st_mode)):
                    continue  # a FIFO named like a session would hang the listing
                if (st.st_dev, st.st_ino) not in seen:
                    seen.add((st.st_dev, st.st_ino))
                    if stamps is not None and S_ISREG(st.st_mode) and path.suffix != ".db":
                        stamps[path] = (st.st_size, st.st_mtime_ns)  # as `file_stamp` says
                    yield path, agent


def discover_details(
    roots: Iterable[Path] | None = None,
    *,
    use_cache: bool = True,
    warn: Callable[[str], None] | None = None,
    wanted: Wanted | None = None,
    progress: Progress | None = None,
) -> Iterator[list[SessionRef]]:
    """`discover_sessions(details=True)` one file at a time, as each is known.

    Cached files come first, then each file read anew, newest change first: a
    picker shown from the quick listing (newest first) fills its top rows, the
    ones on screen, first, instead of in the order the folders were walked.
    `wanted()` names files to read before the others whenever more are started
    (the picker's rows on screen once it is scrolled or filtered). The same
    reads fill the search index (`progress` says how far that got).
    """
    candidates = sorted(_located(roots), key=_changed_at, reverse=True)
    for _, refs in _iter_detailed(candidates, use_cache, warn or _warn_stderr, wanted, progress):
        yield refs


def details_of(
    refs: Iterable[SessionRef],
    *,
    use_cache: bool = True,
    warn: Callable[[str], None] | None = None,
    wanted: Wanted | None = None,
) -> Iterator[list[SessionRef]]:
    """`discover_details` for sessions found anywhere (`pivotal FOLDER`): each file of
    `refs` once, newest change first, with the same index and workers. Its picker showed
    `—` for every count: only the agents' own folders were ever counted."""
    files: dict[str, Located] = {}
    for ref in sorted(refs, key=last_change, reverse=True):
        files.setdefault(str(ref.path), (ref.path, ref.format))
    for _, found in _iter_detailed(list(files.values()), use_cache, warn or _warn_stderr, wanted):
        yield found


def refresh_index(
    candidates: list[Located],
    *,
    warn: Callable[[str], None] | None = None,
    progress: Progress | None = None,
    stamps: dict[Path, Stamp] | None = None,
    search: SearchIndex | None = None,
    listed: list[Located] | None = None,
) -> None:
    """Bring the search index up to date for `candidates` (what `pivotal search` runs first).

    Files it holds as they are now are not looked at again (`stamps`: those `located`
    knows already); the others are read by the listing pass, which updates the listing
    index with them too. `search`: the index, open already (left open). `listed`: every
    file listed, when `candidates` are only some of them (a sub-agent read again is left
    to a parent that is not: `_iter_detailed`).
    """
    progress = progress if progress is not None else Progress()
    listed = listed if listed is not None else list(candidates)  # before the fresh go
    opened = search is None
    search = _open_search(progress) if search is None else search
    if search is not None:
        try:
            candidates = stale_for_search(search, candidates, stamps, progress)
        finally:
            if opened:
                search.close()
        if not candidates:
            progress.finished = True
            progress.tell()
            return
    others = (listed, stamps or {})
    for _ in _iter_detailed(candidates, True, warn or _warn_stderr, None, progress, others):
        pass


def stale_for_search(
    search: SearchIndex,
    candidates: list[Located],
    stamps: dict[Path, Stamp] | None = None,
    progress: Progress | None = None,
) -> list[Located]:
    """The candidates whose text the index lacks as they are now; indexed files that are
    gone (and were not found) are forgotten on the way."""
    stamps = stamps or {}
    stale = []
    keys = [os.path.abspath(path) for path, _ in candidates]
    # first: a session gone frees its sub-agents' own files, which are then read as sessions
    _tidy_search(search, set(keys), 0, progress if progress is not None else Progress())
    for key, (path, agent) in zip(keys, candidates, strict=True):
        stamp = stamps.get(path) or file_stamp(path) or (0, 0)
        if not search.fresh_key(key, text_stamp(path, agent, stamp)):
            stale.append((path, agent))
    return stale


def located(
    roots: Iterable[Path] | None = None, stamps: dict[Path, Stamp] | None = None
) -> list[Located]:
    """Every candidate session file (or folder) in the agents' locations, with its agent
    (`stamps` receives what a stat already told of plain files: see `_located`)."""
    return list(_located(roots, stamps))


class Progress:
    """How far a listing pass got with the files it reads (another thread may look).

    `reading` is how many files the pass reads in full (new or changed: for their
    counts, their text or both), `read` how many it has; `searchable` is False
    when the search index could not be used (`problem` says why).
    """

    def __init__(self, report: Callable[[Progress], None] | None = None) -> None:
        self.reading = 0
        self.read = 0
        self.finished = False
        self.searchable = True
        self.problem = ""
        self.error: SearchUnavailable | None = None
        """What stopped the search index being used or written (SearchDamaged: set aside)."""
        self.report = report

    def tell(self) -> None:
        if self.report is not None:
            self.report(self)


def _changed_at(candidate: Located) -> float:
    try:
        return os.stat(candidate[0]).st_mtime
    except OSError:
        return 0.0  # gone since it was listed: read (and found missing) last


def _detailed(
    candidates: list[Located], use_cache: bool, warn: Callable[[str], None]
) -> list[SessionRef]:
    found = dict(_iter_detailed(candidates, use_cache, warn))
    return [ref for n in sorted(found) for ref in found[n]]


def _iter_detailed(
    candidates: list[Located],
    use_cache: bool,
    warn: Callable[[str], None],
    wanted: Wanted | None = None,
    progress: Progress | None = None,
    others: tuple[list[Located], dict[Path, Stamp]] | None = None,
) -> Iterator[tuple[int, list[SessionRef]]]:
    """(candidate number, its refs) for every candidate: cached ones first, then read ones.

    A file whose counts are cached but whose text the search index lacks is read
    for its text only (its refs are not yielded twice). A sub-agent that a listed
    session reaches (`readers.subagent_refs`) is yielded (a caller leaves it out:
    `listed_alone`) but not indexed as a session: the parent's read indexes its text
    (its file is known to the search index, with no session, so it is not read again
    for its text). What the sessions reach is learnt as they are known: from the
    listing index, then from each read; a sub-agent read before its parent is indexed
    as a session until the parent's texts take it back (`SearchIndex._claim`).
    `others`: every file listed with the stamps known of them, when `candidates` are
    only some (their sessions, as the listing index has them, may reach a candidate).
    """
    progress = progress if progress is not None else Progress()
    reach = Reach()
    index = None
    search = None
    writer: TextWriter | None = None
    texts: list[FileText] = []
    quiet: list[FileText] = []
    """Sub-agents' files known from the listing index: in the search index with no session."""
    if use_cache:
        try:
            index = open_index()
        except IndexUnavailable as exc:
            warn(f"session cache off: {exc}; listing without it")
        search = _open_search(progress)
    try:
        todo: list[tuple[int, tuple[Path, str, bool, bool]]] = []
        text_only: list[tuple[int, Path, str, Stamp, list[SessionRef]]] = []
        for n, (path, agent) in enumerate(candidates):
            if index is not None or search is not None:
                stamp = file_stamp(path)
                if stamp is None:
                    continue  # gone since the folder was listed
                cached = index.lookup(path, stamp) if index is not None else None
                stamped = text_stamp(path, agent, stamp) if search is not None else stamp
                text = search is not None and not search.fresh(path, stamped)
                if cached is not None:
                    reach.add(cached)
                    yield n, cached
                    if text:  # read for it, unless a parent holds it (known once all are)
                        text_only.append((n, path, agent, stamped, cached))
                    continue
                todo.append((n, (path, agent, cached is None, text)))
            else:
                todo.append((n, (path, agent, True, False)))
        if index is not None and others is not None:
            _learn_others(reach, index, others, candidates)
        for n, path, agent, stamped, cached in text_only:
            if cached and all(reach.held(ref) for ref in cached):  # sub-agents only, reached
                quiet.append(FileText(path, stamped, []))
            else:
                todo.append((n, (path, agent, False, True)))
        progress.reading = len(todo)
        progress.tell()
        pending: list[tuple[Path, Stamp, list[SessionRef]]] = []
        texts: list[FileText] = []
        gathered = 0
        writer = TextWriter(search) if search is not None and (todo or quiet) else None
        texts.extend(quiet)
        workers = min(MAX_WORKERS, usable_cores())
        described = run_all(
            describe, [c for _, c in todo], workers=workers, pool_from=POOL_THRESHOLD, wanted=wanted
        )
        for k, (stamp, refs, found, stamped) in described:
            n, (path, _, counted, _) = todo[k]
            reach.add(refs)
            if counted:
                yield n, refs
                if index is not None and stamp is not None:
                    pending.append((path, stamp, refs))
                    if len(pending) >= WRITE_BATCH:
                        index = _flush(index, pending, warn)
            if writer is not None and stamped is not None and found is not None:
                sessions = [
                    (ref, docs, subs)
                    for ref, (docs, subs) in zip(refs, found, strict=True)
                    if not (ref.parent and reach.held(ref))
                ]
                texts.append(FileText(path, stamped, sessions))
                gathered += sum(len(docs) + _sub_count(subs) for docs, subs in found)
                if gathered >= TEXT_BATCH:
                    writer.put(texts)
                    texts, gathered = [], 0
            progress.read += 1
            progress.tell()
        if index is not None:
            index = _flush(index, pending, warn)
        written = 0
        if writer is not None and search is not None:
            writer.put(texts)
            error, written, writer = writer.close(), writer.written, None
            if error is None and search.freed:
                error = _read_freed(search, candidates + (others[0] if others else []), reach)
            if error is not None:
                _search_failed(search, error, progress)
                search = None
        seen = {os.path.abspath(p) for p, _ in candidates}
        if index is not None:
            try:
                index.drop_missing(seen)
            except IndexUnavailable as exc:
                warn(str(exc))
        if search is not None:
            _tidy_search(search, seen, written, progress)
    finally:
        if writer is not None:  # stopped early (the picker went away): what was read is kept
            writer.put(texts)
            writer.close()
        if index is not None:
            index.close()
        if search is not None:
            search.close()
        progress.finished = True
        progress.tell()


def _read_freed(
    search: SearchIndex, files: list[Located], reach: Reach
) -> SearchUnavailable | None:
    """Read again, for their text, the sub-agents' files this pass let go (a session's new
    version no longer reaches them): sessions of their own at once, not a pass later."""
    freed, search.freed = search.freed, set()
    texts, seen = [], set()
    for path, agent in files:
        key = os.path.abspath(path)
        if key not in freed or key in seen:
            continue
        seen.add(key)
        _, refs, found, stamped = describe(path, agent, counts=False, text=True)
        if found is None or stamped is None:
            continue
        sessions = [
            (ref, docs, subs)
            for ref, (docs, subs) in zip(refs, found, strict=True)
            if not (ref.parent and reach.held(ref))
        ]
        texts.append(FileText(path, stamped, sessions))
    try:
        search.store(texts)
    except SearchUnavailable as exc:
        return exc
    return None


def _learn_others(
    reach: Reach,
    index: SessionIndex,
    others: tuple[list[Located], dict[Path, Stamp]],
    candidates: list[Located],
) -> None:
    """Learn what the listed files that are not candidates reach, as the listing index has
    them now (a file changed since it was counted reaches nothing yet)."""
    files, stamps = others
    mine = {os.path.abspath(path) for path, _ in candidates}
    for path, _ in files:
        if os.path.abspath(path) in mine:
            continue
        stamp = stamps.get(path) or file_stamp(path)
        cached = index.lookup(path, stamp) if stamp is not None else None
        if cached:
            reach.add(cached)


TEXT_BATCH = 20_000
"""Texts gathered before they are written to the search index (one transaction)."""
TIDY_AFTER = 50_000
"""A pass that wrote this many texts merges the index's segments at its end."""


def _open_search(progress: Progress) -> SearchIndex | None:
    """The search index, or None with the reason in `progress` (a listing does not say it:
    the command that searches does)."""
    try:
        return open_search_index()
    except SearchUnavailable as exc:
        progress.searchable, progress.problem, progress.error = False, str(exc), exc
        return None


def _tidy_search(search: SearchIndex, seen: set[str], written: int, progress: Progress) -> None:
    try:
        search.drop_missing(seen)
        if written >= TIDY_AFTER:
            search.tidy()
    except SearchUnavailable as exc:
        _search_failed(search, exc, progress)


def _search_failed(search: SearchIndex, exc: SearchUnavailable, progress: Progress) -> None:
    """Stop writing texts this pass; a damaged index is set aside (the next pass rebuilds it)."""
    progress.searchable, progress.problem, progress.error = False, str(exc), exc
    if isinstance(exc, SearchDamaged):
        search.close()
        try:
            reset_search(search.path.parent)
        except SearchUnavailable as again:
            progress.problem = str(again)


def _flush(
    index: SessionIndex,
    pending: list[tuple[Path, Stamp, list[SessionRef]]],
    warn: Callable[[str], None],
) -> SessionIndex | None:
    """Write what was read so far (an interrupted first listing keeps its progress)."""
    try:
        index.store(pending)
    except IndexUnavailable as exc:
        warn(str(exc))
        index.close()
        return None
    finally:
        pending.clear()
    return index


Texts = tuple[list[Doc], list[SubText]]
"""A session's texts and its sub-agents' (`search_subagents`)."""


class Described(NamedTuple):
    """What `describe` found in one candidate file."""

    stamp: Stamp | None
    """What the counts hold for (None: do not keep them, an unexpected failure)."""
    refs: list[SessionRef]
    texts: list[Texts] | None
    """Each session's texts, when asked for."""
    text_stamp: Stamp | None
    """What the texts hold for: `stamp` with the sub-agents' files (`text_stamp`)."""


def describe(
    path: Path, agent: str | None = None, counts: bool = True, text: bool = False
) -> Described:
    """The sessions in one candidate file with their counts, the stamp they hold for,
    and (with `text`) each session's texts and its sub-agents' for the search index.

    `agent` is the one in whose folder the file was found (see `_refs_for`). The
    stamps are taken before reading, so a file (or a sub-agent's) that grows meanwhile
    is read again next time.
    """
    stamp = file_stamp(path)
    if stamp is None:
        return Described(None, [], None, None)
    stamped = text_stamp(path, agent, stamp) if text else None
    try:
        refs, texts = [], []
        found = _refs_for(path, agent)
        listed = {(os.path.abspath(ref.path), ref.key or "") for ref in found}
        for ref in found:
            ref, some = _read_one(ref, counts, text, listed)
            refs.append(ref)
            texts.append(some)
    except Exception:  # a reader bug must not break the listing, nor be cached
        return Described(None, [], None, None)
    # a session that could not be read holds no text until its file changes (as its counts)
    if not text:
        return Described(stamp, refs, None, None)
    return Described(stamp, refs, [t or ([], []) for t in texts], stamped)


def text_stamp(path: Path, agent: str | None, stamp: Stamp) -> Stamp:
    """`stamp` with the files of the sessions' sub-agents that are not in `path` (Claude
    Code's `<session>/subagents/`): a sub-agent that grows while its parent's file does not
    (a Task still running) is read again for search. For most sessions: one failed stat."""
    if agent != "claude-code" or path.suffix != ".jsonl":
        return stamp
    size, mtime = stamp
    try:
        with os.scandir(claude_subagent_folder(path)) as entries:
            for entry in entries:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                size, mtime = size + 1 + st.st_size, max(mtime, st.st_mtime_ns)
    except OSError:
        return stamp  # no sub-agent has a file of its own
    return size, mtime


def _sub_count(subs: list[SubText]) -> int:
    return sum(len(sub.docs) for sub in subs if sub.docs is not None)


def with_counts(ref: SessionRef) -> SessionRef:
    """`ref` with turns, human turns and pivots from a full read (None where it failed)."""
    return _read_one(ref, True, False)[0]


def _read_one(
    ref: SessionRef, counts: bool, text: bool, listed: Listed = ()
) -> tuple[SessionRef, Texts | None]:
    """One read of a session: its counts (`counts`) and its texts and its sub-agents' for
    search (`text`; `listed`: the file's sessions, which are not read as sub-agents).
    The sub-agents are read once, for their texts and the session's spend."""
    from pivotal.catalog.search_subagents import subagent_texts
    from pivotal.detect import PivotConfig, detect_pivots

    try:
        session = read_session(ref)
    except Exception:  # readers should not raise; a listing must survive one that does
        return (replace(ref, turns=None) if counts else ref), None
    texts: Texts | None = None
    subs: list[Subagent] | None = None
    if text:
        try:
            docs = session_docs(session)
        except Exception:  # noqa: BLE001 - the counts still stand; the text is tried next time
            docs = None
        if docs is not None:
            try:
                subs, found = subagent_texts(session, listed)
            except Exception:  # noqa: BLE001 - its own texts still stand
                subs, found = None, []
            texts = (docs, found)
    named = replace(
        ref,
        session_id=ref.session_id or session.id,
        title=ref.title or session.title or first_prompt(session),
        cwd=ref.cwd or session.cwd,
        started=ref.started if ref.started is not None else session.started,
        reaches=reaches_of(session),
    )
    if not counts:
        return named, texts
    try:
        pivots: int | None = len(detect_pivots(session.turns, PivotConfig()))
    except Exception:
        pivots = None
    tokens, cost, whole = _spend_of(session, subs)
    return (
        replace(
            named,
            turns=len(session.turns),
            human_turns=sum(1 for turn in session.turns if turn.is_human),
            pivots=pivots,
            tokens=tokens,
            cost=cost,
            cost_whole=whole,
        ),
        texts,
    )


TITLE_FROM_PROMPT = 100
"""Characters of the person's first message kept as a title, for a session without one."""


def first_prompt(session: Session) -> str | None:
    """The person's first words, on one line: what the agents' own pickers (Claude Code's
    /resume, Codex's resume list) show for a session that has no title of its own."""
    for turn in session.turns:
        if turn.is_human:
            words = " ".join(turn.preview.split())
            if words:
                return words[:TITLE_FROM_PROMPT]
    return None


def _spend_of(
    session: Session, subs: list[Subagent] | None = None
) -> tuple[int | None, float | None, bool | None]:
    """(tokens, dollars of the priced part, all priced) with its sub-agents (`subs`: read
    already); Nones when the format records no usage."""
    from pivotal.spend.session import SessionSpend, own_tally, session_spend

    try:
        spend = session_spend(session) if subs is None else SessionSpend(own_tally(session), subs)
        total = spend.total
    except Exception:  # a listing must survive a sub-agent it cannot read
        return None, None, None
    if not total.responses:
        return None, None, None
    priced = total.responses > total.unpriced
    return total.tokens, round(total.cost, 6) if priced else None, total.priced


def _warn_stderr(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        sys.stderr.write(f"pivotal: {message}\n")


_warned: set[str] = set()


def _refs_for(path: Path, agent: str | None = None) -> list[SessionRef]:
    """The sessions in `path`. Found in `agent`'s own folder, it is asked of that agent's
    format first (the quick listing and the counts must agree on it: both pass it)."""
    try:
        head = read_head(path)  # read once: for the sniff, and for the start and the folder
        spec = sniff_path(path, head, agent)
    except OSError:
        return []
    if spec is None:
        return []
    try:
        refs = spec.refs(path)
    except Exception:  # a locked or damaged database: this listing goes without it
        return []
    # A folder's refs may include sessions of other candidates (opencode's storage
    # tree lists the databases beside it): each file lists only its own.
    return [
        with_quick_metadata(ref, head[:HEAD] if ref.path == path else None)
        for ref in refs
        if _same_path(ref.path, path)
    ]


def session_refs(path: Path, agent: str | None = None) -> list[SessionRef]:
    """The sessions in one candidate file, with what a stat and its head tell of them."""
    return _refs_for(path, agent)


def _same_path(a: Path, b: Path) -> bool:
    return a == b or os.path.realpath(a) == os.path.realpath(b)


def with_quick_metadata(ref: SessionRef, head: bytes | None = None) -> SessionRef:
    """Fill size, last change, start time and cwd from a stat and a few KB of the file.

    `head` is the file's first `HEAD` bytes when the caller has them already.
    """
    path = ref.path
    try:
        st = path.stat()
    except OSError:
        return ref
    if S_ISDIR(st.st_mode):
        return replace(ref, updated=ref.updated or st.st_mtime)
    updates: dict[str, object] = {}
    if ref.size is None and ref.key is None:  # a container's size is not one session's
        updates["size"] = st.st_size
    if ref.updated is None:
        updates["updated"] = st.st_mtime
    if (ref.started is None or ref.cwd is None) and ref.key is None:
        if head is None:
            try:
                with open(path, "rb") as handle:
                    head = handle.read(HEAD)
            except OSError:
                head = b""
        stamp = _TIMESTAMP.search(head)
        if ref.started is None and stamp:
            updates["started"] = parse_timestamp(stamp.group(1).decode("ascii", "replace"))
        cwd = _CWD.search(head)
        if ref.cwd is None and cwd:
            updates["cwd"] = _json_string(cwd.group(1))
    return replace(ref, **updates) if updates else ref  # type: ignore[arg-type]


def listing_problems(roots: Iterable[Path] | None, refs: list[SessionRef]) -> list[Problem]:
    """Why candidates that list no session listed none: a database that cannot be read
    (corrupt, not the agent's, locked), a file we may not read, or a session file in no
    shape pivotal knows (a file in an agent's own folder is never left out without a
    word). Only an empty file is passed over: it holds nothing to lose."""
    listed = {os.path.realpath(ref.path) for ref in refs}
    return problems_of(p for p in _candidates(roots) if os.path.realpath(p) not in listed)


def problems_of(paths: Iterable[Path]) -> list[Problem]:
    """Why these candidates, which list no session, list none (see `listing_problems`)."""
    problems: list[Problem] = []
    for path in paths:
        if not os.access(path, os.R_OK):
            problems.append(Problem(path, "permission", f"{path}: permission denied"))
        elif path.suffix == ".db" or _holds_something(path):
            problems.extend(unlisted_problems(path))
    return problems


def _holds_something(path: Path) -> bool:
    """A regular file that is not empty (a folder candidate lists nothing when it has none)."""
    try:
        st = os.stat(path)
    except OSError:
        return False  # gone since the folder was listed
    return S_ISREG(st.st_mode) and st.st_size > 0


def unlisted_problems(path: Path) -> list[Problem]:
    """Why `path`, a candidate that listed no session, could not be listed (one line each)."""
    from pivotal.readers import find_sessions, not_a_store

    try:
        found = find_sessions([path])
    except Exception as exc:  # a damaged database can fail in any of its readers
        return [Problem(path, "unreadable", f"{path}: cannot read ({type(exc).__name__}: {exc})")]
    if found.problems:
        return list(found.problems)
    if not found.refs and path.suffix == ".db":
        return [Problem(path, "unreadable", f"{path}: {not_a_store()}")]
    return []  # readable now: it appeared, or changed, since it was listed


def _json_string(escaped: bytes) -> str:
    """The text of a JSON string body as found in a file (`\\"`, `\\u00e9`, `\\\\` decoded)."""
    try:
        value = decode_json(b'"' + escaped + b'"')
    except ValueError:
        value = None
    return value if isinstance(value, str) else escaped.decode("utf-8", "replace")


def newest_session(roots: Iterable[Path] | None = None) -> SessionRef | None:
    refs = discover_sessions(roots)
    return refs[0] if refs else None
