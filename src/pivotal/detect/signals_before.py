"""Evidence from the work before a silence.

milestone, proposal pending, open question, mid-task (a counter-signal) and
hands-off streak, plus the failure streak and inconclusive ending from
`failures`. Each signal lists the turns that triggered it.
"""

from __future__ import annotations

from pivotal.detect.activity import carries_out, changes_code, tool_kind
from pivotal.detect.answers import WHY
from pivotal.detect.asks import (
    first_step,
    is_choice,
    is_go_ahead,
    listed_steps,
    question_of,
)
from pivotal.detect.compaction import compacted_mid_turn, summary_says_done
from pivotal.detect.config import PivotConfig
from pivotal.detect.evidence import around, plain, scaled
from pivotal.detect.facts import BeforeFacts
from pivotal.detect.failures import (
    failure_signals,
    success_in_output,
    tool_failed,
    view_verdict,
)
from pivotal.detect.figures import figures, has_results, prose, without_code
from pivotal.detect.lazyre import first
from pivotal.detect.lexicon import (
    ANNOUNCE,
    FAIL_NARRATIVE,
    MILESTONE_WEAK,
    NEXT_STEP,
    PROPOSAL,
)
from pivotal.detect.lexicon_intl import ASKS as INTL_ASKS
from pivotal.detect.lexicon_intl import NEXT_STEP as INTL_NEXT_STEP
from pivotal.detect.listing import what_is_listed
from pivotal.detect.phase import mentions_plan
from pivotal.detect.view import TurnView
from pivotal.detect.window import Window
from pivotal.model import Role, Signal, Silence, TurnFlag
from pivotal.text.plural import plural

_HUMAN = int(TurnFlag.HUMAN)
_UNSENT = int(TurnFlag.UNSENT)
HANDS_OFF_FULL = 50
"""This many agent steps since the person's last direction count fully."""


def milestone_signal(w: Window, cfg: PivotConfig, facts: BeforeFacts) -> Signal | None:
    """Success reported in the last agent messages: works, tests pass, numbers with units.

    Judged on the agent's prose (a table row saying "37 failed" in a *before* column is
    data); a claim made while the latest check still failed is progress, not a milestone.
    """
    agent = w.agent_before[-4:]
    strong: list[tuple[int, str]] = []
    weak: list[tuple[int, str]] = []
    for view in agent:
        if view.index in facts.contradicted:
            continue
        text = view.text
        words, match, failure = view_verdict(view)
        if match:
            strong.append((view.index, around(words, *match)))
        elif has_results(text) and not failure:
            strong.append((view.index, "results: " + ", ".join(figures(text, 4))))
        else:
            for tool in view.tools:
                # a routine test run is not a milestone unless the agent says so
                if tool_kind(tool) in ("bench", "launch", "poll") and tool.has_result:
                    hit = success_in_output(tool)
                    if hit and not tool_failed(tool):
                        strong.append((view.index, around(tool.output, hit.start(), hit.end())))
                        break
                    if tool_kind(tool) == "bench" and has_results(tool.output or ""):
                        strong.append(
                            (view.index, "results: " + ", ".join(figures(tool.output, 4)))
                        )
                        break
            else:
                weak_match = first(MILESTONE_WEAK, words)
                if weak_match:
                    weak.append((view.index, around(words, *weak_match)))
    if strong and facts.failure_turns and facts.failure_turns[-1] > strong[-1][0]:
        strong = []  # the success was followed by new failures
    if strong:
        facts.milestone = 2
        last = agent[-1].text if agent else ""
        facts.mixed = first(FAIL_NARRATIVE, prose(last)) is not None
        facts.milestone_turns = [i for i, _ in strong]
        detail = "success reported" + (
            " (mixed: below target or with caveats)" if facts.mixed else ""
        )
        return Signal(
            "milestone",
            facts.milestone_turns,
            detail,
            0.0,
            "before",
            [q for _, q in strong[-3:]],
        )
    if weak and not facts.failures:
        facts.milestone = 1
        facts.milestone_turns = [i for i, _ in weak]
        return Signal(
            "work reported done",
            facts.milestone_turns,
            "work reported done",
            0.0,
            "before",
            [q for _, q in weak[-2:]],
        )
    return None


def _research(agent: list[TurnView]) -> list[int]:
    """The agent's turns that looked around (read, search, poll) or talked of a plan."""
    return [
        v.index
        for v in agent
        if any(tool_kind(t) in ("read", "search", "poll") for t in v.tools) or mentions_plan(v)
    ]


def proposal_signal(w: Window, cfg: PivotConfig, facts: BeforeFacts) -> Signal | None:
    """The person asked or proposed; the agent researched or planned; nothing executed since."""
    agent = w.agent_before
    if not agent:
        return None
    executed = any(carries_out(t) for v in agent for t in v.tools)
    research: list[int] | None = None  # worked out only when a branch below needs it
    answered = any(
        v.role is Role.USER and int(v.flags) & _HUMAN and not int(v.flags) & _UNSENT
        for v in w.before[1:]
    )
    if w.direction is not None and not executed and not answered:
        research = _research(agent)
        human = w.direction.text
        # a "?" is one of the proposal patterns: a question needs no search. A "why?" asks
        # for an explanation, not for work to approve (`answers`): only a plan the agent
        # lays out in answer puts a proposal on the table (the branch below)
        asked = "?" in human or "？" in human or PROPOSAL.search(human)
        if research and asked and not WHY.search(human):
            facts.proposal = True
            facts.research_turns = research
            return Signal(
                "proposal pending",
                [w.direction.index, *research[-3:]],
                f"the person asked; the agent researched it in {plural(len(research), 'turn')}, "
                "nothing executed yet",
                0.0,
                "before",
                [plain(human, 90), *[plain(v.text, 70) for v in agent[-1:] if v.text]],
            )
    # the agent laid out a plan and asked for a go-ahead (not a choice between options:
    # silence cannot approve "spot or on-demand?"), or laid it out and stopped there. An
    # offer made right after a check failed is the fix for it (`next_step_signal`); once
    # the agent has changed code for the request, a list of what it did with "shall I do
    # the same to X?" is a follow-up step of work under way, and only a message that talks
    # of a plan, its options or risks still lays one out.
    last = agent[-1]
    if facts.check_failed:
        return None
    under_way = any(changes_code(t) for v in agent for t in v.tools)
    question = question_of(last)
    steps = listed_steps(last)
    asked = bool(question) and not is_choice(question)
    # a concrete offer to go ahead is a plan of one step when nothing is under way yet
    offered = asked and not under_way and is_go_ahead(question)
    planned = mentions_plan(last) or (steps >= 2 and not under_way) or offered
    laid_out = not (question or under_way or last.ends_with_tool) and (
        steps >= 2 and mentions_plan(last)
    )
    if planned and (asked or laid_out) and not any(carries_out(t) for t in last.tools):
        facts.proposal = True
        facts.proposal_by_agent = True
        if research is None:
            research = _research(agent)
        facts.research_turns = research or [last.index]
        detail = (
            "the agent laid out a plan and asked for a go-ahead; nothing executed yet"
            if asked
            else f"the agent laid out {what_is_listed(last)} and stopped; nothing executed yet"
        )
        return Signal(
            "proposal pending",
            [last.index],
            detail,
            0.0,
            "before",
            [plain(question or first_step(last), 90)],
        )
    return None


def next_step_signal(w: Window, cfg: PivotConfig, facts: BeforeFacts) -> Signal | None:
    """After failures, the agent's last words name its own next step: it was not at a dead end.

    PIVOTS.md's dead end is a run of failures after which "the agent has no next step". An
    agent that offers the obvious fix ("Shall I sync the dependencies first?"), recommends
    one or announces it ("Next, we will create ...") is in a fix loop; a go-on approves one
    step of it. (A proposal on the table is judged by `proposal_signal` instead.)
    """
    agent = w.agent_before
    if not facts.failures or facts.proposal or not agent or agent[-1].ends_with_tool:
        return None
    last = agent[-1]
    question = question_of(last)
    if question and is_choice(question):
        return None  # "which approach should I take?": the agent hands the choice over
    words = prose(last.text).strip()[-600:]
    match = first(NEXT_STEP, words)
    if match is None:
        other = INTL_NEXT_STEP.search(words) or INTL_ASKS.search(words)
        match = (other.start(), other.end()) if other else None
    if match is None:
        return None
    facts.next_step = True
    return Signal(
        "next step named",
        [last.index],
        "the agent's last words name its own next step (an offer, a recommendation): "
        "a fix loop, not a dead end",
        0.0,
        "before",
        [plain(around(words, *match), 90)],
    )


def open_question_signal(w: Window, cfg: PivotConfig, facts: BeforeFacts) -> Signal | None:
    """The agent's last message asks the person something (a "?" in its last paragraph)."""
    for view in reversed(w.agent_before):
        if not view.text.strip():
            continue
        question = question_of(view)
        if not question:
            return None
        facts.open_question = True
        return Signal(
            "open question",
            [view.index],
            "the agent's last message asks the person",
            0.0,
            "before",
            [plain(question, 90)],
        )
    return None


def mid_task_signal(w: Window, cfg: PivotConfig, facts: BeforeFacts) -> Signal | None:
    """The agent was still working: its last message ran a tool that came back fine.

    A person can only really go silent once the agent has stopped; a go-on (or
    an automatic compaction) that lands between two ordinary tool calls carries
    no decision. A failed, timed-out or unanswered last call is different: the
    agent's turn ended there (essay 000), so it does not count as mid-task.
    """
    agent = w.agent_before
    if w.silence is Silence.COMPACTION and agent and compacted_mid_turn(agent[-1], facts):
        # the tool compacts when the context fills, even in the middle of a call loop: the
        # agent had not stopped, whatever that call returned - unless the summary says the
        # work asked for was finished and nothing is pending
        if summary_says_done(w):
            return None
        last = agent[-1]
        facts.mid_task = True
        return Signal(
            "mid-task",
            [last.index],
            "the compaction landed while the agent was working: its last message ran a tool",
            0.0,
            "before",
            [plain(f"{t.name}: {t.key}", 90) for t in last.tools[-1:]],
        )
    if not agent or not agent[-1].ends_with_tool or w.silence is Silence.COMPACTION:
        return None
    last = agent[-1]
    tools = [t for t in last.tools if tool_kind(t) not in ("plan", "other")]
    if not tools or facts.inconclusive or last.index in facts.failure_turns:
        return None  # the turn ended on a failure it reported: the agent had stopped
    tool = tools[-1]
    if not tool.has_result or tool_failed(tool):
        return None
    output = tool.output or ""
    said = without_code(last.text).strip()[-300:]  # aider runs its command in a code block
    # a results table speaks for itself; a bare "20 passed" inside a step the agent
    # did not comment on is its own check, not a report to the person
    reported = tool_kind(tool) in ("bench", "test") and (
        has_results(output) or (bool(said) and success_in_output(tool))
    )
    if reported and not ANNOUNCE.search(said):
        return None  # the turn ended on a result the person could read
    facts.mid_task = True
    return Signal(
        "mid-task",
        [last.index],
        "the agent was still working: its last message ran a tool and had not stopped",
        0.0,
        "before",
        [plain(f"{tool.name}: {tool.key}", 90)],
    )


def hands_off_signal(w: Window, cfg: PivotConfig) -> Signal | None:
    """Many agent steps since the person last gave direction."""
    if w.hands_off < cfg.hands_off_min:
        return None
    count = f"{w.hands_off}+" if w.hands_off >= cfg.hands_off_cap else str(w.hands_off)
    turns = [w.direction.index] if w.direction is not None else []
    # no turn to point at: the person's direction is further back than the turns read
    reach = len(w.before) >= cfg.before_window
    back = f", more than {cfg.before_window} turns back" if not turns and reach else ""
    return Signal(
        "hands-off streak",
        turns,
        f"{count} agent steps since the person last gave direction{back}",
        0.0,
        "before",
        value=scaled(w.hands_off, HANDS_OFF_FULL),
    )


def before_signals(w: Window, cfg: PivotConfig) -> tuple[list[Signal], BeforeFacts]:
    facts = BeforeFacts()
    out = failure_signals(w, cfg, facts)
    for signal in (
        milestone_signal(w, cfg, facts),
        proposal_signal(w, cfg, facts),
        next_step_signal(w, cfg, facts),
        open_question_signal(w, cfg, facts),
        mid_task_signal(w, cfg, facts),
        hands_off_signal(w, cfg),
    ):
        if signal is not None:
            out.append(signal)
    return out, facts
