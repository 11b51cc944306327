"""A silence with no agent turn since the person last spoke is no pivot, and says why truly.

A daily user's audit found "the session had only just begun: nothing to pivot from" on go-ons
deep into sessions (turn 86 of 183, 299 of 304): the person had written, a usage limit or an
API error came instead of a reply, and they said "continue". The gate is right (there is
nothing to pivot from); the words must say where it stands: at the very start, that the
session had only just begun; past it, that the agent had done nothing since the person's last
message, and what came instead. The gate turns the silence down either way (the decision does
not change, only its words); turns are built here, not read from a file.
"""

from __future__ import annotations

from pivotal.detect import PivotConfig, PivotTracker
from pivotal.model import Part, PartKind, Role, ToolCall, TurnFlag

from .helpers import B

START = "the session had only just begun: nothing to pivot from"
SINCE = "the agent had done nothing since your last message"


def _line(b: B, text: str, flags: TurnFlag) -> int:
    """A line the tool wrote itself (a usage limit, a cancelled request, a command's output)."""
    return b._add(Role.SYSTEM, [Part(PartKind.TEXT, text)], flags)


def _work(b: B, rounds: int) -> None:
    """Rounds of the person asking and the agent working: the session is well under way."""
    for n in range(rounds):
        b.human(f"Port module {n} of the ledger to the new API and run its tests")
        command = {"command": f"pytest -q tests/test_m{n}.py"}
        call = ToolCall(f"c{n}", "Bash", command, output=f"{n + 3} passed in 0.2{n % 10}s")
        b.agent(f"Module {n} is ported; its tests pass.", call)


def _why(b: B, turn: int) -> tuple[str, str]:
    tracker = PivotTracker(PivotConfig.for_sensitivity(1.0))
    tracker.update(b.turns)
    (rejection,) = [r for r in tracker.rejections() if r.turn == turn]
    return rejection.gate, rejection.reason


def test_a_go_on_as_the_first_message_says_the_session_had_only_just_begun() -> None:
    b = B()
    go_on = b.human("continue")
    b.agent("Which part of the ledger should I look at first?")
    assert _why(b, go_on) == ("session start", START)


def test_the_start_after_the_tools_own_lines_is_still_the_start() -> None:
    """aider's "chat started" line, Claude Code's /clear records: no message of the person's
    and no agent turn before the go-on."""
    b = B()
    b.meta("<command-name>/clear</command-name>")
    _line(b, "aider chat started at 2026-12-03 10:00:00", TurnFlag.SYNTHETIC)
    go_on = b.human("go on")
    b.agent("Reading the repository first.")
    assert _why(b, go_on) == ("session start", START)


def test_a_go_on_after_a_usage_limit_deep_in_the_session_says_the_agent_did_nothing() -> None:
    b = B()
    _work(b, 20)
    b.human("Now port the exporter as well")
    _line(b, "Claude AI usage limit reached|1765000000", TurnFlag.SYNTHETIC | TurnFlag.ERROR)
    go_on = b.human("continue")
    b.agent("Porting the exporter.")
    assert go_on > 40
    gate, reason = _why(b, go_on)
    assert (gate, reason) == ("no reply", f"{SINCE} (only an error came): nothing to pivot from")
    assert "only just begun" not in reason and gate != "session start"


def test_what_came_instead_is_named_as_it_came() -> None:
    b = B()
    _work(b, 3)
    b.human("Merge the release branch into main")
    _line(b, "Request cancelled.", TurnFlag.SYNTHETIC | TurnFlag.INTERRUPTED)
    b.meta("<command-name>/model</command-name>")
    go_on = b.human("again")
    b.agent("Merging.")
    assert _why(b, go_on) == (
        "no reply",
        f"{SINCE} (only an interruption and the tool's own text came): nothing to pivot from",
    )


def test_two_messages_in_a_row_name_nothing_in_between() -> None:
    b = B()
    _work(b, 3)
    b.human("Use these settings to fill .env.local: HOST=db.internal PORT=5432")
    go_on = b.human("do it")
    b.agent("Writing .env.local.")
    assert _why(b, go_on) == ("no reply", f"{SINCE}: nothing to pivot from")
