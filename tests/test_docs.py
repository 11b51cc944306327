"""The README stays a five-minute read that tells the truth about the app (issue 35.14).

It is held to its size, every link in it and in the documents it points to must lead
somewhere (a file, and a heading when the link names one), and its two tables of what
the app offers — the commands block and the keys table — are checked against the code
they describe: every command's options as its parser defines them, every key of the
replayer's key map. A new option or key that the README does not mention fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pivotal.cli.commands import COMMANDS, HELP_OPTIONS, command_parser
from pivotal.tui.keys import HELP_GROUPS

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
DOCUMENTS = [README, REPO / "bench" / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LIMIT = 15_000
"""Bytes: what a newcomer reads in five minutes (the rest lives in docs/)."""

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def section(text: str, heading: str) -> str:
    """The text under `## heading`, up to the next heading of that level."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, flags=re.M)}


def links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)  # a link inside a code span is not a link
    return LINK.findall(text)


def test_the_readme_is_a_five_minute_read() -> None:
    assert len(README.read_bytes()) <= LIMIT


def test_the_readme_links_every_document() -> None:
    linked = {
        (README.parent / target.split("#")[0]).resolve()
        for target in links(README)
        if "://" not in target
    }
    missing = [str(d.relative_to(REPO)) for d in DOCUMENTS[1:] if d.resolve() not in linked]
    assert not missing, f"README.md links none of {missing}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_link_leads_somewhere(document: Path) -> None:
    broken = []
    for target in links(document):
        if "://" in target or target.startswith("mailto:"):
            continue  # the tests have no network
        file_part, _, anchor = target.partition("#")
        path = (document.parent / file_part).resolve() if file_part else document
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            broken.append(f"{target}: no heading #{anchor} in {path.name}")
    assert not broken, f"{document.relative_to(REPO)}: {broken}"


def command_lines() -> dict[str, str]:
    """The README's commands block: each command's line, by command name."""
    block = FENCE.search(section(README.read_text(encoding="utf-8"), "Commands"))
    assert block is not None, "the Commands section has no code block"
    lines = {}
    for line in block.group(0).splitlines():
        words = line.split()
        if len(words) > 1 and words[0] == "pivotal" and words[1] in COMMANDS:
            lines[words[1]] = line
    return lines


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_commands_block_names_every_option_of_each_command(name: str) -> None:
    line = command_lines().get(name)
    assert line is not None, f"no `pivotal {name}` line in the README's commands block"
    parser = command_parser(name)
    missing = []
    for action in parser._actions:
        options = [o for o in action.option_strings if o not in HELP_OPTIONS]
        if options and not any(
            re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", line) for o in options
        ):
            missing.append("/".join(options))
    assert not missing, f"`pivotal {name}` in the README lacks {missing}"


def key_tokens() -> set[str]:
    """Every key the README's keys table names, as separate tokens."""
    table = section(README.read_text(encoding="utf-8"), "Keys (the replayer)")
    tokens: set[str] = set()
    for row in table.splitlines():
        if not row.startswith("| ") or row.startswith("| key") or row.startswith("|---"):
            continue
        cell = row[2:].split(" | ")[0].replace("`` ` ``", " GRAVE ").replace("`", "")
        for token in cell.split():
            tokens.add(token.strip("(),") if len(token) > 1 else token)
    return tokens


def test_the_keys_table_names_every_key_of_the_key_map() -> None:
    documented = key_tokens()
    missing = []
    for _, rows in HELP_GROUPS:
        for label, description in rows:
            for token in label.split():
                if (token if token != "`" else "GRAVE") not in documented:
                    missing.append(f"{token} ({description})")
    assert not missing, f"the README's keys table lacks {missing}"
