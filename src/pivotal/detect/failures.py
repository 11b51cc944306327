"""Failed attempts before a silence, and whether the last action ended without a verdict.

A failure is a tool call with an error flag or a non-zero exit, an output
that shows a traceback / timeout / OOM / crash, or the agent saying so in its
own words. A success (a passing run, a reported result) ends the streak:
only failures since the last success count.
"""

from __future__ import annotations

import re

from pivotal.detect.activity import tool_kind
from pivotal.detect.config import PivotConfig
from pivotal.detect.evidence import around, plain
from pivotal.detect.facts import BeforeFacts
from pivotal.detect.figures import has_results
from pivotal.detect.lexicon import FAIL_NARRATIVE, FAIL_OUTPUT, MILESTONE_STRONG, SUCCESS_OUTPUT
from pivotal.detect.view import ToolView, TurnView
from pivotal.detect.window import Window
from pivotal.model import Signal

INCONCLUSIVE = re.compile(
    r"timed? ?out|timeout|can'?t tell|cannot tell|no idea (why|whether)|out of ideas|"
    r"still (loading|waiting|starting|running|pending|not)|not (yet )?ready|"
    r"no response|hasn'?t (responded|started|finished|come up)|may have crashed|waiting for|"
    r"unclear (whether|if)|not sure (whether|if)|unknown|no output|gave up waiting|did not finish|"
    r"didn'?t finish|exceeded",
    re.IGNORECASE,
)


def tool_failed(tool: ToolView) -> re.Match[str] | bool:
    if tool.failed or tool.status == "error":
        return True
    if not tool.output or tool_kind(tool) in ("read", "search", "edit", "plan"):
        return False  # file contents mention errors all the time; only the flag counts
    match = FAIL_OUTPUT.search(tool.output)
    if match and SUCCESS_OUTPUT.search(tool.output[match.end() :]):
        return False  # the error was followed by a success (a retry inside one command)
    return match or False


def tool_quote(tool: ToolView) -> str:
    match = FAIL_OUTPUT.search(tool.output or "")
    if match:
        return plain(f"{tool.name}: " + around(tool.output, match.start(), match.end(), 70), 90)
    if tool.exit_code:
        return plain(f"{tool.name}: {tool.key} → exit {tool.exit_code}", 90)
    return plain(f"{tool.name}: {tool.key} → error", 90)


def failure_signals(w: Window, cfg: PivotConfig, facts: BeforeFacts) -> list[Signal]:
    """Failed attempts since the last success, and whether the last action was inconclusive."""
    streak: list[tuple[int, str]] = []
    last_tool: tuple[TurnView, ToolView] | None = None
    for view in w.agent_before:
        # "works, but slower" is a (mixed) success; "38 tok/s, 2x slower: FAILED" is not
        strong = bool(MILESTONE_STRONG.search(view.text))
        narrative = None if strong else FAIL_NARRATIVE.search(view.text)
        strong = strong or (narrative is None and has_results(view.text))
        turn_failed = False
        for tool in view.tools:
            if tool_kind(tool) == "plan":
                continue
            last_tool = (view, tool)
            if tool_failed(tool):
                facts.failures_total += 1
                streak.append((view.index, tool_quote(tool)))
                turn_failed = True
            elif tool.has_result:
                facts.successes += 1
                if SUCCESS_OUTPUT.search(tool.output or "") and tool_kind(tool) != "read":
                    streak.clear()
        if narrative and not turn_failed:
            facts.failures_total += 1
            streak.append((view.index, around(view.text, narrative.start(), narrative.end())))
        if strong:
            streak.clear()
    facts.failures = len(streak)
    facts.failure_turns = sorted({i for i, _ in streak})
    out: list[Signal] = []
    if streak:
        weight = min(cfg.w_failure_max, cfg.w_failure_each * len(streak))
        out.append(
            Signal(
                "failure streak",
                facts.failure_turns,
                f"{len(streak)} failed attempt(s) since the last success",
                weight,
                "before",
                [q for _, q in streak[-4:]],
            )
        )
    if last_tool is not None:
        view, tool = last_tool
        text_tail = (w.agent_before[-1].text or "")[-600:] if w.agent_before else ""
        pending = not tool.has_result or tool.status in ("pending", "running")
        match = INCONCLUSIVE.search(tool.output[-1500:] if tool.output else "")
        narrative = INCONCLUSIVE.search(text_tail)
        if pending or match or (narrative and tool_kind(tool) in ("poll", "launch")):
            facts.inconclusive = True
            if pending:
                why = f"{tool.name} never returned a result"
            elif match:
                why = around(tool.output, match.start(), match.end(), 70)
            else:
                assert narrative is not None
                why = around(text_tail, narrative.start(), narrative.end(), 70)
            out.append(
                Signal(
                    "inconclusive ending",
                    [view.index],
                    f"the last action ended without a verdict: {plain(tool.key, 60)}",
                    cfg.w_inconclusive,
                    "before",
                    [plain(why, 90)],
                )
            )
    return out
