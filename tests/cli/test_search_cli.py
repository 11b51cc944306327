"""`pivotal search` (issue 32): one hit per line, best first, --json's schema, filters,
--redact on snippets, PATHs and PATH#KEY, the exit codes of `scan`, and search without
an index when SQLite cannot hold one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_helpers import invoke
from search_homes import SAMPLES, START, copy_codex_sample, write_claude

SECRET = "sk-ant-api03-" + "Q7vX2mP9kL4nR8sT1wY6zB3cD5fG0hJ" + "AA"
CHAT = [
    ("you", "The NCCL timeout is back: the all-reduce hangs after 600 s on rank 3."),
    ("agent", "I will raise NCCL_TIMEOUT and check the interface names."),
    ("bash", f"ANTHROPIC_API_KEY={SECRET} python probe_nccl.py", "NCCL timeout after 600 s"),
    ("you", "连接超时了，请重试一下"),
]
JSON_KEYS = {
    "rank": int,
    "agent": str,
    "path": str,
    "key": (str, type(None)),
    "session": str,
    "session_id": (str, type(None)),
    "title": (str, type(None)),
    "cwd": (str, type(None)),
    "turn": int,
    "time": (str, type(None)),
    "who": str,
    "what": str,
    "snippet": str,
    "matches": list,
    "score": float,
    "subagent": (dict, type(None)),
}


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    home = tmp_path / "home"
    write_claude(home, "train", CHAT)
    write_claude(home, "docs", [("you", "Write the release notes"), ("agent", "Done.")])
    return home


def test_hits_print_one_per_line_best_first_with_the_match_marked(home: Path) -> None:
    result = invoke("search", "nccl timeout", "--root", home)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split()[:7] == ["AGENT", "PROJECT", "TIME", "TURN", "WHO", "SNIPPET", "SESSION"]
    first = lines[1]
    assert first.split()[:5] == ["claude-code", "src/train", "2026-10-26", "07:33", "#1"]
    assert " you " in first and "«NCCL» «timeout»" in first and first.endswith("train.jsonl")
    whos = [line.split()[5] for line in lines[1:]]
    assert whos[0] == "you" and whos[-1] in ("tool", "agent")  # your words first
    assert len(lines) == 4  # the person's, the command's (its output, same turn), the agent's


def test_json_lines_have_the_documented_schema(home: Path) -> None:
    result = invoke("search", '"nccl timeout"', "--root", home, "--json")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows and [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    for row in rows:
        assert set(row) == set(JSON_KEYS)
        for key, kind in JSON_KEYS.items():
            assert isinstance(row[key], kind), (key, row[key])
        for start, end in row["matches"]:
            assert row["snippet"][start:end].lower() == "nccl timeout"
    assert rows[0]["who"] == "you" and rows[0]["turn"] == 1
    assert rows[0]["time"] == "2026-10-26T07:33:20Z" and rows[0]["cwd"] == "/home/dev/src/train"
    assert {r["who"] for r in rows} <= {"you", "agent", "command", "tool_output"}


def test_cjk_substrings_from_the_command_line(home: Path) -> None:
    for query in ("超时", "连接超时了"):
        rows = [
            json.loads(x)
            for x in invoke("search", query, "--root", home, "--json").stdout.split("\n")
            if x
        ]
        assert [(r["turn"], r["who"]) for r in rows] == [(4, "you")], query
        assert rows[0]["snippet"][slice(*rows[0]["matches"][0])] == query


def test_agent_since_and_limit(home: Path) -> None:
    copy_codex_sample(home)
    both = invoke("search", "the", "--root", home, "--json", "--limit", "200").stdout
    agents = {json.loads(x)["agent"] for x in both.splitlines()}
    assert agents == {"claude-code", "codex"}
    codex = invoke("search", "the", "--root", home, "--json", "--agent", "codex").stdout
    assert {json.loads(x)["agent"] for x in codex.splitlines()} == {"codex"}
    assert len(codex.splitlines()) == 20  # the default limit
    three = invoke("search", "the", "--root", home, "--limit", "3").stdout.splitlines()
    assert len(three) == 4  # a header and three hits
    later = invoke(
        "search", "nccl", "--root", home, "--agent", "claude", "--since", "2026-10-26T07:35:30"
    )
    assert later.exit_code == 0 and later.stdout == "" and "no match" in later.stderr
    ages = invoke(
        "search", "nccl", "--root", home, "--agent", "claude", "--since", "3650d", "--json"
    )
    assert len(ages.stdout.splitlines()) == 3


def test_redact_masks_secrets_in_snippets(home: Path) -> None:
    plain = invoke("search", "probe_nccl", "--root", home).stdout
    assert SECRET in plain
    masked = invoke("search", "probe_nccl", "--root", home, "--redact")
    assert masked.exit_code == 0 and SECRET not in masked.stdout
    assert "[REDACTED:" in masked.stdout and "«probe_nccl»" in masked.stdout
    rows = invoke("search", "probe_nccl", "--root", home, "--redact", "--json").stdout
    row = json.loads(rows.splitlines()[0])
    assert SECRET not in rows and row["snippet"][slice(*row["matches"][0])] == "probe_nccl"
    assert row["cwd"] == "/home/dev/src/train" or "dev" not in row["cwd"]  # a home path masked


def test_paths_and_path_key_narrow_the_search(home: Path, tmp_path: Path) -> None:
    train = home / ".claude/projects/-home-dev-src-train/train.jsonl"
    docs = home / ".claude/projects/-home-dev-src-docs/docs.jsonl"
    assert invoke("search", "release", train).stdout == ""
    rows = invoke("search", "release", docs, "--json").stdout.splitlines()
    assert len(rows) == 1 and json.loads(rows[0])["path"] == str(docs)
    store = tmp_path / "store"
    store.mkdir()
    shutil.copy(SAMPLES / "opencode" / "seed_milestone" / "opencode.db", store / "opencode.db")
    every = [
        json.loads(x)
        for x in invoke("search", "the", store / "opencode.db", "--json").stdout.splitlines()
    ]
    key = every[0]["key"]
    assert key and every[0]["session"] == f"{store / 'opencode.db'}#{key}"
    one = invoke("search", "the", f"{store / 'opencode.db'}#{key}", "--json").stdout.splitlines()
    assert one and {json.loads(x)["key"] for x in one} == {key}


def test_exit_codes_are_scans(home: Path, tmp_path: Path) -> None:
    assert invoke("search", "nccl", "--root", home).exit_code == 0
    nothing = invoke("search", "no-such-words-anywhere", "--root", home)
    assert nothing.exit_code == 0 and nothing.stdout == "" and "no match" in nothing.stderr
    missing = invoke("search", "nccl", "--root", tmp_path / "nowhere")
    assert missing.exit_code == 4 and "no such file or directory" in missing.stderr
    empty = tmp_path / "empty-home"
    empty.mkdir()
    none = invoke("search", "nccl", "--root", empty)
    assert none.exit_code == 3 and "no agent sessions found" in none.stderr
    blank = invoke("search", "  ", "--root", home)
    assert blank.exit_code == 2 and "nothing to search for" in blank.stderr
    bad = invoke("search", "nccl", "--root", home, "--since", "last tuesday")
    assert bad.exit_code == 2 and "--since" in bad.stderr
    store = home / ".local/share/opencode"
    store.mkdir(parents=True)
    (store / "opencode.db").write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    damaged = invoke("search", "nccl", "--root", home)
    assert damaged.exit_code == 5 and "opencode.db" in damaged.stderr
    assert "«NCCL»" in damaged.stdout  # the rest is still searched
    assert invoke("search", "nccl", tmp_path / "no-such-file.jsonl").exit_code == 4


def test_without_fts5_every_session_is_read_instead(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pivotal.catalog import search_index

    monkeypatch.setattr(search_index, "MIN_SQLITE", (99, 0, 0))
    result = invoke("search", "超时", "--root", home, "--json")
    assert result.exit_code == 0, result.output
    assert (
        "searching needs 3.34 or later" in result.stderr
        and "reading every session" in result.stderr
    )
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert [(r["turn"], r["who"]) for r in rows] == [(4, "you")]
    ranked = [
        json.loads(x)["who"]
        for x in invoke("search", "nccl", "--root", home, "--json").stdout.splitlines()
    ]
    assert ranked[0] == "you"


def test_the_index_is_kept_in_the_cache_folder_only(home: Path, tmp_path: Path) -> None:
    from search_homes import tree_state

    before = tree_state(home)
    assert invoke("search", "nccl", "--root", home).exit_code == 0
    assert tree_state(home) == before
    assert sorted(p.name for p in (tmp_path / "cache").iterdir() if "search" in p.name)[0] == (
        "search.sqlite3"
    )
    assert START  # the sessions' clock (used by the table's times above)


def test_an_index_found_damaged_by_a_query_is_rebuilt_and_answers(
    home: Path, tmp_path: Path
) -> None:
    import sqlite3

    from pivotal.catalog.search_index import SEARCH_DB

    assert invoke("search", "nccl", "--root", home).exit_code == 0
    db = tmp_path / "cache" / SEARCH_DB
    conn = sqlite3.connect(db)
    (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'text_data'").fetchone()
    conn.close()
    with open(db, "r+b") as handle:  # the FTS index's pages: only a look-up finds it out
        handle.seek((root - 1) * page_size)
        handle.write(b"\xff" * page_size)
    result = invoke("search", "超时", "--root", home, "--json")
    assert result.exit_code == 0, result.output
    assert "damaged" in result.stderr and (tmp_path / "cache" / f"{SEARCH_DB}.corrupt").exists()
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert [(r["turn"], r["who"]) for r in rows] == [(4, "you")]


def test_no_copy_of_session_text_is_kept_when_asked(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pivotal.catalog.search_index import SEARCH_DB

    monkeypatch.setenv("PIVOTAL_NO_SEARCH_INDEX", "1")
    assert invoke("sessions", "--root", home).exit_code == 0  # a listing fills no index
    result = invoke("search", "超时", "--root", home, "--json")
    assert result.exit_code == 0 and "PIVOTAL_NO_SEARCH_INDEX is set" in result.stderr
    assert [json.loads(x)["turn"] for x in result.stdout.splitlines()] == [4]
    assert not list((tmp_path / "cache").glob(f"{SEARCH_DB}*"))


def test_wide_projects_and_snippets_keep_the_columns_in_line() -> None:
    """Counted in cells: a Korean project and a Chinese snippet (two cells a character) pushed
    the snippet and SESSION columns of their row out of line with the others."""
    import io

    from pivotal.catalog.search_index import SessionRow
    from pivotal.catalog.search_query import Hit, parse_query
    from pivotal.cli.search_output import print_hits
    from pivotal.text.fit import cells

    def hit(n: int, cwd: str, body: str) -> Hit:
        row = SessionRow(n, f"/s/{n}.jsonl", None, "codex", None, None, cwd, None, None)
        return Hit(row, 0, 0, 1_700_000_000.0, 1.0, body)

    hits = [
        hit(1, "/home/ana/work/shop-api", "retry the fetch twice"),
        hit(2, "/Users/mina/Desktop/16. 자동화 도구/safeAutoTest", "修复 fetch 的重试逻辑"),
        hit(3, "/home/ana/수업/과제", "fetch 한국어 설명"),
    ]
    out = io.StringIO()
    print_hits(hits, parse_query("fetch"), as_json=False, out=out)
    rows = out.getvalue().splitlines()
    assert len(rows) == 4
    when = [cells(row[: row.index("2023-11-14")]) for row in rows[1:]]
    session = [cells(row[: row.index("/s/")]) for row in rows[1:]]
    assert when == [when[0]] * 3 and session == [session[0]] * 3, rows
    assert cells(rows[0][: rows[0].index("TIME")]) == when[0]


def test_wide_snippets_fit_their_column_with_the_match_in_view() -> None:
    """Cut in cells: a Chinese snippet of 100 characters took 200 columns, and a match near
    the end of the text was pushed out of its column by the text before it."""
    import io

    from pivotal.catalog.search_index import SessionRow
    from pivotal.catalog.search_query import SNIPPET_WIDTH, Hit, parse_query
    from pivotal.cli.search_output import print_hits
    from pivotal.text.fit import cells

    bodies = [
        "我们先把数据库迁移脚本跑了一遍，然后检查了索引。" * 10 + "回滚 失败了",
        "🙂 looks good 👍 " * 20 + "回滚 worked ✅" + " 🎉" * 60,
    ]

    def hit(n: int, body: str) -> Hit:
        row = SessionRow(n, f"/s/{n}.jsonl", None, "codex", None, None, "/w", None, None)
        return Hit(row, 0, 0, 0.0, 1.0, body)

    hits = [hit(n, body) for n, body in enumerate(bodies)]
    out = io.StringIO()
    print_hits(hits, parse_query("回滚"), as_json=True, out=out)
    for line in out.getvalue().splitlines():
        shown = json.loads(line)
        text, [(start, end)] = shown["snippet"], shown["matches"]
        assert cells(text) <= SNIPPET_WIDTH and text[start:end] == "回滚", text
    out = io.StringIO()
    print_hits(hits, parse_query("回滚"), as_json=False, out=out)
    rows = out.getvalue().splitlines()[1:]
    for row in rows:
        snip = row[row.index(" you ") + len(" you ") :].strip()
        snip = snip[: snip.rindex("  /s/")].rstrip()
        assert "«回滚»" in snip and cells(snip) <= SNIPPET_WIDTH + 2, row  # + the two marks
