"""Evidence from the work after a silence.

context dump (a long structured summary, or one the format marks as a
summary), autonomous action, clarification (a counter-signal: the agent asks
what to do instead) and topic / phase shift.
"""

from __future__ import annotations

from pivotal.detect.activity import EXECUTING, tool_kind
from pivotal.detect.config import EARLIER_TASK_TURNS, PivotConfig
from pivotal.detect.evidence import around, plain, scaled
from pivotal.detect.facts import AfterFacts
from pivotal.detect.lazyre import first, lazy
from pivotal.detect.lexicon import (
    API_ERROR,
    CLARIFY,
    DUMP_HEADINGS,
    HEADING_LINE,
    INTERRUPT,
    NEXT_PHASE,
    SUMMARY_OPENING,
)
from pivotal.detect.lexicon_intl import CLARIFY as INTL_CLARIFY
from pivotal.detect.phase import overlap, phase_label, terms
from pivotal.detect.routine import repeats_steps
from pivotal.detect.summary import todo_note, window_scope
from pivotal.detect.tasks import task_items
from pivotal.detect.view import TurnView
from pivotal.detect.window import Window
from pivotal.model import Role, Signal, Silence, TurnFlag
from pivotal.text.plural import plural

_SUMMARY = int(TurnFlag.COMPACTION_SUMMARY)
"""Flags are tested as plain ints (`IntFlag &` builds an enum member each time)."""
ACTIONS_FULL = 40
"""This many tool calls after the silence count fully (an approved plan runs 20-100)."""
_HARNESS = int(TurnFlag.SYNTHETIC | TurnFlag.META)
_NAME_LIKE = lazy(r"^(?=.*\w)[^\"'(){}\[\]\\,;`<>|$]+$")
"""A term the topic shift may quote as what the work touches now (a file, a glob, a program,
a task's title); not a fragment of a heredoc or a `python -c` body (`"),`, `{x.y()},`,
`print(x`), which still counts in the overlap but names nothing a person would recognise."""


def is_dump(view: TurnView, cfg: PivotConfig) -> bool:
    """A structured status summary (Goal / Discoveries / Next steps ...), or a long outline.

    Sections are headings or bold labels at the start of a line; two status sections
    ("Where we are", "Next phase") in a message with two headings are enough.
    """
    text = view.text
    if int(view.flags) & _SUMMARY:
        return True
    if view.full_len < cfg.dump_min_chars:
        return False
    # any one of the tests below makes a dump: the cheaper ones are asked first
    sections = len(DUMP_HEADINGS.findall(text))
    if sections >= cfg.dump_min_sections:
        return True
    headings = len(HEADING_LINE.findall(text))
    if (sections >= 2 and headings >= 2) or (
        headings >= 4 and view.full_len >= 2 * cfg.dump_min_chars
    ):
        return True
    return (sections >= 2 or headings >= 2) and SUMMARY_OPENING.search(text[:300]) is not None


def context_dump_signal(w: Window, cfg: PivotConfig, facts: AfterFacts) -> Signal | None:
    marked = [v for v in w.cluster if int(v.flags) & _SUMMARY]
    first_agent = next((v for v in w.agent_after if v.text.strip()), None)
    if first_agent is not None and int(first_agent.flags) & _SUMMARY:
        marked.append(first_agent)
    if first_agent is not None and first_agent not in marked and is_dump(first_agent, cfg):
        facts.dump = True
        facts.agent_dump = True
        return Signal(
            "context dump",
            [first_agent.index],
            f"the next agent message is a structured summary ({first_agent.full_len} chars)",
            0.0,
            "after",
            [plain(first_agent.text, 90)],
        )
    if marked:
        facts.dump = True
        # a summary with no boundary before it is the silence itself, quoted by the silence
        # signal: its words are not quoted a second time, on the other side of the panel
        quoted = marked[0].index == w.anchor.index
        return Signal(
            "summary recorded",
            [v.index for v in marked],
            "the compaction left a summary for the agent to carry on from",
            0.0,
            "after",
            [] if quoted else [plain(v.text, 90) for v in marked[:1]],
        )
    return None


def action_signals(w: Window, cfg: PivotConfig, facts: AfterFacts) -> list[Signal]:
    """Autonomous action, or a clarification question with nothing done."""
    agent = w.agent_after
    for view in agent:
        for tool in view.tools:
            kind = tool_kind(tool)
            if kind == "plan" or (tool.name == "aider" and kind == "other"):
                facts.todo += kind == "plan"  # said apart: the run counts every call
                continue  # a todo update, or aider's log of a reply that ran nothing
            facts.actions += 1 + tool.inner_calls  # a sub-agent's calls are its work too
            facts.executing += kind in EXECUTING
            if view.index not in facts.action_turns:
                facts.action_turns.append(view.index)
    texts = [v for v in agent if v.text.strip()]
    out: list[Signal] = []
    # the agent asks what to do instead of acting: in its first words, or - when it only
    # looked around - at the end of what it wrote (a complete window ends where it stopped)
    candidates = [(v, facts.actions <= 1) for v in texts[:1]]
    if w.complete and texts:
        candidates.append((texts[-1], True))
    for view, counts in candidates if facts.executing == 0 else []:
        tail = view.text.strip()[-500:]
        match = first(CLARIFY, tail)
        if match is None:
            other = INTL_CLARIFY.search(tail)  # "どうしますか", "que voulez-vous …"
            match = (other.start(), other.end()) if other else None
        lines = [ln for ln in tail.splitlines() if ln.strip()]
        asks = match is not None or (
            bool(lines) and lines[-1].rstrip(" *_`").endswith(("?", "？")) and not view.tools
        )
        if asks and counts:
            facts.clarification = True
            quote = around(tail, *match) if match else lines[-1]
            out.append(
                Signal(
                    "clarification",
                    [view.index],
                    "the agent asks what to do instead of acting",
                    0.0,
                    "after",
                    [plain(quote, 90)],
                )
            )
            break
    if facts.actions and not facts.clarification:
        names = []
        for view in agent:
            for tool in view.tools:
                if tool_kind(tool) != "plan" and len(names) < 3:
                    names.append(plain(f"{tool.name}: {tool.key}", 80))
        out.append(
            Signal(
                "autonomous action",
                facts.action_turns[:6],
                f"{plural(facts.actions, 'tool call')}{window_scope(w)} without asking "
                f"({facts.executing} executing){todo_note(facts)}",
                0.0,
                "after",
                names,
                value=scaled(facts.actions, ACTIONS_FULL),
            )
        )
    return out


def routine_signal(w: Window, cfg: PivotConfig, facts: AfterFacts) -> Signal | None:
    """The calls after the silence repeat the steps from before it: the same work went on."""
    if facts.dump or facts.new_tasks or facts.next_phase:
        return None  # a re-orientation, new tasks or an announced next phase are a change
    same = repeats_steps(w.agent_before, w.agent_after)
    if not same:
        return None
    facts.routine = True
    examples = []
    for view in w.agent_after:
        for tool in view.tools:
            if view.index in same and len(examples) < 2:
                examples.append(plain(f"{tool.name}: {tool.key}", 80))
    return Signal(
        "same steps",
        same[:6],
        "the calls after the silence repeat the steps from before it",
        0.0,
        "after",
        examples,
    )


def next_phase_signal(w: Window, cfg: PivotConfig, facts: AfterFacts) -> Signal | None:
    """The agent's first words after the silence announce new work ("Next phase: ...")."""
    lead = next((v for v in w.agent_after if v.text.strip()), None)
    if lead is None:
        return None
    head = lead.text[:600]
    match = first(NEXT_PHASE, head)
    if match is None:
        return None
    facts.next_phase = True
    return Signal(
        "new phase announced",
        [lead.index],
        "the agent says one piece of work is over and names the next",
        0.0,
        "after",
        [around(head, *match)],
    )


_CLOSED = ("completed", "done", "cancelled", "canceled")


def new_tasks_signal(w: Window, cfg: PivotConfig, facts: AfterFacts) -> Signal | None:
    """The agent put new items on its task list after the silence: it chose new work."""
    after = [v for v in w.agent_after[:10] if task_items(v)]
    if not after:
        return None
    known: set[str] = set()
    before = [v for v in (*w.before, *w.cluster) if task_items(v)]
    if not before:
        # whole-list todo tools repeat old items: take the list as it stood earlier
        before = next(([v] for v in w.earlier(EARLIER_TASK_TURNS) if task_items(v)), [])
    for view in before:
        known.update(key for key, _, _ in task_items(view))
    if not known:
        return None  # a first task list says nothing about a change
    new: list[tuple[int, str]] = []
    for view in after:
        for key, name, status in task_items(view):
            if key not in known and status.lower() not in _CLOSED:
                known.add(key)
                new.append((view.index, name or key))
    if not new:
        return None
    facts.new_tasks = True
    return Signal(
        "new tasks",
        sorted({i for i, _ in new})[:6],
        f"the agent put {plural(len(new), 'new item')} on its task list",
        0.0,
        "after",
        [plain(name, 80) for _, name in new[:3]],
    )


def shift_signals(
    w: Window, cfg: PivotConfig, facts: AfterFacts, phase_before: str, phase_after: str
) -> list[Signal]:
    """Topic shift (terms) and phase change (activity mix)."""
    out: list[Signal] = []
    agent_after = [v for v in w.after if v.role is Role.ASSISTANT and not int(v.flags) & _SUMMARY]
    # a context dump restates the old work: judge the shift on what follows it
    if facts.dump and agent_after and not agent_after[0].tools and len(agent_after) > 1:
        agent_after = agent_after[1:]
    # the terms are gathered only as far as the rule reads them (the same steps need none)
    before_terms = terms(w.agent_before[-8:]) if not facts.routine else set()
    after_terms = terms(agent_after[:8]) if len(before_terms) >= 3 else set()
    if len(after_terms) >= 3:
        score = overlap(before_terms, after_terms)
        if score <= cfg.topic_max_overlap:
            facts.shift = True
            new = sorted(t for t in after_terms - before_terms if _NAME_LIKE.match(t))[:5]
            out.append(
                Signal(
                    "topic shift",
                    [v.index for v in agent_after[:3]],
                    f"the work touches different things (overlap {score:.2f})",
                    0.0,
                    "after",
                    [plain("now: " + ", ".join(new), 90)] if new else [],
                )
            )
    if phase_before and phase_after and phase_before != phase_after and not facts.routine:
        out.append(
            Signal(
                "phase change",
                [v.index for v in agent_after[:1]],
                f"{phase_before} → {phase_after}",
                0.0,
                "after",
            )
        )
    return out


_INTERRUPTED = int(TurnFlag.INTERRUPTED)
_ERROR = int(TurnFlag.ERROR)
_SHORT = 300
"""An error or interruption notice is a short message."""


def cut_off(w: Window) -> tuple[TurnView, bool] | None:
    """The turn showing that an API error, a usage limit or the person's interrupt stopped
    the work just before the silence, and whether it was the harness (an error) rather than
    the person; None when the agent's last message ended normally."""
    for view in reversed(w.before):
        flags = int(view.flags)
        text = view.text if len(view.text) < _SHORT else ""
        if flags & _ERROR or (text and first(API_ERROR, text) is not None):
            return view, True  # "API Error: Connection error.", "Request timed out"
        if flags & _INTERRUPTED or (text and first(INTERRUPT, text) is not None):
            return view, False
        if view.role is Role.ASSISTANT and not flags & _HARNESS:
            last = view.tools[-1] if view.tools else None
            output = (last.output or "")[-_SHORT:] if last is not None else ""
            if output and first(INTERRUPT, output) is not None:
                return view, False
            return None
    return None


def cut_off_signal(w: Window) -> Signal | None:
    """An API error, a usage limit or the person's interrupt stopped the agent just before
    the silence: a go-on after it is most often a re-send (PIVOTS.md)."""
    if w.silence is Silence.COMPACTION:
        return None
    found = cut_off(w)
    if found is None:
        return None
    cut, harness = found
    if harness:
        name, detail = (
            "stopped by an error",
            "an API error or a limit stopped the agent just before",
        )
    else:
        name, detail = "interrupted", "the agent had been interrupted just before"
    quote = cut.text or (cut.tools[-1].output if cut.tools else "") or ""
    return Signal(name, [cut.index], detail, 0.0, "before", [plain(quote, 90)])


def resumed_signal(w: Window, cfg: PivotConfig, facts: AfterFacts) -> Signal | None:
    """A go-on after an API error or an interrupt, and the same work went on after it.

    PIVOTS.md: a "retry" / "continue" after an API error, a usage limit or an interrupt,
    with the same work resuming, is no pivot. After an error of the harness the go-on is
    a re-send: the work resumes unless the agent re-orients, takes up new tasks or
    announces a new phase. After the person's own interrupt the agent may also have been
    stopped to change course: then the terms the work touches must not have shifted either.
    """
    if w.silence is Silence.COMPACTION or not facts.actions:
        return None
    if facts.dump or facts.new_tasks or facts.next_phase:
        return None
    found = cut_off(w)
    if found is None:
        return None
    cut, harness = found
    if facts.shift and not harness:
        return None
    what = "an API error" if harness else "an interruption"
    by = "your empty message" if w.silence is Silence.EMPTY else "the go-on"
    facts.resumed = "error" if harness else "interrupt"
    return Signal(
        "resumed after interruption",
        [cut.index, *facts.action_turns[:2]],
        f"{what} had stopped the work; {by} resumed the same work",
        0.0,
        "after",
        [plain(cut.text or (cut.tools[-1].output if cut.tools else ""), 90)],
    )


def after_phase(w: Window, facts: AfterFacts) -> str:
    if facts.clarification:
        return "waiting for direction"
    views = [v for v in w.after if not int(v.flags) & _SUMMARY]
    label = phase_label(views)
    if facts.dump:
        return f"re-orienting, then {label}" if label and label != "discussing" else "re-orienting"
    return label


def after_signals(
    w: Window, cfg: PivotConfig, phase_before: str
) -> tuple[list[Signal], AfterFacts, str]:
    facts = AfterFacts()
    out: list[Signal] = []
    dump = context_dump_signal(w, cfg, facts)
    if dump is not None:
        out.append(dump)
    out.extend(action_signals(w, cfg, facts))
    for extra in (
        new_tasks_signal(w, cfg, facts),
        next_phase_signal(w, cfg, facts),
        routine_signal(w, cfg, facts),
    ):
        if extra is not None:
            out.append(extra)
    phase_after = after_phase(w, facts)
    core_after = phase_after.replace("re-orienting, then ", "")
    out.extend(shift_signals(w, cfg, facts, phase_before, core_after))
    resumed = resumed_signal(w, cfg, facts)
    if resumed is not None:
        out.append(resumed)
    return out, facts, phase_after
