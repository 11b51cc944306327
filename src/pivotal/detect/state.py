"""The before → after state a pivot panel shows.

Phase labels, initiative, open threads left hanging at the silence, attempt
tallies, the last figures quoted before and the next ones after, and task
items whose status changed.
"""

from __future__ import annotations

from pivotal.detect.activity import tool_kind
from pivotal.detect.config import EARLIER_TASK_TURNS
from pivotal.detect.evidence import plain
from pivotal.detect.facts import AfterFacts, BeforeFacts
from pivotal.detect.figures import figures
from pivotal.detect.tasks import TaskTracker
from pivotal.detect.view import TurnView
from pivotal.detect.window import Window
from pivotal.model import Signal, StateChange


def _last_figures(views: list[TurnView], newest_first: bool) -> list[str]:
    ordered = list(reversed(views)) if newest_first else views
    for view in ordered:
        found = figures(view.text, 6)
        if not found:
            for tool in view.tools:
                found = figures(tool.output or "", 6)
                if found:
                    break
        if found:
            return found
    return []


def open_threads(w: Window, before: list[Signal], facts: BeforeFacts) -> list[str]:
    out: list[str] = []
    for signal in before:
        if signal.name == "inconclusive ending":
            out.append(plain("no verdict yet: " + signal.detail.split(": ", 1)[-1], 100))
        elif signal.name == "proposal pending":
            who = "the agent's plan" if facts.proposal_by_agent else "the person's proposal"
            quote = signal.quotes[0] if signal.quotes else ""
            out.append(plain(f"{who} not yet executed: {quote}", 100))
        elif signal.name == "open question" and signal.quotes:
            out.append(plain("unanswered question: " + signal.quotes[0], 100))
    return out


def state_change(
    w: Window,
    before: list[Signal],
    bfacts: BeforeFacts,
    afacts: AfterFacts,
    phase_before: str,
    phase_after: str,
) -> StateChange:
    tracker = TaskTracker()
    if any(tool_kind(t) == "plan" for v in (*w.before, *w.cluster, *w.after) for t in v.tools):
        # the task list as it stood before the window, so changes read "pending → FAILED"
        for view in w.earlier(EARLIER_TASK_TURNS):
            if any(tool_kind(t) == "plan" for t in view.tools):
                tracker.feed([view], record=False)
                break
    tracker.feed(w.before)
    tracker.feed(w.cluster)
    tracker.feed(w.after)
    initiative_before = (
        "person-led" if w.hands_off < 10 else "agent following the person's last direction"
    )
    if afacts.clarification:
        initiative_after = "back to the person"
    elif afacts.actions or afacts.dump:
        initiative_after = "agent-led"
    else:
        initiative_after = "unchanged" if w.complete else "not yet known"
    return StateChange(
        phase_before=phase_before,
        phase_after=phase_after,
        initiative_before=initiative_before,
        initiative_after=initiative_after,
        open_threads=open_threads(w, before, bfacts),
        attempts_failed=bfacts.failures_total,
        attempts_succeeded=bfacts.successes,
        figures_before=_last_figures(w.agent_before, newest_first=True),
        figures_after=_last_figures([*w.cluster, *w.agent_after], newest_first=False),
        tasks=tracker.changes[-10:],
    )
