"""Codex custom prompts: the person's words are their turn, the expanded template is injected.

`/prompts:…` and spec-kit's `/speckit.implement …` are stored as the whole expanded
template; what the person typed after the command sits in its `## User Input` block.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.readers.codex_prompts import custom_prompt
from surfaces import in_replayer, listed, through_cli

from .codex_builders import OUTLINE, Rollout, raw_template, template

QUOTED = "Why does the plan say\n## User Input\n```text\nT001\n```\nthere? It is empty for me."


def prompts_session(home: Path) -> Path:
    """Three custom prompts (words, unexpanded, no words) and a message that quotes one."""
    rollout = Rollout("2025-11-10T12:13:43", session_id="0199f1c2-7a10-7d3e-9b44-5c1d2e3f4a50")
    rollout.meta(version="0.46.0")
    rollout.environment()
    rollout.both(template("continue"))
    rollout.reply("Tasks T001-T003 are done; T004 needs the parser first.", "make test")
    rollout.both(raw_template())
    rollout.reply("The constitution is updated; nothing else changed.", "git status")
    rollout.both(template(""))
    rollout.reply("Implemented T004 and T005; all tests pass.", "make test")
    rollout.both(QUOTED)
    rollout.reply("Because the command was run without arguments.")
    return rollout.write(home)


async def test_a_custom_prompt_is_the_persons_words_and_an_injected_template(
    tmp_path: Path,
) -> None:
    path = prompts_session(tmp_path)
    cli = through_cli(path)
    # a custom prompt run with no words after the command is a command the person ran,
    # not an empty message: its template alone stands for it, injected
    assert cli.person == ["continue", QUOTED]
    injected = [
        "\n".join(p["text"] for p in turn["parts"] if p["kind"] == "text")
        for turn in cli.turns_by("injected")
    ]
    assert injected[1:] == [template("continue"), raw_template(), template("")]
    # the words come first, their template right after them, then the agent
    who = [turn["who"] for turn in cli.export["transcript"]]
    first = who.index("person")
    assert who[first : first + 3] == ["person", "injected", "agent"]
    # the environment; words, template, call and reply; twice a template, call and reply;
    # the last pair
    assert cli.scan["turns"] == cli.export["turns"] == len(who) == 1 + 4 + 2 * 3 + 2

    shown = await in_replayer(path)
    assert len(shown.turns) == len(who)
    words = shown.person[0].split("\n")
    if "no pivot here" in words[0]:  # the detector's verdict on the silence, above its header
        words = words[1:]
    assert "● You" in words[0] and words[1].strip("▏ ") == "continue"
    assert "Outline" not in "\n".join(shown.person)
    folded = shown.turns[first + 1]
    assert "○ injected" in folded.split("\n")[0]
    assert "## User Input" in folded and "more lines (Enter expands)" in folded
    assert "Use absolute paths only" not in folded

    rows = listed(tmp_path)
    assert [(row["turns"], row["human_turns"]) for row in rows] == [(len(who), 2)]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (template("T004, T005"), "T004, T005"),
        (template("fix the\nlogin page"), "fix the\nlogin page"),
        (template(""), ""),
        (raw_template(), ""),
        ("# Implement\n" + template("go"), "go"),
        (template("go").replace("```text", "~~~").replace("```", "~~~"), "go"),
    ],
    ids=["args", "two-lines", "empty", "unexpanded", "title", "tildes"],
)
def test_the_words_of_a_template(text: str, words: str) -> None:
    assert custom_prompt(text) == words


@pytest.mark.parametrize(
    "text",
    [
        QUOTED,
        "## User Input\n\n```text\ncontinue\n```\n\nthanks",  # no template after the block
        "Notes\n" * 6 + template("go"),  # the heading far down: a message, not a template
        "## User Input\n\n```text\nnever closed\n" + OUTLINE,
        "## User Input\n\ncontinue\n\n" + OUTLINE,  # no block under the heading
        "continue",
    ],
    ids=["quoted", "short", "far-down", "unclosed", "no-block", "plain"],
)
def test_text_that_is_no_template_is_left_whole(text: str) -> None:
    assert custom_prompt(text) is None


def windows(text: str) -> str:
    """A template saved with Windows line ends: the expansion keeps every `\r\n`."""
    return text.replace("\n", "\r\n")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (windows(template("Phase1")), "Phase1"),
        (windows(template("")), ""),
        (windows(template("fix the\nlogin page")), "fix the\nlogin page"),
    ],
    ids=["args", "empty", "two-lines"],
)
def test_a_template_with_windows_line_ends(text: str, words: str) -> None:
    assert custom_prompt(text) == words


def test_windows_line_ends_read_through_a_session(tmp_path: Path) -> None:
    """The words of a `\r\n` template are the person's turn; an empty one is a command."""
    rollout = Rollout("2025-11-20T06:45:40", session_id="019aa002-0000-7000-8000-0000000000c4")
    rollout.meta(version="0.58.0")
    rollout.environment()
    rollout.both(windows(template("Phase1")))
    rollout.reply("Phase 1 is done.", "make test")
    rollout.both(windows(template("")))
    rollout.reply("All open tasks are done.")
    rollout.both(windows("## User Input is where the words go\nright?"))  # no template
    rollout.reply("Yes.")
    cli = through_cli(rollout.write(tmp_path))
    assert cli.person == ["Phase1", "## User Input is where the words go\nright?"]
