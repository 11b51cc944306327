"""Whether an automatic compaction landed in the middle of the agent's work.

The tool compacts when the context fills, often inside the agent's call loop: no person
spoke and the agent had not handed back. Its summary says where the work stood ("Optional
Next Step: ...", "Next steps:"), so a summary saying nothing is pending marks the end of
a piece of work rather than the middle of one.
"""

from __future__ import annotations

import re

from pivotal.detect.activity import tool_kind
from pivotal.detect.facts import BeforeFacts
from pivotal.detect.failures import tool_failed
from pivotal.detect.figures import prose
from pivotal.detect.lazyre import lazy
from pivotal.detect.lexicon import ANNOUNCE
from pivotal.detect.view import TurnView
from pivotal.detect.window import Window
from pivotal.model import TurnFlag


def compacted_mid_turn(last: TurnView, facts: BeforeFacts) -> bool:
    """The agent's last message before a compaction had not handed back: it ended on a call
    that came back fine (a todo update after a finished report aside), said nothing, or
    announced more to come ("Here's what we've shown:"). A turn that ended on a failure,
    reported or not, is different: there the agent had run out of road (essay 000)."""
    calls = [t for t in last.tools if tool_kind(t) != "plan"]
    if last.index in facts.failure_turns or facts.inconclusive or any(map(tool_failed, calls)):
        return False
    if last.ends_with_tool and any(tool_kind(t) != "plan" for t in last.tools[-1:]):
        return True
    text = last.text.strip()  # a table or code block after "Results:" is what it announced
    if not text or text.endswith(":"):
        return True
    return ANNOUNCE.search(prose(text).strip()[-300:]) is not None


_NEXT_SECTION = lazy(r"next steps?\b|pending tasks?\b|remaining (work|tasks?)\b", re.IGNORECASE)
_NOTHING_PENDING = lazy(
    r"\bno (immediate |further |pending |specific |outstanding |explicit )?"
    r"(next steps?|tasks?|work|actions?)\b|\bnothing (left|pending|remaining|further|else)\b|"
    r"^\W*none\b|\b(is|are|was|were|has been|have been) (now |fully |successfully )*"
    r"(complete|completed|done|accomplished|finished)\b",
    re.IGNORECASE | re.MULTILINE,
)
_SUMMARY = int(TurnFlag.COMPACTION_SUMMARY)


def summary_says_done(w: Window) -> bool:
    """The compaction's summary says the work asked for is finished and no step is pending.

    Summaries end with where the work stands ("Optional Next Step: ...", "Next steps:");
    only what follows the last such heading is read.
    """
    for view in w.cluster:
        if not int(view.flags) & _SUMMARY:
            continue
        text = view.text
        headings = list(_NEXT_SECTION.finditer(text))
        if headings:
            section = text[headings[-1].end() : headings[-1].end() + 400]
            if _NOTHING_PENDING.search(section):
                return True
    return False
