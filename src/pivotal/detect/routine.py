"""Whether the work after a silence repeats the steps from before it.

PIVOTS.md: "an ack in the middle of routine, unchanged work" is no pivot.
Routine shows in the calls, not the arguments: batch after batch runs the
same programs and scripts on different files. A call's *step* is its tool
and what it runs (`npx vitest`, `python scripts/move_defs.py`, `Edit *.tsx`),
without paths, numbers or flags; plumbing (`| tail -3`) is left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from pivotal.detect.activity import command_pieces, edited_file, tool_kind
from pivotal.detect.failures import CHECKS, tool_failed
from pivotal.detect.view import ToolView, TurnView

_PLUMBING = frozenset(
    "tail head grep rg sort uniq wc cut awk sed tr tee xargs cat echo true sleep jq column "
    "printf less more cd pushd popd source export set".split()
)
_PREFIXES = frozenset("sudo nohup time env exec setsid timeout".split())
_INTERPRETERS = frozenset(
    "python python3 node bash sh zsh ruby perl php deno bun tsx ts-node uv".split()
)
"""Programs whose first argument (the script) is the step; for others a path is a detail."""
FIRST_AFTER = 6
"""How many calls after the silence are compared."""
SAME_SHARE = 0.6
"""At least this share of them must repeat a step from before."""


def _segment_step(segment: str) -> str:
    words = [w for w in segment.split() if "=" not in w.split("/")[0] or w.startswith("-")]
    while words and (words[0] in _PREFIXES or words[0].isdigit()):
        words = words[1:]
    if not words:
        return ""
    head = words[0].rsplit("/", 1)[-1]
    if head in _PLUMBING:
        return ""
    for word in words[1:4]:
        word = word.strip("'\"")
        if not word or word.startswith("-") or not word[0].isalpha():
            continue
        if "/" not in word or head in _INTERPRETERS:
            return f"{head} {word}"  # a subcommand (`npx vitest`) or a script
        break
    return head


def step(tool: ToolView) -> frozenset[str]:
    """What kind of step a call is, without its particulars (one entry per command piece)."""
    memo = tool.memo
    if "step" not in memo:
        memo["step"] = _step(tool)
    result: frozenset[str] = memo["step"]
    return result


def _step(tool: ToolView) -> frozenset[str]:
    pieces = command_pieces(tool)
    if pieces:
        return frozenset(s for s in map(_segment_step, pieces) if s)
    key = edited_file(tool) or tool.key.strip()
    tail = key.rsplit("/", 1)[-1]
    ext = tail.rsplit(".", 1)[-1] if "." in tail and len(tail) < 100 else ""
    return frozenset({f"{tool.name.lower()} .{ext}" if ext else tool.name.lower()})


def _counts(tool: ToolView) -> bool:
    """Todo updates and logs of replies that ran nothing (aider) are not steps."""
    return tool_kind(tool) not in ("plan", "other")


def repeats_steps(before: Sequence[TurnView], after: Sequence[TurnView]) -> list[int]:
    """The after-turns whose calls repeat steps from before (empty when the work changed)."""
    known: set[str] = set()
    for view in before[-8:]:
        for tool in view.tools:
            if _counts(tool):
                known |= step(tool)
    if not known:
        return []
    pairs = [(v.index, t) for v in after for t in v.tools if _counts(t)]
    first = pairs[:FIRST_AFTER]
    if len(first) < 2:
        return []
    same = [i for i, t in first if step(t) & known or not step(t)]  # plumbing goes either way
    if not step(first[0][1]) & known or len(same) < SAME_SHARE * len(first):
        return []
    if not any(command_pieces(t) and step(t) & known for _, t in first):
        return []  # files of one type edited before and after: too coarse to call it routine
    return sorted(set(same))


def reruns_failed_check(before: Sequence[TurnView], after: Sequence[TurnView]) -> list[int]:
    """The after-turns that run again a check (test, build, launch ...) that failed before."""
    failed: set[str] = set()
    for view in before[-8:]:
        for tool in view.tools:
            if tool_kind(tool) in CHECKS and tool_failed(tool):
                failed |= step(tool)
    if not failed:
        return []
    pairs = [(v.index, t) for v in after for t in v.tools if _counts(t)][:10]
    return sorted({i for i, t in pairs if step(t) & failed})


def retries_cut_call(before: Sequence[TurnView], after: Sequence[TurnView]) -> list[int]:
    """The after-turns that run again the call the agent's last message ended on, when that
    call failed and the agent said nothing after it.

    An automatic compaction can land between a call and the agent's answer to its
    result; when the agent then runs the same step again, the work simply went on.
    """
    if not before or not before[-1].ends_with_tool:
        return []
    calls = [t for t in before[-1].tools if _counts(t)]
    if not calls or not tool_failed(calls[-1]):
        return []
    cut = step(calls[-1])
    if not cut:
        return []
    pairs = [(v.index, t) for v in after for t in v.tools if _counts(t)][:FIRST_AFTER]
    return sorted({i for i, t in pairs if step(t) & cut})
