"""Short labels for the mode of work, and the terms the work touches.

A phase label comes from the activity mix of a window (which tools ran, what
was edited, whether things failed): "investigating", "benchmarking",
"upgrading" ... Terms (files, commands, identifiers) let the after-window
rules say whether the work moved to something else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from pivotal.detect.activity import command_pieces, tool_kind
from pivotal.detect.lazyre import first, lazy
from pivotal.detect.lexicon import PLAN, STOPWORDS
from pivotal.detect.lexicon_intl import plan_intl
from pivotal.detect.view import TurnView

LABELS = {
    "read": "investigating",
    "search": "investigating",
    "poll": "waiting on a launch",
    "edit": "editing code",
    "test": "testing",
    "bench": "benchmarking",
    "install": "installing / upgrading",
    "launch": "launching / deploying",
    "run": "running experiments",
    "plan": "planning",
}
_PREFERENCE = (
    "install",
    "launch",
    "bench",
    "test",
    "edit",
    "run",
    "poll",
    "search",
    "read",
    "plan",
)
_IDENT = lazy(
    r"[^A-Za-z0-9_](?<=\W)(?![a-z]++(?![_.A-Z0-9]))"
    r"([A-Za-z][a-z0-9]*+(?:[_.][A-Za-z0-9]++)+\b|[a-z]++[A-Z][A-Za-z0-9]*+\b|[A-Z]{2,}+[0-9]*+\b)"
)
"""snake_case, dotted.names / files.py, camelCase and ACRONYMS: technical terms, not prose.

As written plainly: `\b(?:[A-Za-z][a-z0-9]*(?:[_.][A-Za-z0-9]+)+\b|[a-z]+[A-Z][A-Za-z0-9]*\b|
[A-Z]{2,}[0-9]*\b)`. Read with `identifiers`, which puts a space before the text. Rewritten
to be cheap on prose, where almost no word is one:

* it starts with the character before the word (a class), so the engine jumps from gap to
  gap in C instead of testing a word boundary at every position;
* a word of lower-case letters that does not go on with `_ . digit CAPITAL` is passed over
  after one look (each branch used to read it again);
* the quantifiers are possessive (`*+`, `++`): what follows each run can never be one of
  its characters, so giving characters back could not help."""


def identifiers(text: str) -> list[str]:
    """The technical terms of `text` (`_IDENT`), in order."""
    found: list[str] = _IDENT.findall(" " + text)
    return found


def activity_mix(views: Sequence[TurnView]) -> Counter[str]:
    """Tool kinds weighted by recency (the latest work says most about the phase)."""
    mix: Counter[str] = Counter()
    total = max(1, len(views))
    for pos, view in enumerate(views):
        for tool in view.tools:
            mix[tool_kind(tool)] += 1.0 + pos / total  # type: ignore[assignment]
    return mix


def mentions_plan(view: TurnView) -> bool:
    """Whether a turn's text talks of a plan, options or risks (asked by several rules; once)."""
    memo = view.memo
    if "plan" not in memo:
        memo["plan"] = first(PLAN, view.text) is not None or plan_intl(view.text)
    result: bool = memo["plan"]
    return result


def phase_label(views: Sequence[TurnView], failing: bool = False) -> str:
    """The dominant activity of `views` as a few words ('' when nothing happened)."""
    mix = activity_mix(views)
    mix.pop("other", None)
    if not mix:
        texts = [v for v in views if v.is_assistant and v.text]
        if not texts:
            return ""
        return "planning" if any(mentions_plan(v) for v in texts) else "discussing"
    top = max(mix.values())
    kind = next(k for k in _PREFERENCE if mix.get(k) == top)
    if kind == "plan" and len(mix) > 1:
        kind = next(k for k in _PREFERENCE if k != "plan" and mix.get(k))
    label = LABELS.get(kind, kind)
    if failing:
        label = (
            "experimenting, hitting failures"
            if kind in ("run", "launch", "bench", "test", "poll", "install")
            else label + ", failing"
        )
    return label


_PROGRAM = lazy(r"^[A-Za-z][\w.+-]*$")
_SKIP_PROGRAMS = frozenset(
    "sudo nohup timeout env time sleep echo for do done then if fi cd".split()
)


@lru_cache(maxsize=1024)
def _command_terms(pieces: tuple[str, ...]) -> frozenset[str]:
    """The programs a command runs and the paths it names (remembered, as `split_command`)."""
    out: set[str] = set()
    for segment in pieces:
        words = [w for w in segment.split() if "=" not in w or w.startswith("-")]
        if words:
            head = words[0].rsplit("/", 1)[-1].lower()
            if _PROGRAM.match(head) and head not in _SKIP_PROGRAMS:
                out.add(head)
        for word in words[1:]:
            word = word.strip("'\"();")
            if ("/" in word or "." in word) and not word.startswith("-") and len(word) > 3:
                out.add(word.rsplit("/", 1)[-1].lower())
    return frozenset(out)


def terms(views: Sequence[TurnView], limit: int = 200) -> set[str]:
    """Files, command words and identifiers the work touches (lower-cased)."""
    out: set[str] = set()
    for view in views:
        out |= view_terms(view)
        if len(out) > limit:
            break
    return out


def view_terms(view: TurnView) -> set[str]:
    """The terms of one turn, found once (windows of neighbouring silences overlap)."""
    memo = view.memo
    if "terms" not in memo:
        out: set[str] = set()
        for tool in view.tools:
            pieces = command_pieces(tool)
            if pieces:
                out.update(_command_terms(pieces))
            elif tool.key:
                out.add(tool.key.lower().rsplit("/", 1)[-1][:60])
        if view.is_assistant:
            for found in identifiers(view.text[:4000]):
                word = found.lower().strip(".-")
                if len(word) > 2 and word not in STOPWORDS:
                    out.add(word)
        memo["terms"] = out
    result: set[str] = memo["terms"]
    return result


def overlap(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 1.0
    return len(a & b) / len(a | b)
