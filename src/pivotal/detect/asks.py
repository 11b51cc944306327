"""What the agent's last words ask of the person, and how many steps they lay out.

A question to the person (a "?" sentence in the last paragraph, "？" too, or an ask such as
"let me know", "OKなら…進めます"), whether it is a choice between options or a yes/no
go-ahead, and the steps of a listed plan. Asked by the proposal, next-step and
open-question rules and by the summary line (`listing` says what the listed items are).
"""

from __future__ import annotations

import re

from pivotal.detect.evidence import around
from pivotal.detect.figures import prose
from pivotal.detect.lazyre import first, lazy
from pivotal.detect.lexicon import ASKS_PERSON
from pivotal.detect.lexicon_intl import ASKS as INTL_ASKS
from pivotal.detect.lexicon_intl import CHOICE as INTL_CHOICE
from pivotal.detect.view import TurnView

_QUESTION = lazy(r"(?<![^.!?。！？\n])[^.!?。！？\n]*(?:\?(?=\s|$)|？)")
"""A sentence ending in "?" (or the full-width "？", which needs no space after it). It
starts where a sentence starts (the lookbehind): a match from inside a sentence would need
the same ending, and trying every position in it was quadratic."""
_CHOICE = lazy(r"\bor\b|\bwhich\b|\beither\b", re.IGNORECASE)
_GO_AHEAD = lazy(
    r"^\W*((shall|should|can|may) (i|we)|(do|would) you (want|like) me to|"
    r"(launch|apply|run|start|deploy|go|proceed|continue|ship|merge|upgrade|install|drop|delete|"
    r"remove|create|add|write|commit|push|open|fix|update|rebuild|restart|rerun|retry|revert|"
    r"roll back|migrate|switch|enable|disable|change|move|rename|clean|truncate|bump|pin|"
    r"make|build|try|send|release|tag|publish|implement|refactor|generate))\b|"
    r"\b(want|like) me to\b|\b(ok|okay|good|ready|fine) to (go|proceed|start|apply|run)\b|"
    r"\bgo ahead\b|\bproceed\b",
    re.IGNORECASE,
)
"""A yes/no go-ahead ("Shall I go ahead, or ...?", "Launch with 8 workers?", "Drop the old
partitions?": a question opening with the thing to do)."""


def is_go_ahead(question: str) -> bool:
    """A yes/no question offering to go ahead ("Shall I apply it?", "OKなら進めます")."""
    return bool(_GO_AHEAD.search(question) or INTL_ASKS.search(question))


def is_choice(question: str) -> bool:
    """A question between options ("spot or on-demand?"), not a yes/no go-ahead."""
    if not (_CHOICE.search(question) or INTL_CHOICE.search(question)):
        return False
    return not is_go_ahead(question)


def question_of(view: TurnView) -> str:
    """`question_to_person` of a message, worked out once (several rules ask it of the
    agent's last message before every silence)."""
    memo = view.memo
    if "question" not in memo:
        memo["question"] = question_to_person(view.text)
    result: str = memo["question"]
    return result


def question_to_person(text: str) -> str:
    """The question a message ends on: a "?" sentence in its last paragraph, or an ask."""
    words = prose(text).strip()
    if not words:
        return ""
    last = re.split(r"\n\s*\n", words[-800:])[-1]
    found = _QUESTION.findall(last)
    if found:
        return found[-1].strip(" *_`")
    tail = words[-400:]
    match = first(ASKS_PERSON, tail)
    if match:
        return around(tail, *match)
    other = INTL_ASKS.search(tail)  # "OKなら…進めます", "Voulez-vous que je …"
    return around(tail, other.start(), other.end()) if other else ""


_LIST_ITEM = lazy(r"^[ \t]*(?:[-*•]|\d{1,2}[.)]|#{2,4}[ \t]+\d{1,2}[.)]?)[ \t]+\S", re.MULTILINE)
"""A line that starts a list item: "- ...", "2) ...", "### 3. ..." (a plan's steps)."""
_NUMBERED = lazy(r"^[ \t]*(?:#{2,4}[ \t]+)?\d{1,2}[.)][ \t]+\S", re.MULTILINE)


def listed_steps(view: TurnView) -> int:
    """How many steps the prose of a message lists: its numbered items when it numbers at
    least two (the bullets under them are details), else its bullet items."""
    memo = view.memo
    if "steps" not in memo:
        words = prose(view.text)
        numbered = len(_NUMBERED.findall(words))
        memo["steps"] = numbered if numbered >= 2 else len(_LIST_ITEM.findall(words))
    result: int = memo["steps"]
    return result


_QUESTION_ITEM = lazy(
    r"^[ \t]*(?:[-*•]|\d{1,2}[.)]|#{2,4}[ \t]+\d{1,2}[.)]?)[ \t]+[^\n]*[?？][ \t*_`]*$",
    re.MULTILINE,
)
"""A list item that is a question ("1. Which port should it listen on?")."""


def listed_questions(view: TurnView) -> bool:
    """The items `listed_steps` counts are mostly questions to the person, not steps: three
    questions are not "a 3-step plan"."""
    memo = view.memo
    if "questions" not in memo:
        steps = listed_steps(view)
        asked = len(_QUESTION_ITEM.findall(prose(view.text))) if steps >= 2 else 0
        memo["questions"] = steps >= 2 and asked * 2 > steps
    result: bool = memo["questions"]
    return result


def first_step(view: TurnView) -> str:
    match = _LIST_ITEM.search(prose(view.text))
    return around(prose(view.text), match.start(), match.end()) if match else view.text
