"""What the items of an agent's listed message are, in words: steps of a plan, or items.

The `plan laid out` signal counts a message's list items (`asks.listed_steps`) whatever they
are: the steps of a plan, but also the files it changed, its findings, the options it sees.
The words said to the person follow what the list reads as, so a list of 65 files is "a list
of 65 items", not "a 65-step plan". Words only: no signal's value, no rule decides on it.

A list reads as steps when its items are labelled "Step 2" / "Phase 1", when at least half
of them start with a verb telling what to do ("Add …", "Rename `x` to …"), or when the line
that introduces it names a plan ("The plan:", "Here's how I'll do it:"). It reads as items
when most start with a name (a file, a path, code, a link, a "**Label**:") or report what
was done ("Added …", "✅ …"). Otherwise a line saying what the agent will do ("We need to:")
or numbering makes it steps; bullets are items.
"""

from __future__ import annotations

import re

from pivotal.detect.asks import listed_questions, listed_steps
from pivotal.detect.figures import prose
from pivotal.detect.lazyre import lazy
from pivotal.detect.view import TurnView

_ITEM = lazy(
    r"^[ \t]*(?:([-*•])|\d{1,2}[.)]|#{2,4}[ \t]+\d{1,2}[.)]?)[ \t]+(\S[^\n]*)", re.MULTILINE
)
"""A list item as `asks.listed_steps` counts it; group 1 is a bullet, group 2 the words."""
SAMPLE = 12
"""Items read to tell what a list is (a list's kind shows in its first few)."""

_STEP_LABEL = lazy(
    r"^[ \t#>*_\-\d.)]*(?:step|phase|stage|étape|paso|fase|schritt|шаг|этап)[ \t]*\d|"
    r"^[ \t#>*_\-\d.)]*(?:第[ \t]*\d+[ \t]*[步阶]|步骤[ \t]*\d|ステップ[ \t]*\d|\d+[ \t]*단계)",
    re.IGNORECASE | re.MULTILINE,
)
"""A line labelled as a step of a plan: "Step 2:", "### Phase 1", "**Étape 3**", "第2步"."""

_NAMES_PLAN = lazy(
    r"\bplan\b|\bsteps?\b|\bapproach\b|\bhere['’]?s how\b|\bto-?do\b|"
    r"étapes|pasos|schritte|passos|план|计划|步骤|方案|手順|計画|ステップ|단계|계획",
    re.IGNORECASE,
)
"""The line before a list names a plan ("The plan:", "Here's how I'll approach it:", "接下来
的步骤："): its items are the plan's steps, even when each names the file it changes."""
_WILL_DO = lazy(
    r"\b(i|we)(['’]ll| will| would| need to| should| am going to|['’]m going to| are going to|"
    r"['’]re going to)\b|\blet['’]?s\b|je vais|nous allons|voy a|vamos a|ich werde|wir werden|"
    r"接下来|我将|我会|予定",
    re.IGNORECASE,
)
"""The line before a list says what the agent will do ("We need to:", "I'll then:"): steps,
unless the items are names ("I'll need these files:")."""

VERBS = frozenset(
    "add adjust align allow apply avoid backfill build bump change check clean clear "
    "commit compare configure confirm connect convert copy create debug decide define "
    "delete deploy disable document drop enable ensure expose extend extract find fix "
    "generate guard handle implement improve inline inspect install integrate introduce "
    "investigate keep launch lint load locate look make measure merge migrate modify move "
    "normalize open optimize parse pin publish push read rebuild refactor register reload "
    "remove rename reorder replace reproduce rerun reset restart restore restructure retry "
    "revert rewrite run save scaffold send separate ship simplify skip split start stop "
    "swap switch tune update upgrade use validate verify wire wrap write".split()
)
"""Verbs that open a step ("Add a test", "Move the parser"): lower case, base form. A word
as often a noun ("Test coverage", "Search results") is a verb only with an object after it
(`_OBJECTS`: "Test the parser")."""
_LEADS = frozenset("first firstly then next finally afterwards lastly let let's i'll we'll".split())
"""Words that open a step of a sequence ("First, …", "Then …", "I'll …")."""
_OBJECTS = frozenset(
    "the a an this that these those all it them each every any some our your its their "
    "up out back down off over away".split()
)
"""Words after a verb, not after a noun: "Rework the loader", "Tear down the stack"."""
_NOT_PAST = frozenset("embed proceed exceed succeed speed bleed breed shred".split())
_PAST = frozenset(
    "built made wrote ran kept found left got took gave brought did done saw rewrote began".split()
)
"""Past forms that do not end in -ed ("Built the image", "Wrote tests"): a report."""
_DONE = ("✅", "✔", "☑", "✓", "[x]", "[X]")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")
_FILE = re.compile(r"[/\\]|\w\.[A-Za-z][A-Za-z0-9]{0,5}$")
_LABEL = re.compile(r"^(?:\*\*|__)?[^:*_\n]{1,40}?(?:\*\*|__)?[ \t]*(?::|：|[ \t][—–-][ \t])")


def reads_as_steps(view: TurnView) -> bool:
    """Whether the items `listed_steps` counts in a message read as steps of a plan (True)
    or as items: files, findings, options, what was done (False). Worked out once."""
    memo = view.memo
    if "list steps" not in memo:
        memo["list steps"] = _reads_as_steps(prose(view.text))
    result: bool = memo["list steps"]
    return result


def _reads_as_steps(words: str) -> bool:
    found = list(_ITEM.finditer(words))
    numbered = [m for m in found if not m.group(1)]
    items = numbered if len(numbered) >= 2 else found
    if not items:
        return True
    if len(_STEP_LABEL.findall(words)) >= 2:
        return True
    kinds = [_kind(m.group(2)) for m in items[:SAMPLE]]
    half = len(kinds) / 2
    if kinds.count("step") >= half:
        return True
    if kinds.count("done") >= half:
        return False
    lead = [line for line in words[: items[0].start()].splitlines() if line.strip()]
    intro = lead[-1][-200:] if lead else ""
    if _NAMES_PLAN.search(intro):
        return True
    if kinds.count("name") >= half:
        return False
    return bool(_WILL_DO.search(intro)) or items is numbered


def _kind(item: str) -> str:
    """One item's first words: "step" (a verb telling what to do), "done" (what was done),
    "name" (a file, code, a link, a label before a colon), or "other"."""
    text = item.strip()
    if text.startswith(_DONE):
        return "done"
    if text.startswith(("`", "[", "**`", "__`", "<")):
        return "name"
    bare = text.lstrip("*_ \t\"'“")
    words = _WORD.findall(bare[:80])
    first = words[0].lower().replace("’", "'") if words and bare.startswith(words[0]) else ""
    token = bare.split(maxsplit=1)[0].rstrip(":,;.—–*_") if bare else ""
    if first:
        if first in VERBS or first in _LEADS:
            return "step"
        if first in _PAST or (first.endswith("ed") and len(first) > 4 and first not in _NOT_PAST):
            return "done"
        after = bare[len(words[0]) :].split(maxsplit=1)
        nxt = after[0].lower().strip("*_,:") if after else ""
        plain_verb = not first.endswith("s") or first.endswith(("ss", "us"))
        if plain_verb and (nxt in _OBJECTS or nxt.startswith("`")) and token == words[0]:
            return "step"
    if token and _FILE.search(token):
        return "name"
    if _LABEL.match(bare):
        return "name"
    return "other"


def what_is_listed(view: TurnView) -> str:
    """ "a 3-step plan", "a list of 12 items" or "3 questions": what the items of the message
    are, in words."""
    steps = listed_steps(view)
    if listed_questions(view):
        return f"{steps} questions"
    if steps < 2:
        return "a plan"
    if not reads_as_steps(view):
        return f"a list of {steps} items"
    article = "an" if str(steps).startswith("8") or steps in (11, 18) else "a"
    return f"{article} {steps}-step plan"


def listed_words(view: TurnView) -> str:
    """ "5 steps" or "12 items": what the message lists, counted (at least two)."""
    return f"{listed_steps(view)} {'steps' if reads_as_steps(view) else 'items'}"
