"""`discover_sessions` and `pivotal sessions` with the session index: right values, fast repeats."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from pivotal.catalog import discovery, workers
from pivotal.catalog.index import DB_NAME, open_index
from pivotal.catalog.search_index import SEARCH_DB
from pivotal.detect import PivotConfig, detect_pivots
from pivotal.model import SessionRef
from pivotal.readers import read_session

SAMPLES = Path(__file__).resolve().parents[1] / "sample_sessions"
CLAUDE_PROJECT = ".claude/projects/-home-dev-src-w"
SESSIONS = 14

# A Claude Code 2.1 session written by hand: prompt, tool call, tool result (not a
# turn: folded into the call), answer, "ok". Four turns, two of them human.
HAND = [
    {
        "parentUuid": None,
        "isSidechain": False,
        "type": "user",
        "message": {"role": "user", "content": "Why does the worker lose jobs on restart?"},
        "uuid": "u1",
        "timestamp": "2026-11-07T09:15:00.187Z",
        "userType": "external",
        "cwd": "/home/dev/src/w",
        "sessionId": "s-1",
        "version": "2.1.197",
        "gitBranch": "main",
    },
    {
        "parentUuid": "u1",
        "isSidechain": False,
        "message": {
            "id": "msg_a1",
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-4-8",
            "content": [
                {
                    "type": "tool_use",
                    "id": "toolu_1",
                    "name": "Bash",
                    "input": {"command": "grep -rn brpop worker"},
                }
            ],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 20, "output_tokens": 12},
        },
        "type": "assistant",
        "uuid": "a1",
        "timestamp": "2026-11-07T09:15:06.208Z",
        "cwd": "/home/dev/src/w",
        "sessionId": "s-1",
        "version": "2.1.197",
    },
    {
        "parentUuid": "a1",
        "isSidechain": False,
        "type": "user",
        "message": {
            "role": "user",
            "content": [
                {
                    "tool_use_id": "toolu_1",
                    "type": "tool_result",
                    "content": "worker/queue.py:12: job = r.brpop(key)",
                    "is_error": False,
                }
            ],
        },
        "uuid": "u2",
        "timestamp": "2026-11-07T09:15:07.000Z",
        "toolUseResult": {"stdout": "worker/queue.py:12: job = r.brpop(key)", "stderr": ""},
        "cwd": "/home/dev/src/w",
        "sessionId": "s-1",
        "version": "2.1.197",
    },
    {
        "parentUuid": "u2",
        "isSidechain": False,
        "message": {
            "id": "msg_a2",
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-4-8",
            "content": [{"type": "text", "text": "BRPOP removes the job before it is done."}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": 30, "output_tokens": 20},
        },
        "type": "assistant",
        "uuid": "a2",
        "timestamp": "2026-11-07T09:15:09.000Z",
        "cwd": "/home/dev/src/w",
        "sessionId": "s-1",
        "version": "2.1.197",
    },
    {
        "parentUuid": "a2",
        "isSidechain": False,
        "type": "user",
        "message": {"role": "user", "content": "ok"},
        "uuid": "u3",
        "timestamp": "2026-11-07T09:16:00.000Z",
        "userType": "external",
        "cwd": "/home/dev/src/w",
        "sessionId": "s-1",
        "version": "2.1.197",
    },
]


def lines(records: list[dict]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def make_home(root: Path) -> Path:
    """A home with sessions of every agent where each keeps them (copies of the samples)."""
    home = root / "home"
    claude = home / CLAUDE_PROJECT
    codex = home / ".codex/sessions/2026/11/07"
    gemini = home / ".gemini/tmp/proj/chats"
    opencode = home / ".local/share/opencode"
    for folder in (claude, codex, gemini, opencode):
        folder.mkdir(parents=True)
    (claude / "hand.jsonl").write_bytes(lines(HAND))
    for name in ("demo", "seed_milestone", "routine_acks"):
        shutil.copy2(SAMPLES / "claude" / f"{name}.jsonl", claude / f"{name}.jsonl")
        shutil.copy2(
            SAMPLES / "codex" / f"{name}.jsonl", codex / f"rollout-2026-11-07T09-00-00-{name}.jsonl"
        )
        shutil.copy2(SAMPLES / "gemini" / f"{name}.jsonl", gemini / f"session-{name}.jsonl")
    shutil.copy2(SAMPLES / "opencode" / "demo" / "opencode.db", opencode / "opencode.db")
    shutil.copy2(SAMPLES / "opencode" / "quiet_start" / "opencode.db", opencode / "opencode-b.db")
    history = b"".join(
        (SAMPLES / "aider" / f"{n}.aider.chat.history.md").read_bytes()
        for n in ("go_ahead_plan", "quiet_start")
    )
    (home / ".aider.chat.history.md").write_bytes(history)
    (claude / "not-a-session.jsonl").write_bytes(b"")
    return home


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return make_home(tmp_path)


class Reads:
    """Counts full reads (the expensive part a warm listing must skip)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.paths: list[Path] = []
        real = discovery.read_session

        def counting(ref: SessionRef):  # type: ignore[no-untyped-def]
            self.paths.append(ref.path)
            return real(ref)

        monkeypatch.setattr(discovery, "read_session", counting)


def by_label(refs: list[SessionRef]) -> dict[str, SessionRef]:
    labels = [r.label for r in refs]
    assert len(labels) == len(set(labels)), "a session is listed twice"
    return {r.label: r for r in refs}


def test_counts_are_those_of_a_full_read(home, cache):
    refs = discovery.discover_sessions([home])
    assert {r.format for r in refs} == {"claude-code", "codex", "gemini", "opencode", "aider"}
    assert len(refs) == 4 + 3 + 3 + 2 + 2 == SESSIONS
    for ref in refs:
        session = read_session(SessionRef(ref.format, ref.path, key=ref.key))
        assert ref.turns == len(session.turns), ref.label
        assert ref.human_turns == len(session.human_turns()), ref.label
        assert ref.pivots == len(detect_pivots(session.turns, PivotConfig())), ref.label


def test_a_hand_counted_session(home, cache):
    hand = by_label(discovery.discover_sessions([home]))[str(home / CLAUDE_PROJECT / "hand.jsonl")]
    assert (hand.turns, hand.human_turns) == (4, 2)
    assert hand.pivots is not None  # the detector's number: checked in the test above
    assert (hand.session_id, hand.cwd, hand.format) == ("s-1", "/home/dev/src/w", "claude-code")
    # no title of its own: the person's first words, as Claude Code's /resume lists it
    assert hand.title == "Why does the worker lose jobs on restart?"


def test_second_listing_reads_nothing_and_lists_the_same(home, cache, monkeypatch):
    reads = Reads(monkeypatch)
    first = discovery.discover_sessions([home])
    assert len(reads.paths) == len(first)
    reads.paths.clear()
    second = discovery.discover_sessions([home])
    assert reads.paths == []
    assert second == first


def test_a_changed_file_is_read_again_alone(home, cache, monkeypatch):
    reads = Reads(monkeypatch)
    hand = home / CLAUDE_PROJECT / "hand.jsonl"
    discovery.discover_sessions([home])
    reads.paths.clear()
    more = dict(HAND[-1], uuid="u4", parentUuid="u3", message={"role": "user", "content": "go on"})
    with open(hand, "ab") as handle:
        handle.write(lines([more]))
    refs = by_label(discovery.discover_sessions([home]))
    assert reads.paths == [hand]
    assert (refs[str(hand)].turns, refs[str(hand)].human_turns) == (5, 3)


def test_a_touched_file_with_the_same_size_is_read_again(home, cache, monkeypatch):
    reads = Reads(monkeypatch)
    target = home / CLAUDE_PROJECT / "demo.jsonl"
    discovery.discover_sessions([home])
    reads.paths.clear()
    st = target.stat()
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    discovery.discover_sessions([home])
    assert reads.paths == [target]


def test_a_deleted_file_leaves_the_listing_and_the_index(home, cache):
    gone = home / CLAUDE_PROJECT / "routine_acks.jsonl"
    discovery.discover_sessions([home])
    gone.unlink()
    labels = {r.label for r in discovery.discover_sessions([home])}
    assert str(gone) not in labels and len(labels) == SESSIONS - 1
    assert str(gone) not in open_index(cache).paths()


def test_an_opencode_write_in_the_wal_is_seen(home, cache):
    db = home / ".local/share/opencode/opencode.db"
    before = {r.label: r.turns for r in discovery.discover_sessions([home]) if r.path == db}
    conn = sqlite3.connect(db)  # opencode itself, appending a message to its newest session
    conn.execute("PRAGMA journal_mode=WAL")
    row = conn.execute("SELECT * FROM message ORDER BY time_created DESC LIMIT 1").fetchone()
    names = [d[0] for d in conn.execute("SELECT * FROM message LIMIT 0").description]
    values = dict(zip(names, row, strict=True))
    values["id"] = "msg_zzzzzzzzzzzzzzzzzzzzzzzzzz"
    values["time_created"] = values["time_created"] + 1000
    marks = ", ".join("?" for _ in names)
    conn.execute(
        f"INSERT INTO message ({', '.join(names)}) VALUES ({marks})", list(values.values())
    )
    conn.commit()
    try:
        assert (db.parent / "opencode.db-wal").exists()
        after = {r.label: r.turns for r in discovery.discover_sessions([home]) if r.path == db}
        fresh = {
            r.label: r.turns
            for r in discovery.discover_sessions([home], use_cache=False)
            if r.path == db
        }
    finally:
        conn.close()
    assert after == fresh
    assert after != before


def test_garbage_in_the_index_is_survived_and_rebuilt(home, cache):
    first = discovery.discover_sessions([home])
    (cache / DB_NAME).write_bytes(b"\x00garbage" * 1000)
    for suffix in ("-wal", "-shm"):
        (cache / f"{DB_NAME}{suffix}").unlink(missing_ok=True)
    warnings: list[str] = []
    again = discovery.discover_sessions([home], warn=warnings.append)
    assert again == first and warnings == []
    assert (cache / f"{DB_NAME}.corrupt").exists()
    assert len(open_index(cache)) == len({r.path for r in first}) + 1  # + the empty file


def test_a_cache_folder_that_cannot_be_written_still_lists(home, tmp_path, monkeypatch):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(blocker / "pivotal"))
    warnings: list[str] = []
    refs = discovery.discover_sessions([home], warn=warnings.append)
    assert len(refs) == SESSIONS and all(r.turns for r in refs)
    assert len(warnings) == 1 and "session cache off" in warnings[0]


def test_no_cache_reads_everything_and_touches_no_cache(home, cache, monkeypatch):
    reads = Reads(monkeypatch)
    refs = discovery.discover_sessions([home], use_cache=False)
    assert len(reads.paths) == len(refs) == SESSIONS
    assert not cache.exists()
    assert refs == discovery.discover_sessions([home])


def test_quick_listing_reads_no_session(home, cache, monkeypatch):
    reads = Reads(monkeypatch)
    refs = discovery.discover_sessions([home], details=False)
    assert reads.paths == [] and len(refs) == SESSIONS and not cache.exists()


def test_a_file_in_an_agents_folder_is_asked_of_that_agents_format_first(home, cache, monkeypatch):
    """The registry's order is for files of unknown origin; a listing knows the folder."""
    from pivotal.readers import claude_code

    asked: list[str] = []
    real = claude_code.SPEC.sniff

    def spying(path: Path, head: bytes) -> bool:
        asked.append(path.name)
        return real(path, head)

    monkeypatch.setattr("pivotal.readers._loaded", {})
    spied = msgspec.structs.replace(claude_code.SPEC, sniff=spying)
    monkeypatch.setattr(claude_code, "SPEC", spied)
    quick = discovery.discover_sessions([home], details=False)
    assert {r.format for r in quick} == {"claude-code", "codex", "gemini", "opencode", "aider"}
    assert all(name.endswith(".jsonl") for name in asked)  # Claude's sniff: its own files only
    assert not [name for name in asked if name.startswith(("rollout-", "session-"))]
    detailed = discovery.discover_sessions([home], use_cache=False)
    assert [(r.label, r.format) for r in detailed] == [(r.label, r.format) for r in quick]


def test_a_file_its_folders_agent_refuses_is_recognised_by_its_content(home, cache):
    codex = home / ".codex/sessions/2026/11/07"
    shutil.copy2(SAMPLES / "claude" / "demo.jsonl", codex / "rollout-2026-11-08T10-00-00-x.jsonl")
    found = by_label(discovery.discover_sessions([home]))
    moved = found[str(codex / "rollout-2026-11-08T10-00-00-x.jsonl")]
    assert moved.format == "claude-code"
    assert moved.turns == len(read_session(SessionRef("claude-code", moved.path)).turns)


def test_many_files_are_read_in_a_process_pool_with_the_same_result(tmp_path, cache, monkeypatch):
    home = make_home(tmp_path)
    project = home / CLAUDE_PROJECT
    for n in range(12):
        shutil.copy2(project / "demo.jsonl", project / f"copy-{n}.jsonl")
    serial = discovery.discover_sessions([home], use_cache=False)
    pools: list[int] = []
    real_pool = workers.ProcessPoolExecutor

    class CountingPool(real_pool):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
            pools.append(kwargs.get("max_workers", 0))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(workers, "ProcessPoolExecutor", CountingPool)
    monkeypatch.setattr(discovery, "POOL_THRESHOLD", 5)
    monkeypatch.setattr(discovery, "usable_cores", lambda: 2)
    pooled = discovery.discover_sessions([home])
    assert pools == [2]
    assert pooled == serial
    assert discovery.discover_sessions([home]) == serial


def test_without_a_working_pool_the_listing_is_done_in_process(home, cache, monkeypatch):
    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError("no semaphores here")

    monkeypatch.setattr(workers, "ProcessPoolExecutor", broken)
    monkeypatch.setattr(discovery, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(discovery, "usable_cores", lambda: 4)
    assert discovery.discover_sessions([home]) == discovery.discover_sessions(
        [home], use_cache=False
    )


def test_a_pool_that_breaks_midway_leaves_the_rest_to_this_process(home, cache, monkeypatch):
    real_pool = workers.ProcessPoolExecutor

    class BreakingPool(real_pool):  # type: ignore[misc, valid-type]
        submitted = 0

        def submit(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            BreakingPool.submitted += 1
            if BreakingPool.submitted > 1:
                raise RuntimeError("cannot schedule new futures after shutdown")
            return super().submit(*args, **kwargs)

    monkeypatch.setattr(workers, "ProcessPoolExecutor", BreakingPool)
    monkeypatch.setattr(discovery, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(discovery, "usable_cores", lambda: 2)
    broken = discovery.discover_sessions([home])
    assert BreakingPool.submitted == 2  # one batch in the pool, the rest in this process
    monkeypatch.setattr(discovery, "POOL_THRESHOLD", 1000)
    assert broken == discovery.discover_sessions([home], use_cache=False)


@pytest.mark.parametrize("pooled", [True, False])
def test_files_wanted_on_screen_are_read_before_the_others(tmp_path, cache, monkeypatch, pooled):
    """The picker names the rows a person scrolled or filtered to: they are counted next."""
    project = tmp_path / CLAUDE_PROJECT
    project.mkdir(parents=True)
    for n in range(30):
        path = project / f"s{n:02}.jsonl"
        shutil.copy2(SAMPLES / "claude" / "routine_acks.jsonl", path)
        os.utime(path, (1_790_000_000 + n * 60, 1_790_000_000 + n * 60))  # s29 newest
    oldest = project / "s00.jsonl"
    monkeypatch.setattr(discovery, "POOL_THRESHOLD", 5 if pooled else 1000)
    monkeypatch.setattr(discovery, "usable_cores", lambda: 2)
    started = 2 * workers.QUEUED * workers.BATCH if pooled else 1
    """What is handed out before a result is in: the batches queued for two workers."""
    plain = [r.path.name for refs in discovery.discover_details([tmp_path]) for r in refs]
    assert plain.index("s00.jsonl") >= 30 - started  # newest first, roughly when pooled
    shutil.rmtree(cache)
    asked: list[int] = []

    def wanted() -> list[Path]:
        asked.append(1)
        return [oldest]

    streamed = [
        r.path.name for refs in discovery.discover_details([tmp_path], wanted=wanted) for r in refs
    ]
    assert sorted(streamed) == sorted(plain) and asked
    assert streamed.index("s00.jsonl") < started  # not behind the 29 newer ones


def test_opencode_storage_beside_a_database_lists_each_session_once(home, cache):
    data = home / ".local/share/opencode"
    storage = data / "storage"
    for sub in ("session/proj", "message", "part"):
        (storage / sub).mkdir(parents=True)
    refs = discovery.discover_sessions([home])
    db_sessions = [r for r in refs if r.path == data / "opencode.db"]
    assert len(db_sessions) == 1
    by_label(refs)


def tree_state(folder: Path) -> dict[str, tuple[int, int, str]]:
    state = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            st = path.stat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            state[str(path)] = (st.st_size, st.st_mtime_ns, digest)
    return state


def test_session_files_are_only_read(home, cache):
    before = tree_state(home)
    discovery.discover_sessions([home])
    discovery.discover_sessions([home])
    assert tree_state(home) == before
    # the listing's index and the search index (filled by the same reads), nothing else
    kept = sorted(p.name for p in cache.iterdir() if not p.name.endswith(("-wal", "-shm")))
    assert kept == sorted([DB_NAME, SEARCH_DB])


def run_cli(*args: str, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "pivotal", "sessions", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def test_cli_json_and_table_show_turns_and_pivots(home, cache):
    env = dict(os.environ, PIVOTAL_CACHE_DIR=str(cache))
    out, err = run_cli("--root", str(home), "--json", env=env).communicate(timeout=120)
    rows = [json.loads(line) for line in out.splitlines()]
    assert err == b"" and len(rows) == SESSIONS
    hand = next(r for r in rows if r["path"].endswith("hand.jsonl"))
    assert (hand["turns"], hand["human_turns"]) == (4, 2)
    assert all(isinstance(r["pivots"], int) for r in rows)
    table, _ = run_cli("--root", str(home), env=env).communicate(timeout=120)
    header = table.decode().splitlines()[0].split()
    assert header[4:6] == ["TURNS", "PIVOTS"]
    nocache, _ = run_cli("--root", str(home), "--json", "--no-cache", env=env).communicate(
        timeout=120
    )
    assert nocache == out


def test_cli_with_an_unusable_cache_says_so_once_and_lists(home, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    env = dict(os.environ, PIVOTAL_CACHE_DIR=str(blocker / "c"))
    proc = run_cli("--root", str(home), "--json", env=env)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and len(out.splitlines()) == SESSIONS
    assert len(err.decode().splitlines()) == 1 and "session cache off" in err.decode()


def test_two_listings_at_once_share_the_index_safely(tmp_path, cache):
    home = make_home(tmp_path)
    project = home / CLAUDE_PROJECT
    for n in range(60):  # enough for both to use their process pools
        shutil.copy2(project / "routine_acks.jsonl", project / f"copy-{n}.jsonl")
    env = dict(os.environ, PIVOTAL_CACHE_DIR=str(cache))
    expected, _ = run_cli("--root", str(home), "--json", "--no-cache", env=env).communicate(
        timeout=300
    )
    procs = [run_cli("--root", str(home), "--json", env=env) for _ in range(2)]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    assert [out for out, _ in results] == [expected, expected]
    assert [err for _, err in results] == [b"", b""]
    conn = sqlite3.connect(cache / DB_NAME)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    warm, _ = run_cli("--root", str(home), "--json", env=env).communicate(timeout=120)
    assert warm == expected


def test_a_session_reached_twice_through_a_link_is_listed_once(home, cache):
    other = home / ".claude/projects/-home-dev-other"
    other.mkdir()
    (other / "linked.jsonl").symlink_to(home / CLAUDE_PROJECT / "hand.jsonl")
    (other / "dangling.jsonl").symlink_to(home / "nowhere.jsonl")
    refs = discovery.discover_sessions([home])
    assert len(refs) == SESSIONS
    assert sum(1 for r in refs if r.session_id == "s-1") == 1
