"""`scan` and `sessions` fit the terminal's width, and print whole lines to a pipe (issue 35:
10): at 80 columns no row was to wrap mid-word, as the terminal wraps what is too long."""

from __future__ import annotations

import io
import os
import re
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from pivotal.cli import run
from pivotal.text.fit import cells, wrap

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_sessions" / "claude"
SCANNED = [SAMPLES / "demo.jsonl", SAMPLES / "seed_dead_end.jsonl", SAMPLES / "go_ahead_plan.jsonl"]


class Terminal(io.StringIO):
    """Standard output as a terminal would be (its width comes from $COLUMNS)."""

    def isatty(self) -> bool:
        return True


def pivotal(*args: object, tty: bool) -> str:
    out = Terminal() if tty else io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        code = run([os.fspath(a) for a in args])  # type: ignore[arg-type]
    assert code == 0
    return out.getvalue()


def words(text: str) -> list[str]:
    """The words of `text`, whatever broke its lines (a row's continuation is indented); a
    narrow table's sentences go under their rows, without a column header."""
    return [word for word in text.split() if word not in ("WHAT", "HAPPENED")]


def long_lines(text: str, width: int) -> list[str]:
    """Lines wider than `width`, but a line that is one path, which is printed whole."""
    return [
        line
        for line in text.splitlines()
        if cells(line) > width and " " in line.strip() and not line.startswith(str(ROOT))
    ]


@pytest.mark.parametrize("width", [80, 160])
@pytest.mark.parametrize("explain", [False, True])
def test_scan_fits_the_terminal(monkeypatch: pytest.MonkeyPatch, width: int, explain: bool) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    flags = ["--explain"] if explain else []
    fitted = pivotal("scan", *flags, *SCANNED, tty=True)
    piped = pivotal("scan", *flags, *SCANNED, tty=False)
    assert not long_lines(fitted, width), long_lines(fitted, width)
    assert "".join(words(fitted)) == "".join(words(piped)), "everything is printed"
    whole, long = set(words(piped)), [w for w in words(piped) if cells(w) > width // 2]
    for word in words(fitted):  # only a word no row can hold comes in pieces
        assert word in whole or any(word in w for w in long), word
    assert long_lines(piped, width), "piped, the lines are whole"


def test_scan_piped_gives_the_whole_sentence_of_each_pivot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    piped = pivotal("scan", SAMPLES / "demo.jsonl", tty=False)
    rows = [line for line in piped.splitlines() if re.match(r"  (◇ )?#\d+ ", line)]
    assert len(rows) == 3  # the demo's three labelled pivots (a pivot or just under the bar)
    ends = ("calls).", "call).", "to its to-do list).")  # the count closes the sentence
    assert all(row.endswith(ends) for row in rows), rows  # not cut at 110


def test_a_narrow_table_puts_the_sentence_under_its_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    fitted = pivotal("scan", SAMPLES / "seed_dead_end.jsonl", tty=True).splitlines()
    head = next(n for n, line in enumerate(fitted) if line.startswith("  TURN"))
    assert fitted[head].split() == ["TURN", "TIME", "KIND", "SILENCE", "CONF"]
    # the row ends at its confidence (whatever the fitted weights make it)
    assert fitted[head + 1].startswith("  #90 ") and re.search(
        r" ack +[01]\.\d\d$", fitted[head + 1]
    )
    assert fitted[head + 2].startswith("        You said")


def home_with_sessions(tmp_path: Path) -> Path:
    project = tmp_path / ".claude" / "projects" / "-home-dev-src-a-rather-long-project-name-here"
    project.mkdir(parents=True)
    shutil.copy2(SAMPLES / "demo.jsonl", project / "3f1b5c2e-8d4a-4c3e-9b1a-2f6e7d8c9a0b.jsonl")
    codex = tmp_path / ".codex" / "sessions" / "2026" / "11" / "02"
    codex.mkdir(parents=True)
    shutil.copy2(
        ROOT / "sample_sessions" / "codex" / "seed_dead_end.jsonl",
        codex / "rollout-2026-11-02T08-40-00-01a19b6a.jsonl",
    )
    return tmp_path


@pytest.mark.parametrize("width", [80, 160])
def test_sessions_fits_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    home = home_with_sessions(tmp_path)
    monkeypatch.setenv("COLUMNS", str(width))
    fitted = pivotal("sessions", "--root", home, tty=True).splitlines()
    piped = pivotal("sessions", "--root", home, tty=False).splitlines()
    assert len(piped) == 3 and piped[0].split()[-1] == "PATH"
    for line in fitted:
        path = line.strip()
        if path.startswith(str(home)):
            assert line == f"    {path}" and Path(path).is_file()  # whole, on a line of its own
        else:
            assert cells(line) <= width, line
    assert len(fitted) == 5 and "PATH" not in fitted[0]


def test_sessions_keeps_the_end_of_a_long_project(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pivotal.cli.listing import print_sessions
    from pivotal.model import SessionRef

    ref = SessionRef(
        "claude-code",
        Path("/s.jsonl"),
        cwd="/home/dev/src/clients/acme/backend/services/invoice-api",
        turns=3,
        pivots=0,
    )
    out = io.StringIO()
    print_sessions([ref], as_json=False, out=out, width=80)
    row = out.getvalue().splitlines()[1]
    assert "…" in row and "invoice-api" in row and cells(row) <= 80
    long = SessionRef("claude-code", Path("/s.jsonl"), cwd="/home/dev/" + "deep/" * 12 + "billing")
    piped = io.StringIO()  # no terminal: the same end kept, never a "(N more characters)"
    print_sessions([long], as_json=False, out=piped)
    row = piped.getvalue().splitlines()[1]
    assert "…" in row and "deep/billing" in row and "more characters" not in row


@pytest.mark.parametrize("width", [80, 160])
def test_sessions_lines_up_a_korean_project(width: int) -> None:
    """Already in cells before the picker and `stats` were (the helper they now share)."""
    import time

    from pivotal.cli.listing import print_sessions
    from pivotal.model import SessionRef

    hours_ago = time.time() - 2.5 * 3600
    refs = [
        SessionRef("codex", Path("/s/a.jsonl"), cwd="/home/ana/work/shop-api", started=hours_ago),
        SessionRef(
            "claude-code",
            Path("/s/b.jsonl"),
            cwd="/Users/mina/Desktop/16. 자동화 도구/safeAutoTest/" + "하위 폴더 " * 5,
            started=hours_ago,
        ),
    ]
    out = io.StringIO()
    print_sessions(refs, as_json=False, out=out, width=width)
    rows = [row for row in out.getvalue().splitlines() if not row.startswith("    /s/")]
    at = [
        cells(row[: row.index(word)])
        for row, word in zip(rows, ["STARTED", "2h", "2h"], strict=True)
    ]
    assert at == [at[0]] * 3 and all(cells(row) <= width for row in rows), rows
    assert "…" in rows[2] and "하위 폴더" in rows[2]


@pytest.mark.parametrize(
    ("line", "width", "rows"),
    [
        ("short", 80, ["short"]),
        ("  one two three four", 12, ["  one two", "      three", "      four"]),
        ("a  b  c", 4, ["a  b", "c"]),  # runs of spaces kept inside a row
        ("/a/very/long/path/file.jsonl  (x)", 10, ["/a/very/long/path/file.jsonl", "    (x)"]),
        ('  "Edit: /aa/bb/cc/dd"', 14, ['  "Edit:', "      /aa/bb/", '      cc/dd"']),
        ("日本語 日本語 日本語", 10, ["日本語", "    日本語", "    日本語"]),
    ],
)
def test_wrap(line: str, width: int, rows: list[str]) -> None:
    assert wrap(line, width) == rows


def _whole_paths(lines: list[str], home: Path) -> list[str]:
    """The lines that are a session's path under its row: whole, never cut (a person copies
    them; the terminal wraps them)."""
    paths = [line[4:] for line in lines if line.startswith(f"    {home}")]
    assert all(Path(path).is_file() for path in paths), paths
    return paths


@pytest.mark.parametrize("width", [80, 160])
def test_search_fits_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    """`pivotal search` at 80 columns wrapped its header and every hit over four lines (the
    daily-use audit): on a terminal the session goes under its row, whole, the snippet takes
    the room the columns leave, or a line of its own under the row when that is too little."""
    home = home_with_sessions(tmp_path)
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("NO_COLOR", "1")  # the matches marked « », which take cells too
    query = ("search", "speculative decoding", "--root", home)
    fitted = pivotal(*query, tty=True).splitlines()
    piped = pivotal(*query, tty=False).splitlines()
    hits = len(piped) - 1
    assert hits >= 1 and piped[0].split()[-2:] == ["SNIPPET", "SESSION"]
    assert all(line.endswith(".jsonl") for line in piped[1:]), "piped, each hit is one line"
    paths = _whole_paths(fitted, home)
    assert len(paths) == hits and all(path in "".join(piped) for path in paths)
    assert [line for line in fitted if cells(line) > width and line[4:] not in paths] == []
    assert fitted[0].split()[:5] == ["AGENT", "PROJECT", "TIME", "TURN", "WHO"]
    assert "SESSION" not in fitted[0]
    snippets = [line for line in fitted if "«" in line]
    assert len(snippets) == hits
    under = width == 80  # 80 columns leave a snippet too little room beside its row
    assert all(line.startswith("    ") == under for line in snippets), snippets
    assert ("SNIPPET" in fitted[0]) != under


def test_a_search_snippet_takes_the_room_the_columns_leave() -> None:
    """Up to its 100 cells; a terminal wide enough for the session too keeps it in its row."""
    from pivotal.catalog.search_index import SessionRow
    from pivotal.catalog.search_query import Hit, parse_query
    from pivotal.cli.search_output import print_hits

    row = SessionRow(1, "/s/1.jsonl", None, "codex", None, None, "/home/ana/work/shop", None, None)
    body = "retry " * 10 + "the fetch twice, then " + "give up " * 30

    def shown(width: int) -> list[str]:
        out = io.StringIO()
        hit = Hit(row, 0, 0, 0.0, 1.0, body)
        print_hits([hit], parse_query("fetch"), as_json=False, out=out, width=width)
        return out.getvalue().splitlines()

    for width in (120, 140):
        head, line, session = shown(width)
        assert cells(line) == width and "«fetch»" in line and session == "    /s/1.jsonl", line
    head, line = shown(200)
    assert head.split()[-1] == "SESSION" and line.endswith("…  /s/1.jsonl") and cells(line) < 200


@pytest.mark.parametrize("width", [80, 160])
def test_stats_fits_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    """`pivotal stats` ignored the terminal: at 80 columns every row wrapped (the audit). On
    a terminal the project and the run turns shrink, and where that is not enough each
    session's name goes on a line of its own under its row; piped, every line is whole."""
    home = home_with_sessions(tmp_path)
    monkeypatch.setenv("COLUMNS", str(width))
    fitted = pivotal("stats", "--root", home, tty=True).splitlines()
    piped = pivotal("stats", "--root", home, tty=False).splitlines()
    assert [line for line in fitted if cells(line) > width] == []
    assert long_lines("\n".join(piped), 80), "piped, the lines are whole"
    end = piped.index("")
    names = [line.split("  ")[0] for line in piped[1:end]]
    assert len(names) == 2 and piped[0].startswith("SESSION")
    if width == 80:
        assert fitted[0].startswith("PROJECT") and "SESSION" not in fitted[0]
        assert [fitted[n] for n in (2, 4)] == [f"    {name}" for name in names]
    else:
        assert fitted[:end] == [line.rstrip() for line in piped[:end]]
    totals = fitted[fitted.index("") :]
    assert words(" ".join(totals)) == words(" ".join(piped[end:]))  # wrapped, all there


def test_stats_on_a_narrow_terminal_drops_the_token_figure_first() -> None:
    from pivotal.catalog.stats import PivotRun, SessionStats, stats_table

    run = PivotRun(3, "implicit_approval", "ack", 0.8, 12, 4.0, "person", 0, 0, 0)
    stats = [
        SessionStats(
            label="a.jsonl",
            format="codex",
            path=f"/s/{name}.jsonl",
            cwd="/home/dev/src/clients/acme/backend/invoice-api",
            turns=40,
            tokens=45_500_000,
            pivots=[run] * 6,
        )
        for name in ("a", "b")
    ]
    piped = stats_table(stats).splitlines()
    assert piped[1].endswith("no price · 45.5M tokens")
    whole = cells(piped[1])
    narrower = stats_table(stats, whole - 1).splitlines()
    assert narrower[1].endswith("no price") and "invoice-api" in narrower[1]
    assert cells(narrower[1]) < whole
