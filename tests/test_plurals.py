"""One of a thing is one thing (issue 35: 11): "1 pivots" and "1 delegations" in the
exports, the cast and stats read as a bug. One session with one pivot, a delegation
after a dead end, through every surface that counts."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from cli_helpers import invoke

ROOT = Path(__file__).resolve().parents[1]
ONE = ROOT / "sample_sessions" / "claude" / "seed_dead_end.jsonl"
"""One pivot, a delegation after a dead end."""
WRONG = re.compile(r"(?<![-\d.])1 (pivots|delegations|sessions|turns|runs|calls|silent pivots)\b")


def test_stats_says_one_session_one_pivot_one_delegation_one_run() -> None:
    out = invoke("stats", ONE).stdout
    assert "1 session (0 unreadable)" in out and "1 silent pivot in 1 session" in out
    assert "(1 delegation)" in out and " in 1 run " in out
    assert not WRONG.search(out), WRONG.findall(out)


def test_the_cast_and_the_export_line_say_one_pivot(tmp_path: Path) -> None:
    target = tmp_path / "one.cast"
    result = invoke("export", ONE, "--to", "cast", "-o", target)
    assert "cast, 1 pivot)" in result.stderr and not WRONG.search(result.stderr)
    frames = [json.loads(line) for line in target.read_text().splitlines()[1:]]
    intro = frames[0][2]
    assert "· 1 pivot" in intro and not WRONG.search(intro)


def test_markdown_and_html_never_say_one_pivots() -> None:
    for kind in ("md", "html"):
        out = invoke("export", ONE, "--to", kind).stdout
        assert not WRONG.search(out), (kind, WRONG.findall(out))


def test_scan_header_of_a_one_turn_session(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from tail.claude_lines import ClaudeStream

    path = tmp_path / "5e55104c.jsonl"
    path.write_bytes(ClaudeStream().human("Only this."))
    out = invoke("scan", path).stdout
    assert "(claude-code, 1 turn, id" in out


SRC = ROOT / "src" / "pivotal"
DEMO = SRC / "_demo" / "demo.jsonl"
AIDER = ROOT / "tests" / "fixtures" / "realclients" / "aider-short"
MAYBE = re.compile(r"[A-Za-z]\(s\)")
"""'call(s)', 'attempt(s)': a count that did not decide between one and many."""
ONE_MANY = re.compile(
    r"(?<![-\d.,])1 (more )?(lines|characters|turns|calls|tool calls|failed attempts|"
    r"new items|steps|messages|history chunks)\b"
)


def _said(tree: ast.AST) -> list[tuple[int, str]]:
    """The literal text of every string and f-string in a module that is not a docstring
    (a bare string statement): what can reach the person."""
    bare = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    bare |= {
        id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values
    }
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in bare:
            continue
        if isinstance(node, ast.JoinedStr):
            pieces = [v.value for v in node.values if isinstance(v, ast.Constant)]
            out.append((node.lineno, "{}".join(str(p) for p in pieces)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append((node.lineno, node.value))
    return out


def test_no_text_in_the_source_says_one_or_many_with_s_in_brackets() -> None:
    """'9 tool call(s)', '2 failed attempt(s)' in the panel, --explain and the exports (the
    newcomer audit): every count says 'call' or 'calls' (`pivotal.text.plural`)."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in sorted(SRC.rglob("*.py"))
        for line, text in _said(ast.parse(path.read_text(encoding="utf-8")))
        if MAYBE.search(text)
    ]
    assert not found, "\n".join(found)


def test_the_demo_explained_and_exported_says_each_count_once() -> None:
    """`scan --explain` and the Markdown export of the demo: no '(s)', no '1 calls'."""
    for out in (
        invoke("scan", "--explain", DEMO).stdout,
        invoke("export", DEMO, "--to", "md").stdout,
    ):
        assert not MAYBE.search(out), MAYBE.findall(out)
        assert not ONE_MANY.search(out), ONE_MANY.findall(out)


def test_one_more_line_is_one_line() -> None:
    """aider's four-line notices fold to three: '… 1 more line (Enter expands)', never
    '1 more lines'; a cut of one character says one character."""
    from rich.console import Console

    from pivotal.readers import find_sessions, read_session
    from pivotal.text.safe import truncation_marker
    from pivotal.tui.render import Palette, TurnLook, more_note, render_turn

    session = read_session(find_sessions([AIDER]).refs[0])
    console, look, palette = Console(width=120), TurnLook(width=120), Palette()
    shown = "\n".join(
        strip.text
        for turn in session.turns
        for strip in render_turn(turn, look, palette, console).strips
    )
    assert "… 1 more line (Enter expands)" in shown
    assert not ONE_MANY.search(shown), ONE_MANY.findall(shown)
    assert more_note(1, "character", palette).plain == "… 1 more character (Enter expands)"
    assert more_note(2, "line", palette).plain == "… 2 more lines (Enter expands)"
    assert truncation_marker(1) == "… (1 more character)"
    assert truncation_marker(1_200) == "… (1,200 more characters)"
