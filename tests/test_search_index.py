"""The search index (issue 32): words, phrases and substrings in any script, ranking, the
update by the listing pass (only new, grown, shrunk or replaced files read again), a
damaged or foreign index rebuilt, two writers at once, private files, nothing beside the
sessions, base64 and long outputs kept out."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pivotal.catalog import discovery
from pivotal.catalog.search_index import SEARCH_DB, open_search_index
from pivotal.catalog.search_query import Filters, parse_query, search, snippet
from pivotal.catalog.search_text import COMMAND, OUTPUT, OUTPUT_HEAD, YOU
from search_homes import claude_session, copy_codex_sample, tree_state, write_claude

ROOT = Path(__file__).resolve().parents[1]

CHAT = [
    ("you", "The NCCL timeout is back: the all-reduce hangs after 600 s on rank 3."),
    ("agent", "I will raise NCCL_TIMEOUT and check the interface names."),
    ("bash", "export NCCL_SOCKET_IFNAME=eth0 && torchrun train.py", "rank 3: watchdog fired"),
    ("you", "连接超时了，请重试一下"),
    ("agent", "接続がタイムアウトしました。もう一度試します。"),
    ("you", "ok"),
]


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(folder))
    return folder


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    write_claude(home, "train", CHAT)
    write_claude(
        home,
        "docs",
        [
            ("you", "Write the release notes for 2.4"),
            ("agent", "Here are the notes; nothing about timeouts changed."),
            ("agent", "The timeout is fine; set rank 2 later."),  # every trigram of one, apart
        ],
    )
    return home


def refresh(home: Path) -> discovery.Progress:
    progress = discovery.Progress()
    discovery.refresh_index(discovery.located([home]), progress=progress)
    assert progress.searchable, progress.problem
    return progress


def find(text: str, **filters: object) -> list[tuple[str, int, int]]:
    """(session file name, turn index, who) of each hit, best first."""
    index = open_search_index()
    try:
        hits = search(index, parse_query(text), Filters(**filters), limit=50)  # type: ignore[arg-type]
    finally:
        index.close()
    return [(Path(h.session.path).stem, h.turn, h.who) for h in hits]


def test_words_phrases_and_substrings(home: Path, cache: Path) -> None:
    refresh(home)
    # two words anywhere in one text; a phrase only where it is whole
    assert ("train", 0, YOU) in find("timeout rank")
    assert find('"timeout rank"') == []  # its trigrams are all in the docs' turn #3, apart
    assert ("docs", 2, 2) in find("timeout rank")
    assert [h[:2] for h in find('"all-reduce hangs"')] == [("train", 0)]
    # any part of a word, any case
    assert ("train", 0, YOU) in find("eout")
    assert ("train", 2, COMMAND) in find("socket_ifname")
    assert ("train", 2, OUTPUT) in find("watchdog fired")
    assert find("nothing-like-this") == []


def test_chinese_and_japanese_substrings(home: Path, cache: Path) -> None:
    refresh(home)
    assert find("超时") == [("train", 3, YOU)]  # two characters: no trigram, read instead
    assert find("连接超时了") == [("train", 3, YOU)]
    assert find("タイムアウト") == [("train", 4, 2)]
    assert find("超时吗") == []
    assert find("超时 タイムアウト") == []  # both must be in one text


def test_your_words_and_commands_rank_before_long_outputs(tmp_path: Path, cache: Path) -> None:
    home = tmp_path / "home"
    long_output = "\n".join(f"line {n}: retrying the flaky upload" for n in range(300))
    write_claude(
        home,
        "ranked",
        [
            ("bash", "cat upload.log", long_output),
            ("agent", "The flaky upload retries three times before it gives up on the bucket."),
            ("bash", "pytest -k flaky", "1 passed"),
            ("you", "fix the flaky upload"),
        ],
    )
    refresh(home)
    order = [(turn, who) for _, turn, who in find("flaky")]
    assert order[0] == (3, YOU)
    assert order[1] == (2, COMMAND)
    assert order.index((1, 2)) < order.index((0, OUTPUT))  # the agent's words, then the output


def test_filters_agent_and_since(home: Path, cache: Path) -> None:
    copy_codex_sample(home)
    refresh(home)
    everywhere = {name for name, _, _ in find("the")}
    assert any(name.startswith("rollout-") for name in everywhere) and "train" in everywhere
    only_codex = {name for name, _, _ in find("the", agents=("codex",))}
    assert only_codex and all(name.startswith("rollout-") for name in only_codex)
    assert {name for name, _, _ in find("the", agents=("claude",))} <= {"train", "docs"}
    # the chat's turns are a minute apart from START: from the fourth on
    from search_homes import START

    late = find("NCCL", since=START + 2.5 * 60, agents=("claude",))
    assert late == [] and find("超时", since=START + 2.5 * 60) == [("train", 3, YOU)]
    assert find("NCCL", since=START - 60, agents=("claude",))  # before them: every turn counts


def test_a_grown_session_is_read_again_and_only_its_new_texts_written(
    home: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refresh(home)
    index = open_search_index()
    before = dict(index.conn.execute("SELECT turn * 10 + who, id FROM docs"))
    index.close()
    path = home / ".claude/projects/-home-dev-src-train/train.jsonl"
    grown = claude_session([*CHAT, ("you", "now try the gloo backend")], sid="train")
    path.write_bytes(grown)
    read: list[Path] = []
    real = discovery.describe

    def counting(path: Path, *args: object) -> object:
        read.append(path)
        return real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(discovery, "describe", counting)
    refresh(home)
    assert [p.name for p in read] == ["train.jsonl"]  # the other session is not read again
    assert find("gloo backend") == [("train", 6, YOU)]
    index = open_search_index()
    after = dict(index.conn.execute("SELECT turn * 10 + who, id FROM docs"))
    index.close()
    kept = {k: v for k, v in after.items() if k in before}
    assert kept == before  # the old turns' texts were not written again
    read.clear()
    refresh(home)
    assert read == []  # nothing changed: nothing read


def test_a_shrunk_or_replaced_session_loses_what_is_gone(home: Path, cache: Path) -> None:
    refresh(home)
    path = home / ".claude/projects/-home-dev-src-train/train.jsonl"
    path.write_bytes(claude_session(CHAT[:2], sid="train"))  # rewound: shorter
    refresh(home)
    assert find("watchdog") == [] and find("超时") == []
    assert ("train", 0, YOU) in find("all-reduce")
    replacement = path.with_name("new.tmp")
    replacement.write_bytes(claude_session([("you", "a different start: flash attention")]))
    os.replace(replacement, path)  # replaced whole, as an editor saves
    refresh(home)
    assert find("all-reduce") == [] and find("flash attention") == [("train", 0, YOU)]
    path.unlink()
    refresh(home)
    assert find("flash attention") == []


def test_base64_and_the_middle_of_long_outputs_stay_out(tmp_path: Path, cache: Path) -> None:
    home = tmp_path / "home"
    blob = "iVBORw0KGgoAAAANSUhEUgAA" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo" * 20
    middle = "x" * OUTPUT_HEAD + " needle-in-the-middle " + "y" * 30_000 + " tail-marker"
    write_claude(
        home,
        "blobs",
        [
            ("image", "what is wrong in this screenshot?", blob),
            ("bash", "base64 logo.png", f"head-of-output {blob} end-of-output"),
            ("bash", "cat big.log", middle),
        ],
    )
    refresh(home)
    assert find("screenshot") == [("blobs", 0, YOU)]
    assert find("end-of-output") == [("blobs", 1, OUTPUT)]
    assert find("VldYWVoQUJD") == []  # the base64 itself is not in the index
    assert find("needle-in-the-middle") == []
    assert find("tail-marker") == [("blobs", 2, OUTPUT)]


def test_the_index_is_private_and_nothing_is_written_beside_sessions(
    home: Path, cache: Path
) -> None:
    before = tree_state(home)
    refresh(home)
    refresh(home)
    assert tree_state(home) == before
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    files = sorted(cache.glob(f"{SEARCH_DB}*"))
    assert files and {f.name for f in files} >= {SEARCH_DB}
    for file in files:
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file


def test_a_damaged_index_is_set_aside_and_built_again(home: Path, cache: Path) -> None:
    refresh(home)
    for suffix in ("-wal", "-shm"):
        (cache / f"{SEARCH_DB}{suffix}").unlink(missing_ok=True)
    (cache / SEARCH_DB).write_bytes(b"\x00not a database" * 500)
    refresh(home)
    assert (cache / f"{SEARCH_DB}.corrupt").exists()
    assert find("超时") == [("train", 3, YOU)]


def test_damage_found_while_writing_is_set_aside_for_the_next_pass(home: Path, cache: Path) -> None:
    refresh(home)
    conn = sqlite3.connect(cache / SEARCH_DB)
    (page_size,) = conn.execute("PRAGMA page_size").fetchone()
    (root,) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'text_data'").fetchone()
    conn.close()  # the last connection: the WAL is checkpointed into the file and removed
    assert not (cache / f"{SEARCH_DB}-wal").exists()
    # the FTS table's own pages overwritten: the file opens, the index inside it is malformed
    with open(cache / SEARCH_DB, "r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\xff" * page_size)
    path = home / ".claude/projects/-home-dev-src-docs/docs.jsonl"
    path.write_bytes(claude_session([("you", "release notes, second try")], sid="docs"))
    progress = discovery.Progress()
    discovery.refresh_index(discovery.located([home]), progress=progress)
    assert not progress.searchable and "damaged" in progress.problem
    assert (cache / f"{SEARCH_DB}.corrupt").exists()
    refresh(home)  # the next pass builds it again from the sessions
    assert find("second try") == [("docs", 0, YOU)] and ("train", 3, YOU) in find("超时")


def test_an_index_another_version_wrote_is_emptied_and_filled_again(
    home: Path, cache: Path
) -> None:
    refresh(home)
    conn = sqlite3.connect(cache / SEARCH_DB)
    conn.execute("UPDATE meta SET value = 'written-by-another-version' WHERE name = 'code'")
    (session,) = conn.execute("SELECT id FROM sessions LIMIT 1").fetchone()
    conn.execute("INSERT INTO docs VALUES (999999, ?, 99, 0, NULL, 22, 0)", (session,))
    conn.execute("INSERT INTO text (rowid, body) VALUES (999999, 'stale text from before')")
    conn.commit()
    conn.close()
    refresh(home)  # its files look fresh: only the version says the texts must go
    assert find("stale text from before") == []
    assert find("超时") == [("train", 3, YOU)]


def test_sessions_counted_before_search_existed_are_read_for_their_text(
    home: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pivotal.catalog.search_index import SearchUnavailable

    def unavailable() -> None:
        raise SearchUnavailable("not yet")

    with monkeypatch.context() as patch:  # a listing by a pivotal without the search index
        patch.setattr(discovery, "open_search_index", unavailable)
        listed = discovery.discover_sessions([home])
    assert listed and all(ref.turns for ref in listed)
    refresh(home)
    assert find("超时") == [("train", 3, YOU)]  # the counts were cached, the text was not


TWO_WRITERS = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from pivotal.catalog import discovery
    progress = discovery.Progress()
    discovery.refresh_index(discovery.located([Path(sys.argv[1])]), progress=progress)
    print(progress.searchable, progress.problem)
    """
)


def test_two_processes_indexing_at_once_leave_one_sound_index(tmp_path: Path, cache: Path) -> None:
    home = tmp_path / "home"
    for n in range(30):
        write_claude(home, f"s{n:02d}", [("you", f"session {n} asks about the cache"), *CHAT])
    env = dict(os.environ, PIVOTAL_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT / "src"))
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", TWO_WRITERS, str(home)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0 and err == b"", err
        assert out.split()[0] == b"True", out
    conn = sqlite3.connect(cache / SEARCH_DB)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.execute("INSERT INTO text (text) VALUES ('integrity-check')")  # raises when damaged
    twice = conn.execute(
        "SELECT COUNT(*) FROM (SELECT session, turn, who FROM docs"
        " GROUP BY session, turn, who HAVING COUNT(*) > 1)"
    ).fetchone()[0]
    assert twice == 0
    (texts,) = conn.execute("SELECT COUNT(*) FROM docs").fetchone()
    (indexed,) = conn.execute("SELECT COUNT(*) FROM text").fetchone()
    conn.close()
    assert texts == indexed == 30 * (len(CHAT) + 2)  # every turn once (the bash turn has two)
    assert len(find("asks about the cache")) == 30


def test_the_snippet_marks_matches_on_one_clean_line() -> None:
    body = "first line\n\x1b]0;owned\x07 then the NCCL\ttimeout again " + "z" * 300
    snip = snippet(body, parse_query("nccl timeout").pattern, width=60)
    assert "\n" not in snip.text and "\x1b" not in snip.text and "\x07" not in snip.text
    marked = [snip.text[s:e] for s, e in snip.spans]
    assert marked == ["NCCL", "timeout"]
    assert snip.text.endswith("…") and len(snip.text) <= 62


WIDE_BEFORE = "日志里反复出现连接被重置的错误，" * 6
"""16 characters, 31 cells, a sentence: wide text before the match."""
WIDE_AFTER = "之后服务又自动恢复了正常。" * 6


@pytest.mark.parametrize("width", [24, 40, 100])
@pytest.mark.parametrize(
    ("body", "term"),
    [
        (WIDE_BEFORE + "握手超时" + WIDE_AFTER, "握手超时"),  # the match mid-text
        (WIDE_BEFORE * 3 + "握手超时", "握手超时"),  # at the very end
        ("✅ 🚀 shipped 🎉 " * 12 + "rollback 😱 " + "🔥" * 80, "rollback"),  # emoji
        ("a plain ascii line about the deploy " * 8 + "rollback " + "x" * 200, "rollback"),
    ],
    ids=["chinese", "chinese-at-end", "emoji", "ascii"],
)
def test_the_snippet_fits_its_width_in_cells_with_the_match_in_view(
    body: str, term: str, width: int
) -> None:
    """Cut in cells: a Chinese or emoji text (two cells a character) took twice its width,
    and a match near its end was pushed past the width by the text before it."""
    from pivotal.text.fit import cells

    snip = snippet(body, parse_query(term).pattern, width=width)
    assert cells(snip.text) <= width, snip
    assert cells(snip.text) >= width - 1, snip  # the room used (a wide character may not fit)
    assert [snip.text[s:e] for s, e in snip.spans][:1] == [term], snip
    start, end = snip.spans[0]
    if snip.text.endswith("…"):  # a third of the room before the match
        assert cells(snip.text[:start]) <= width // 3 and cells(snip.text[:end]) < width, snip
    else:  # the line's end in view: the room filled from it
        assert body.endswith(snip.text[-8:]) and snip.text.startswith("…"), snip
