"""Failed attempts before a silence, and whether the last action ended without a verdict.

A failure is a tool call that failed by the model's one definition
(`ToolCall.failed`: error flag, non-zero exit, error / timeout status), a call
whose file states no exit status and whose output shows a traceback / timeout /
OOM / crash, or the agent saying so in its own words (its prose: tables and
code only quote data) when that is not just its account of the call that had
failed right before. A success ends the
streak: only failures since the last success count. What counts as a success
is a check that passed (a test, benchmark, launch, poll or run) or the agent
reporting one; an edit that applied or a file that was read proves nothing.
A success the agent claims while its latest check still fails ("down to 43
failures") is progress, not a success: it neither ends the streak nor counts
as a milestone.
"""

from __future__ import annotations

import re

from pivotal.detect.activity import command_of, command_pieces, tool_kind
from pivotal.detect.config import PivotConfig
from pivotal.detect.evidence import around, plain, scaled
from pivotal.detect.facts import BeforeFacts
from pivotal.detect.figures import has_results, headline, prose
from pivotal.detect.lazyre import first, lazy
from pivotal.detect.lexicon import (
    FAIL_NARRATIVE,
    FAIL_OUTPUT,
    INCONCLUSIVE,
    MILESTONE_STRONG,
    MILESTONE_WEAK,
    SUCCESS_OUTPUT,
)
from pivotal.detect.view import ToolView, TurnView
from pivotal.detect.window import Window
from pivotal.detect.wordgap import Span
from pivotal.model import Signal
from pivotal.text.plural import plural

CHECKS = frozenset({"test", "bench", "launch", "poll", "run", "install"})
"""Tool kinds whose outcome says whether an attempt worked."""
OUTPUT_TAIL = 1500
FAILURES_FULL = 5
"""A streak of this many failed attempts counts fully (`Signal.value` 1)."""
"""How much of an output's end the inconclusive rule reads (verdicts are at the end)."""


def tool_failed(tool: ToolView) -> re.Match[str] | bool:
    """Whether a call failed (the match that shows it, when the output does)."""
    memo = tool.memo
    if "failed" not in memo:
        memo["failed"] = _tool_failed(tool)
    result: re.Match[str] | bool = memo["failed"]
    return result


def success_in_output(tool: ToolView) -> re.Match[str] | None:
    """The first success line of a call's output ("12 passed", "ready"), found once."""
    memo = tool.memo
    if "success" not in memo:
        memo["success"] = SUCCESS_OUTPUT.search(tool.output or "")
    result: re.Match[str] | None = memo["success"]
    return result


def _tool_failed(tool: ToolView) -> re.Match[str] | bool:
    if tool.failed:  # `ToolCall.failed`: error flag, non-zero exit, error / timeout status
        return True
    kind = tool_kind(tool)
    if tool.exit_code is not None and not (kind in ("test", "bench") and _piped(tool)):
        return False  # the file states the exit (0): its output's words do not overrule it
    # ... unless a test or benchmark ran into a pipe (`pytest -q | tail -5`): the stated exit
    # is the last command's, and only the output tells how the run went
    if not tool.output or kind in ("read", "search", "edit", "plan"):
        return False  # file contents mention errors all the time; only the flag counts
    match = fail_line(tool)
    if match:
        later = SUCCESS_OUTPUT.search(tool.output, match.end())
        if later and not _COUNTED_FAILURES.search(_line_of(tool.output, later.start())):
            return False  # the error was followed by a success (a retry inside one command)
    return match or False


_COUNTED_FAILURES = lazy(r"\b[1-9]\d* (failed|errors?|failures?)\b", re.IGNORECASE)
"""A test summary that counts failures ("3 failed, 40 passed") is no success line."""


def _line_of(text: str, pos: int) -> str:
    return text[text.rfind("\n", 0, pos) + 1 : (text.find("\n", pos) + 1 or len(text) + 1) - 1]


def _piped(tool: ToolView) -> bool:
    """The command sends its output through `|` into another program."""
    return "|" in command_of(tool) and len(command_pieces(tool)) > 1


def fail_line(tool: ToolView) -> re.Match[str] | None:
    """The first failure line of a call's output (a traceback, "Killed" ...), found once.

    (Searched as written: on tool output, with a line-start branch outside its word group,
    looking for the words from the gaps between them was slower.)
    """
    memo = tool.memo
    if "fail_line" not in memo:
        memo["fail_line"] = FAIL_OUTPUT.search(tool.output or "")
    result: re.Match[str] | None = memo["fail_line"]
    return result


def tool_quote(tool: ToolView) -> str:
    match = fail_line(tool)
    if match:
        return plain(f"{tool.name}: " + around(tool.output, match.start(), match.end(), 70), 90)
    if tool.exit_code:
        return plain(f"{tool.name}: {tool.key} → exit {tool.exit_code}", 90)
    return plain(f"{tool.name}: {tool.key} → error", 90)


def inconclusive_output(output: str) -> re.Match[str] | None:
    """A "still waiting" / timeout line in the output's end, not followed by a success."""
    tail = output[-OUTPUT_TAIL:]
    match = INCONCLUSIVE.search(tail)
    if match is None:
        return None
    last = match
    for later in INCONCLUSIVE.finditer(tail, match.end()):
        last = later
    if SUCCESS_OUTPUT.search(tail, last.end()):
        return None  # "waiting for rollout ... successfully rolled out"
    return last


def view_verdict(view: TurnView) -> tuple[str, Span | None, Span | None]:
    """(prose, success claimed, failure narrated) of a turn, computed once per view."""
    memo = view.memo
    if "verdict" not in memo:
        words = prose(view.text)
        memo["verdict"] = (words, *verdict(view.text, words))
    result: tuple[str, Span | None, Span | None] = memo["verdict"]
    return result


def verdict(text: str, words: str) -> tuple[Span | None, Span | None]:
    """(success claimed, failure narrated) in a message; at most one of them is set.

    A report leads with its verdict: "Backfill done:" over a results table is a success
    even if it goes on to explain an old hang; "Stuck:" is a failure whatever it lists.
    """
    head = headline(words)
    claim = first(MILESTONE_STRONG, words)
    if claim is None:
        weak = first(MILESTONE_WEAK, head)
        if weak is not None and has_results(text):
            claim = weak
    if claim is not None:
        head_end = words.find(head) + len(head)
        if claim[0] >= head_end and first(FAIL_NARRATIVE, head) is not None:
            claim = None
    return claim, (None if claim else first(FAIL_NARRATIVE, words))


def failure_signals(w: Window, cfg: PivotConfig, facts: BeforeFacts) -> list[Signal]:
    """Failed attempts since the last success, and whether the last action was inconclusive."""
    streak: list[tuple[int, str]] = []
    last_tool: tuple[TurnView, ToolView] | None = None
    check_failed = False  # the latest check so far failed
    last_failed = False  # the latest call so far failed (and none ran since)
    for view in w.agent_before:
        words, claim, failure = view_verdict(view)
        turn_failed = False
        for tool in view.tools:
            kind = tool_kind(tool)
            if kind == "plan":
                continue
            last_tool = (view, tool)
            last_failed = bool(tool_failed(tool))
            if last_failed:
                facts.failures_total += 1
                streak.append((view.index, tool_quote(tool)))
                turn_failed = True
                if kind in CHECKS:
                    check_failed = True
            elif tool.has_result and kind in CHECKS:
                facts.successes += 1
                check_failed = False
                if success_in_output(tool):
                    streak.clear()
        # "works, but slower" is a (mixed) success; "38 tok/s, 2x slower: FAILED" is not
        if claim and (turn_failed or check_failed):
            facts.contradicted.append(view.index)
            claim = None  # progress inside a failing state, not a success
        narrative = None if claim else failure
        strong = bool(claim) or (
            narrative is None and not check_failed and not turn_failed and has_results(view.text)
        )
        # "the build failed" right after the failed call is that call's failure, not another
        if narrative and not turn_failed and not (last_failed and not view.tools):
            facts.failures_total += 1
            streak.append((view.index, around(words, *narrative)))
        if strong:
            streak.clear()
    facts.failures = len(streak)
    facts.check_failed = check_failed
    facts.failure_turns = sorted({i for i, _ in streak})
    out: list[Signal] = []
    if streak:
        out.append(
            Signal(
                "failure streak",
                facts.failure_turns,
                f"{plural(len(streak), 'failed attempt')} since the last success",
                0.0,
                "before",
                [q for _, q in streak[-4:]],
                value=scaled(len(streak), FAILURES_FULL),
            )
        )
    if last_tool is not None:
        view, tool = last_tool
        pending = not tool.has_result or tool.status in ("pending", "running")
        # each piece of evidence is looked for only if the ones before it found nothing
        match = inconclusive_output(tool.output) if tool.output and not pending else None
        narrative = None
        text_tail = ""
        if not (pending or match) and tool_kind(tool) in ("poll", "launch"):
            text_tail = view_verdict(w.agent_before[-1])[0][-600:]  # the last message's prose
            narrative = INCONCLUSIVE.search(text_tail)
        if pending or match or narrative:
            facts.inconclusive = True
            if pending:
                why = f"{tool.name} never returned a result"
            elif match:
                tail = tool.output[-OUTPUT_TAIL:]
                why = around(tail, match.start(), match.end(), 70)
            else:
                assert narrative is not None
                why = around(text_tail, narrative.start(), narrative.end(), 70)
            out.append(
                Signal(
                    "inconclusive ending",
                    [view.index],
                    f"the last action ended without a verdict: {plain(tool.key, 60)}",
                    0.0,
                    "before",
                    [plain(why, 90)],
                )
            )
    return out
