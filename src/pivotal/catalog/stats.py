"""`pivotal stats`: patterns of silent pivots across many sessions.

Per session and in total: pivots by kind and by silence; how long (minutes)
and how many agent turns the agent ran on its own after each pivot, until
the person spoke again; the failures that preceded each delegation; and what
it spent: each session's tokens and dollars (its sub-agents' once), each run's
(`pivotal.spend.run`), the runs' spend by pivot kind and by agent, and the
share of all spend that followed a silence. A sub-agent that is also listed as
a session of its own counts once in the totals. The work per session is
independent, so `jobs > 1` spreads sessions over processes; results come back
in input order and are identical to one job.
"""

from __future__ import annotations

import sqlite3
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from pivotal.detect.clock import ended_at, started_at
from pivotal.model import Pivot, PivotKind, Role, Session, SessionRef, Silence
from pivotal.text.fit import cells, clip, clip_start, head, pad, tail, wrap
from pivotal.text.plural import plural
from pivotal.text.project import project_cell
from pivotal.text.safe import clean

if TYPE_CHECKING:
    from pivotal.spend.tally import Tally

SPARKS = "▁▂▃▄▅▆▇█"
EIGHTHS = " ▏▎▍▌▋▊▉"


@dataclass(slots=True)
class PivotRun:
    """One pivot and what followed it."""

    turn: int
    kind: str
    silence: str
    confidence: float
    agent_turns: int
    """Assistant turns after the silent cluster, before the next human turn (or the end)."""
    minutes: float | None
    """From the silent turn to the end of the run (`detect.clock`); None without timestamps."""
    ended_by: str
    """"person" when a human turn ended the run, "end" when the session did."""
    failed_attempts: int
    """Failed attempts the detector counted before the silence (its state panel)."""
    failed_calls: int
    """Failed tool calls since the person last spoke."""
    trailing_failures: int
    """Failed tool calls in a row right before the silence (the streak the person gave up on)."""
    tokens: int = 0
    """Tokens of the run (to the person's next message or the next pivot), sub-agents included."""
    cost_usd: float | None = None
    """Dollars of its priced responses (None when none had a price)."""
    priced: bool = False
    """Every response of the run had a price."""
    subagent_tokens: int = 0


@dataclass(slots=True)
class SessionStats:
    label: str
    format: str
    path: str
    key: str | None = None
    session_id: str | None = None
    cwd: str | None = None
    """The session's working directory (its project), when recorded."""
    turns: int = 0
    human_turns: int = 0
    started: float | None = None
    skipped: int = 0
    error: str | None = None
    pivots: list[PivotRun] = field(default_factory=list)
    tokens: int = 0
    """The session's tokens, its sub-agents' included."""
    cost_usd: float | None = None
    priced: bool = False
    own_tokens: int = 0
    own_cost_usd: float | None = None
    subagents: list[dict[str, Any]] = field(default_factory=list)
    """Each sub-agent read with it: its path (and key), tokens and dollars."""

    def by_kind(self) -> Counter[str]:
        return Counter(p.kind for p in self.pivots)

    def by_silence(self) -> Counter[str]:
        return Counter(p.silence for p in self.pivots)


# -- computing -------------------------------------------------------------------


def pivot_run(session: Session, pivot: Pivot) -> PivotRun:
    turns = session.turns
    cluster_end = max([pivot.turn, *pivot.cluster])
    stop = next((t.index for t in turns[cluster_end + 1 :] if t.is_human), len(turns))
    run = turns[cluster_end + 1 : stop]
    agent = [t for t in run if t.role is Role.ASSISTANT]
    # on a clock that never runs backwards: a go-on copied into a resumed file keeps the time
    # it was typed, hours before the copied work around it
    start_time = started_at(turns, pivot.turn)
    end_time = ended_at(start_time, (t.timestamp for t in run))
    minutes = None
    if start_time is not None and end_time is not None:
        minutes = round((end_time - start_time) / 60.0, 2)
    previous_human = next((t.index for t in reversed(turns[: pivot.turn]) if t.is_human), -1)
    calls = [c for t in turns[previous_human + 1 : pivot.turn] for c in t.tool_calls]
    trailing = 0
    for call in reversed(calls):
        if not call.failed:
            break
        trailing += 1
    return PivotRun(
        turn=pivot.turn,
        kind=str(pivot.kind),
        silence=str(pivot.silence),
        confidence=round(pivot.confidence, 2),
        agent_turns=len(agent),
        minutes=minutes,
        ended_by="person" if stop < len(turns) else "end",
        failed_attempts=pivot.state.attempts_failed,
        failed_calls=sum(1 for c in calls if c.failed),
        trailing_failures=trailing,
    )


def session_stats(ref: SessionRef, sensitivity: str = "normal") -> SessionStats:
    """Read one session and measure its pivots. Never raises for a bad file."""
    from pivotal.detect import PivotConfig, detect_pivots
    from pivotal.readers import read_session

    label = clean(ref.path.name + (f"#{ref.key}" if ref.key else ""))
    key = clean(ref.key) if ref.key else None
    out = SessionStats(label=label, format=ref.format, path=clean(str(ref.path)), key=key)
    try:
        session = read_session(ref)
    except (OSError, sqlite3.Error, ValueError) as exc:
        out.error = clean(f"{type(exc).__name__}: {exc}", max_len=200)
        return out
    out.session_id = clean(session.id) if session.id else None
    cwd = session.cwd or ref.cwd
    out.cwd = clean(cwd) if cwd else None
    out.turns = len(session.turns)
    out.human_turns = len(session.human_turns())
    out.started = session.started
    out.skipped = len(session.skipped)
    pivots = detect_pivots(session.turns, PivotConfig.for_sensitivity(sensitivity))
    out.pivots = [pivot_run(session, p) for p in pivots]
    _add_spend(out, session, pivots)
    return out


def _dollars(tally: Tally) -> float | None:
    return round(tally.cost, 6) if tally.responses > tally.unpriced else None


def _add_spend(out: SessionStats, session: Session, pivots: Sequence[Pivot]) -> None:
    """The session's spend and each run's (`pivotal.spend`)."""
    from pivotal.spend.run import pivot_runs
    from pivotal.spend.session import session_spend

    spend = session_spend(session)
    total = spend.total
    out.tokens, out.cost_usd, out.priced = total.tokens, _dollars(total), total.priced
    out.own_tokens, out.own_cost_usd = spend.own.tokens, _dollars(spend.own)
    out.subagents = [
        {
            "path": clean(str(sub.ref.path)) + (f"#{clean(sub.ref.key)}" if sub.ref.key else ""),
            "tokens": sub.tally.tokens,
            "cost_usd": _dollars(sub.tally),
        }
        for sub in spend.subagents
    ]
    runs = pivot_runs(session.turns, pivots, model=session.model, subagents=spend.subagents)
    for item, pivot in zip(out.pivots, pivots, strict=True):
        run = runs[pivot.turn]
        item.tokens, item.cost_usd, item.priced = (
            run.tally.tokens,
            _dollars(run.tally),
            run.tally.priced,
        )
        item.subagent_tokens = run.sub_tally.tokens


def _one(job: tuple[SessionRef, str]) -> SessionStats:
    return session_stats(*job)


def collect(
    refs: Sequence[SessionRef], *, jobs: int = 1, sensitivity: str = "normal"
) -> list[SessionStats]:
    """Stats for every ref, in order; `jobs > 1` uses that many worker processes."""
    work = [(ref, sensitivity) for ref in refs]
    if jobs <= 1 or len(work) <= 1:
        return [_one(job) for job in work]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(work)), mp_context=context) as pool:
        return list(pool.map(_one, work, chunksize=1))


# -- totals ----------------------------------------------------------------------


def _summary(values: Iterable[float]) -> dict[str, float | int | None]:
    data = list(values)
    if not data:
        return {"count": 0, "median": None, "mean": None, "max": None}
    return {
        "count": len(data),
        "median": round(statistics.median(data), 2),
        "mean": round(statistics.fmean(data), 2),
        "max": round(max(data), 2),
    }


def totals(stats: Sequence[SessionStats]) -> dict[str, Any]:
    runs = [p for s in stats for p in s.pivots]
    delegations = [p for p in runs if p.kind == PivotKind.DELEGATION_AFTER_DEAD_END]
    return {
        "sessions": len(stats),
        "unreadable": sum(1 for s in stats if s.error),
        "sessions_with_pivots": sum(1 for s in stats if s.pivots),
        "turns": sum(s.turns for s in stats),
        "pivots": len(runs),
        "by_kind": {k.value: sum(1 for p in runs if p.kind == k) for k in PivotKind},
        "by_silence": {k.value: sum(1 for p in runs if p.silence == k) for k in Silence},
        "autonomy_turns": _summary(p.agent_turns for p in runs),
        "autonomy_minutes": _summary(p.minutes for p in runs if p.minutes is not None),
        "delegation_failed_attempts": _summary(p.failed_attempts for p in delegations),
        "delegation_trailing_failures": _summary(p.trailing_failures for p in delegations),
        "spend": spend_totals(stats),
    }


def _money(items: Iterable[tuple[int, float | None]]) -> dict[str, Any]:
    """{tokens, cost_usd (None: nothing priced), runs/sessions counted} of (tokens, dollars)."""
    rows = list(items)
    priced = [cost for _, cost in rows if cost is not None]
    return {
        "count": len(rows),
        "tokens": sum(tokens for tokens, _ in rows),
        "cost_usd": round(sum(priced), 6) if priced else None,
    }


def spend_totals(stats: Sequence[SessionStats]) -> dict[str, Any]:
    """All spend (each sub-agent once), the runs' by pivot kind and by agent, and the share
    of all spend that followed a silence."""
    readable = [s for s in stats if not s.error]
    listed = {s.path + (f"#{s.key}" if s.key else "") for s in readable}
    rows = [(s.own_tokens, s.own_cost_usd) for s in readable]
    rows += [
        (sub["tokens"], sub["cost_usd"])
        for s in readable
        for sub in s.subagents
        if sub["path"] not in listed  # listed as a session of its own: counted there
    ]
    everything = _money(rows)
    runs = [(s.format, p) for s in readable for p in s.pivots]
    after = _money((p.tokens, p.cost_usd) for _, p in runs)
    kinds = {
        k.value: _money((p.tokens, p.cost_usd) for _, p in runs if p.kind == k) for k in PivotKind
    }
    agents = sorted({fmt for fmt, _ in runs})
    by_agent = {a: _money((p.tokens, p.cost_usd) for fmt, p in runs if fmt == a) for a in agents}
    return {
        "all": everything,
        "after_silence": after,
        "share_of_tokens": _share(after["tokens"], everything["tokens"]),
        "share_of_cost": _share(after["cost_usd"], everything["cost_usd"]),
        "unpriced_sessions": sum(1 for s in readable if s.tokens and not s.priced),
        "runs_by_kind": kinds,
        "runs_by_agent": by_agent,
    }


def _share(part: float | None, whole: float | None) -> float | None:
    if part is None or not whole:
        return None
    return round(part / whole, 4)


def stats_json(stats: Sequence[SessionStats]) -> dict[str, Any]:
    sessions = []
    for s in stats:
        item = asdict(s)
        item["by_kind"] = dict(s.by_kind())
        item["by_silence"] = dict(s.by_silence())
        sessions.append(item)
    return {"sessions": sessions, "totals": totals(stats)}


# -- text ------------------------------------------------------------------------


def sparkline(values: Sequence[float]) -> str:
    """One block character per value, scaled to the largest."""
    if not values:
        return ""
    top = max(values)
    if top <= 0:
        return SPARKS[0] * len(values)
    return "".join(SPARKS[min(7, int(round(v / top * 7)))] for v in values)


def bar(value: float, top: float, width: int = 24) -> str:
    """A horizontal bar in eighth-blocks, `width` cells at `top`."""
    if top <= 0 or value <= 0:
        return ""
    eighths = max(1, int(round(value / top * width * 8)))
    return "█" * (eighths // 8) + (EIGHTHS[eighths % 8] if eighths % 8 else "")


def _bucket_size(top: int, buckets: int) -> int:
    return max(1, -(-(top + 1) // buckets))


def histogram(values: Sequence[int], buckets: int = 12) -> str:
    """A sparkline of how many values fall in each of `buckets` equal ranges from 0 to max."""
    if not values:
        return ""
    top = max(values)
    size = _bucket_size(top, buckets)
    counts = [0] * (top // size + 1)
    for v in values:
        counts[v // size] += 1
    return sparkline(counts)


def labelled_histogram(values: Sequence[int], unit: str, buckets: int = 12) -> str:
    """`histogram` with what its bars count: `▁█▃  pivots by 0-84 turns, 8 a bar`."""
    spark = histogram(values, buckets)
    if not spark:
        return ""
    top = max(values)
    size = _bucket_size(top, buckets)
    each = f"{size} {unit} a bar" if size > 1 else f"one {unit.rstrip('s')} a bar"
    return f"{spark}  (pivots by 0-{top} {unit}; {each})"


def distinct_labels(paths: Sequence[str]) -> list[str]:
    """For each path, the fewest trailing parts that tell it from every other path listed.

    `demo.jsonl` twice becomes `claude/demo.jsonl` and `codex/demo.jsonl`.
    """
    split = [p.split("/") for p in paths]
    depth = [1] * len(paths)
    while True:
        seen: dict[str, list[int]] = {}
        for index, parts in enumerate(split):
            seen.setdefault("/".join(parts[-depth[index] :]), []).append(index)
        clashes = [group for group in seen.values() if len(group) > 1]
        grown = False
        for group in clashes:
            for index in group:
                if depth[index] < len(split[index]):
                    depth[index] += 1
                    grown = True
        if not grown:
            return ["/".join(parts[-d:]) for parts, d in zip(split, depth, strict=True)]


_ABBREV = {
    "delegation_after_dead_end": "D",
    "continue_after_milestone": "M",
    "implicit_approval": "A",
    "other": "O",
}


def _fmt(value: float | int | None, unit: str = "") -> str:
    if value is None:
        return "-"
    return (f"{value:g}" if isinstance(value, float) else str(value)) + unit


def short_label(label: str, width: int = 44) -> str:
    """Keep both ends of a long file name (the date and the id are what tell sessions apart),
    in at most `width` cells."""
    if cells(label) <= width:
        return label
    start = head(label, (width - 1) // 2)
    return start + "…" + tail(label, width - 1 - cells(start))


def stats_table(stats: Sequence[SessionStats], width: int | None = None) -> str:
    """The sessions table and the totals under it; `width`: fitted to a terminal that wide
    (`_fitted`), None for a pipe (every line whole: scripts read it)."""
    rows = [
        ("SESSION", "PROJECT", "FORMAT", "TURNS", "PIVOTS", "KINDS", "RUN TURNS", "RUN MIN", "COST")
    ]
    short_costs = ["COST"]
    names = distinct_labels([s.path + (f"#{s.key}" if s.key else "") for s in stats])
    for s, name in zip(stats, names, strict=True):
        short_costs.append(_session_cost(s, tokens=False) if not s.error else "")
        if s.error:
            rows.append(
                (short_label(name), "-", s.format, "-", "-", "unreadable", s.error[:40], "", "")
            )
            continue
        kinds = " ".join(f"{_ABBREV.get(k, '?')}{n}" for k, n in sorted(s.by_kind().items()))
        runs = [p.agent_turns for p in s.pivots]
        minutes = [p.minutes for p in s.pivots if p.minutes is not None]
        run_text = f"{sparkline(runs)} {'/'.join(map(str, runs))}" if runs else "-"
        rows.append(
            (
                short_label(name),
                _project(s.cwd),
                s.format,
                str(s.turns),
                str(len(s.pivots)),
                kinds or "-",
                run_text,
                _fmt(round(sum(minutes), 1)) if minutes else "-",
                _session_cost(s),
            )
        )
    totals = _totals_lines(stats)
    if width is None:
        widths = [max(cells(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(pad(r[i], widths[i]) for i in range(len(r))).rstrip() for r in rows]
    else:
        short = [(*r[:-1], cost) for r, cost in zip(rows, short_costs, strict=True)]
        lines = _fitted(rows, short, width)
        totals = [row for line in totals for row in wrap(line, width)]
    return "\n".join(lines + [""] + totals) + "\n"


PROJECT_LEAST = 12
RUN_TURNS_LEAST = 10
"""On a narrow terminal the project and the run turns give way, down to this many cells."""
UNDER = "    "
"""What starts the line of a session's name under its row."""


def _fitted(rows: list[tuple[str, ...]], short: list[tuple[str, ...]], width: int) -> list[str]:
    """The table in `width` cells, as `pivotal sessions` fits its own: an unpriced session's
    token figure goes first (`no price` alone), then the project (its end kept) and the run
    turns shrink; when that is not enough, each session's name goes on a line of its own
    under its row (the header then names the other columns)."""
    whole = _widths(rows)
    if _span(whole) <= width:
        return _lines(rows, whole, 1)
    widths, fits = _shrunk(short, width, 1, 6)
    if fits:
        return _lines(short, widths, 1)
    body = [r[1:] for r in short]
    widths, _ = _shrunk(body, width, 0, 5)
    lines = _lines(body, widths, 0)
    out = lines[:1]
    for line, row in zip(lines[1:], rows[1:], strict=True):
        out += [line, UNDER + row[0]]
    return out


def _shrunk(
    rows: list[tuple[str, ...]], width: int, project: int, run: int
) -> tuple[list[int], bool]:
    """The columns' widths with the project and then the run turns cut towards `width` (no
    narrower than `PROJECT_LEAST`, `RUN_TURNS_LEAST`), and whether the row fits then."""
    widths = _widths(rows)
    over = _span(widths) - width
    for column, least in ((project, PROJECT_LEAST), (run, RUN_TURNS_LEAST)):
        give = max(min(over, widths[column] - least), 0)
        widths[column] -= give
        over -= give
    return widths, over <= 0


def _widths(rows: Sequence[tuple[str, ...]]) -> list[int]:
    return [max(cells(r[i]) for r in rows) for i in range(len(rows[0]))]


def _span(widths: list[int]) -> int:
    return sum(widths) + 2 * (len(widths) - 1)


def _lines(rows: Sequence[tuple[str, ...]], widths: list[int], project: int) -> list[str]:
    """Each row padded to `widths`: the `project` column cut at its start, others at their end."""
    cut = [clip_start if n == project else clip for n in range(len(widths))]
    return [
        "  ".join(pad(cut[i](r[i], widths[i]), widths[i]) for i in range(len(r))).rstrip()
        for r in rows
    ]


PROJECT_WIDTH = 24
"""The project column's widest cell: its end is kept (`…work/shop-api`)."""


def _project(cwd: str | None) -> str:
    """The last two folders of the session's working directory, or `-`."""
    return project_cell(cwd, PROJECT_WIDTH)


def _session_cost(s: SessionStats, tokens: bool = True) -> str:
    """ "$3.40", "≥$3.40" (part had no price), "no price · 45.5M tokens" (the figure left out
    without `tokens`), or "—" (no usage recorded): `spend.words.cost_cell`, as the picker."""
    from pivotal.spend.words import NO_PRICE, cost_cell, tokens_cell

    said = cost_cell(s.tokens, s.cost_usd, s.priced)
    return f"{said} · {tokens_cell(s.tokens)} tokens" if tokens and said == NO_PRICE else said


def _totals_lines(stats: Sequence[SessionStats]) -> list[str]:
    t = totals(stats)
    runs = [p for s in stats for p in s.pivots]
    out = [
        f"{plural(t['sessions'], 'session')} ({t['unreadable']} unreadable),"
        f" {plural(t['turns'], 'turn')}, {plural(t['pivots'], 'silent pivot')} in"
        f" {plural(t['sessions_with_pivots'], 'session')}",
        "  kinds: D delegation after dead end, M continue after milestone,"
        " A implicit approval, O other",
        "",
        "By kind",
    ]
    out += _bars(t["by_kind"])
    out += ["", "By silence"]
    out += _bars(t["by_silence"])
    turns, minutes = t["autonomy_turns"], t["autonomy_minutes"]
    out += [
        "",
        "Agent on its own after a pivot (until the person spoke again)",
        f"  turns    median {_fmt(turns['median'])}, mean {_fmt(turns['mean'])},"
        f" max {_fmt(turns['max'])}   {labelled_histogram([p.agent_turns for p in runs], 'turns')}",
        f"  minutes  median {_fmt(minutes['median'])}, mean {_fmt(minutes['mean'])},"
        f" max {_fmt(minutes['max'])}   "
        + labelled_histogram([int(p.minutes) for p in runs if p.minutes is not None], "minutes"),
    ]
    attempts = t["delegation_failed_attempts"]
    trailing = t["delegation_trailing_failures"]
    delegations = [p for p in runs if p.kind == PivotKind.DELEGATION_AFTER_DEAD_END]
    out += [
        "",
        f"Failures before a delegation ({plural(attempts['count'], 'delegation')})",
        f"  failed attempts        median {_fmt(attempts['median'])}, max {_fmt(attempts['max'])}"
        f"   {labelled_histogram([p.failed_attempts for p in delegations], 'attempts')}",
        f"  failed calls in a row  median {_fmt(trailing['median'])}, max {_fmt(trailing['max'])}"
        f"   {labelled_histogram([p.trailing_failures for p in delegations], 'calls')}",
    ]
    return out + _spend_lines(t["spend"])


def _spent(money: dict[str, Any]) -> str:
    """ "3.1 M tokens, $12.40" (dollars of the priced part; "no price" when none was)."""
    from pivotal.spend.words import count, dollars

    cost = money["cost_usd"]
    return f"{count(money['tokens'])} tokens, " + (
        dollars(cost) if cost is not None else "no price"
    )


def _spend_lines(spend: dict[str, Any]) -> list[str]:
    everything, after = spend["all"], spend["after_silence"]
    if not everything["tokens"]:
        return ["", "Spend: no session here records its token usage"]
    cost_share, token_share = spend["share_of_cost"], spend["share_of_tokens"]
    share = f"{round(100 * token_share)}% of all tokens" if token_share is not None else ""
    if cost_share is not None:
        share = f"{round(100 * cost_share)}% of all dollars, " + share
    out = [
        "",
        "Spend (tokens and dollars, sub-agents included once; dollars from the price list)",
        f"  all sessions      {_spent(everything)}",
        f"  after a silence   {_spent(after)} in {plural(after['count'], 'run')}"
        + (f" ({share})" if share else ""),
        "  runs by kind",
    ]
    kinds = {k: v for k, v in spend["runs_by_kind"].items() if v["count"]}
    width = max((len(k) for k in kinds), default=0)
    out += [
        f"    {k.ljust(width)}  {_spent(v)} in {plural(v['count'], 'run')}"
        for k, v in kinds.items()
    ]
    out.append("  runs by agent")
    agents = spend["runs_by_agent"]
    width = max((len(k) for k in agents), default=0)
    out += [
        f"    {k.ljust(width)}  {_spent(v)} in {plural(v['count'], 'run')}"
        for k, v in agents.items()
    ]
    if spend["unpriced_sessions"]:
        out.append(
            f"  {plural(spend['unpriced_sessions'], 'session')} used models the price list does not"
            " know: their dollars are left out, never guessed"
        )
    return out


def _bars(counts: dict[str, int]) -> list[str]:
    top = max(counts.values(), default=0)
    width = max((len(k) for k in counts), default=0)
    total = sum(counts.values())
    return [
        f"  {k.ljust(width)}  {n:>4}  {bar(n, top)}"
        + (f" {round(100 * n / total)}%" if total and n else "")
        for k, n in counts.items()
    ]
