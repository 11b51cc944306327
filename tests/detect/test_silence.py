"""Which human turns are silences (empty / ack) and which are direction."""

from __future__ import annotations

import pytest

from pivotal.detect.config import PivotConfig
from pivotal.detect.silence import classify_text, classify_turn
from pivotal.model import Part, PartKind, Role, Silence, Turn, TurnFlag

CFG = PivotConfig()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\n",
        "\t \n",
        "<conversation_data>\n\n</conversation_data>",
        '" "',
        "''",
        "<x></x>",
    ],
)
def test_empty(text: str) -> None:
    assert classify_text(text, CFG) is Silence.EMPTY


@pytest.mark.parametrize(
    "text",
    [
        "ok",
        "OK.",
        "continue",
        "Continue",
        "go on",
        "go ahead",
        "yes",
        "proceed",
        "k",
        "…",
        ".",
        "👍",
        "yes please",
        "ok continue",
        '"go on"',
        "sounds good",
        "keep going",
        "lgtm",
    ],
)
def test_ack(text: str) -> None:
    assert classify_text(text, CFG) is Silence.ACK


@pytest.mark.parametrize(
    "text",
    [
        "ok, now run the tests",
        "fix the import in foo.py",
        "/compact",
        "try NCCL tree instead",
        "yes but use the smaller model",
        "continue with the flashinfer benchmark please ok",
        "<command-name>/clear</command-name>",
    ],
)
def test_direction_is_not_silent(text: str) -> None:
    assert classify_text(text, CFG) is None


def _human(text: str, flags: TurnFlag = TurnFlag.HUMAN, parts: list[Part] | None = None) -> Turn:
    turn = Turn(index=0, role=Role.USER, flags=flags, preview=text[:200])
    turn.parts = parts if parts is not None else [Part(PartKind.TEXT, text)]
    return turn


def test_synthetic_and_interrupt_are_never_silences() -> None:
    nudge = _human("Continue from where you left off.", TurnFlag.SYNTHETIC | TurnFlag.META)
    assert classify_turn(nudge, CFG) is None
    empty_synthetic = _human("", TurnFlag.SYNTHETIC)
    assert classify_turn(empty_synthetic, CFG) is None
    interrupt = _human("[Request interrupted by user]", TurnFlag.HUMAN | TurnFlag.INTERRUPTED)
    assert classify_turn(interrupt, CFG) is None


def test_attachment_only_message_is_content() -> None:
    turn = _human("", parts=[Part(PartKind.ATTACHMENT, "[image/png 120 KB]")])
    assert classify_turn(turn, CFG) is None


def test_compaction_boundary_is_a_compaction_silence() -> None:
    turn = Turn(index=0, role=Role.SYSTEM, flags=TurnFlag.COMPACTION_BOUNDARY)
    assert classify_turn(turn, CFG) is Silence.COMPACTION


def test_long_human_message_never_decodes_parts() -> None:
    calls = []

    def loader(t: Turn) -> list[Part]:
        calls.append(t.index)
        return [Part(PartKind.TEXT, "x" * 500)]

    turn = Turn(
        index=0, role=Role.USER, flags=TurnFlag.HUMAN, preview="Please " + "x" * 200, _loader=loader
    )
    assert classify_turn(turn, CFG) is None
    assert calls == []


def test_a_huge_message_is_judged_on_its_ends() -> None:
    wrapped = "<conversation_data>" + " " * 5_000_000 + "</conversation_data>"
    turn = Turn(index=0, role=Role.USER, flags=TurnFlag.HUMAN, preview=wrapped[:200])
    turn.parts = [Part(PartKind.TEXT, wrapped)]
    assert classify_turn(turn, CFG) is Silence.EMPTY
    pasted = Turn(index=0, role=Role.USER, flags=TurnFlag.HUMAN, preview=" " * 200)
    pasted.parts = [Part(PartKind.TEXT, " " * 300 + "Traceback ...\n" * 200_000)]
    assert classify_turn(pasted, CFG) is None


@pytest.mark.parametrize(
    "text",
    [
        "OK, great. Now implement the plan.",  # six words, and none names new work
        "yes fix them all",
        "apply all",
        "go with the recommended approach",
        "fais ça",  # "do that": it points back at what the agent laid out
        "mach das",
        "oui, exécute le plan",
        "全部执行",  # "execute all"
        "OK 下一步",  # "OK, next step"
        "続けて全部やって",  # "go on and do all of it"
        "go ahead with the implementation",  # the implementation of what was laid out
        "yes, start the execution",
    ],
)
def test_an_approval_that_only_points_back_is_an_ack(text: str) -> None:
    assert classify_text(text, CFG) is Silence.ACK


@pytest.mark.parametrize(
    "text",
    [
        "implement the login page",  # names the work
        "yes but fix the flaky test first",
        "apply the patch to the staging branch",
        "ok now implement the plan and also add a dark mode toggle",  # nine words
        "做计划",  # "make a plan": asks for a plan, approves none
        "全部执行然后部署到生产",
        "what were you doing?",  # a question, not a go-on
        "start the implementation of the cache",  # names the work
    ],
)
def test_an_approval_that_names_work_is_direction(text: str) -> None:
    assert classify_text(text, CFG) is None


@pytest.mark.parametrize("text", ["implement", "fix", "Apply.", "execute"])
def test_a_bare_carrying_out_verb_is_an_order_not_an_ack(text: str) -> None:
    assert classify_text(text, CFG) is None


@pytest.mark.parametrize(
    "text",
    [
        "按照你说的计划执行",  # "carry out the plan as you said"
        "就按你说的来吧",  # "let's go the way you said"
        "按你的建议办",  # "do as you suggest"
        "那你帮我弄一下",  # "then you do it for me"
    ],
)
def test_as_you_said_in_chinese_points_back(text: str) -> None:
    assert classify_text(text, CFG) is Silence.ACK
