"""A Claude Code 1.0.x sub-agent written into its session's file is named `PATH#sidechain:…`
(the replayer's top line, `search --json`'s `subagent`): every command takes that name back.
The audit's repro: the title bar showed `….jsonl#sidechain:294:1827153:1988946`, and
`pivotal scan` on it said `no session with key` (exit 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import fake_replayer, invoke
from pivotal.readers import find_sessions, read_session
from readers import claude_sidechain_home as home


def sidechain_keys(path: Path) -> dict[str, str]:
    """Each sub-agent's key, by the agent the fixture calls it (its prompt says which)."""
    [ref] = find_sessions([path]).refs
    keys = {}
    for child in read_session(ref).children:
        sub = read_session(child)
        agent = next(a for a, prompt in home.PROMPTS.items() if sub.turns[0].preview == prompt)
        keys[agent] = child.key
    return keys


def test_scan_takes_a_sidechains_name(tmp_path: Path) -> None:
    path = home.home(tmp_path)
    key = sidechain_keys(path)["types"]
    result = invoke("scan", f"{path}#{key}", "--json")
    assert result.exit_code == 0, result.output
    [doc] = [json.loads(line) for line in result.stdout.splitlines()]
    assert doc["key"] == key
    assert doc["turns"] == 4  # the types' prompt and its three replies


def test_scan_takes_it_with_key_too(tmp_path: Path) -> None:
    path = home.home(tmp_path)
    key = sidechain_keys(path)["writer"]
    result = invoke("scan", path, "--key", key, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["turns"] == 3


def test_export_takes_a_sidechains_name(tmp_path: Path) -> None:
    path = home.home(tmp_path)
    key = sidechain_keys(path)["types"]
    result = invoke("export", f"{path}#{key}", "--to", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [t["preview"] for t in doc["transcript"]][0] == home.PROMPTS["types"]
    assert len(doc["transcript"]) == 4


def test_replay_opens_a_sidechains_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = home.home(tmp_path)
    key = sidechain_keys(path)["tests"]
    seen = fake_replayer(monkeypatch)
    result = invoke("replay", f"{path}#{key}")
    assert result.exit_code == 0, result.output
    ref = seen["ref"]
    assert ref.key == key and read_session(ref).turns[0].preview == home.PROMPTS["tests"]


@pytest.mark.parametrize(
    "shift",
    [
        pytest.param((1, 0), id="not at a line's start"),
        pytest.param((0, -1), id="not at a line's end"),
        pytest.param((0, 10**9), id="past the file's end"),
    ],
)
def test_a_key_that_names_no_sidechain_is_one_line_and_exit_3(
    tmp_path: Path, shift: tuple[int, int]
) -> None:
    path = home.home(tmp_path)
    line, start, end = sidechain_keys(path)["types"].split(":")[1:]
    key = f"sidechain:{line}:{int(start) + shift[0]}:{int(end) + shift[1]}"
    result = invoke("scan", f"{path}#{key}")
    assert result.exit_code == 3, result.output
    assert f"no session with key {key!r}" in result.stderr
    assert "Traceback" not in result.output


def test_a_stretch_of_the_main_line_is_no_sidechain(tmp_path: Path) -> None:
    """The file's first lines are the session's own: a key over them names nothing."""
    path = home.home(tmp_path)
    size = len(path.read_bytes().split(b"\n", 1)[0])
    result = invoke("scan", f"{path}#sidechain:1:0:{size}")
    assert result.exit_code == 3, result.output


@pytest.mark.parametrize("index", [True, False], ids=["index", "reading"])
def test_search_takes_a_sidechains_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index: bool
) -> None:
    """Its hits only: the types' failed edit, none of the writer's or the session's own."""
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    if not index:
        monkeypatch.setenv("PIVOTAL_NO_SEARCH_INDEX", "1")
    path = home.home(tmp_path)
    keys = sidechain_keys(path)
    result = invoke("search", "export", f"{path}#{keys['types']}", "--json", "--limit", "50")
    assert result.exit_code == 0, result.output
    hits = [json.loads(line) for line in result.stdout.splitlines()]
    assert hits and {h["subagent"]["key"] for h in hits} == {keys["types"]}, result.stdout
    assert all(h["key"] is None for h in hits)  # each a hit of the session that ran it
    whole = invoke("search", "export", path, "--json", "--limit", "50").stdout.splitlines()
    assert len(whole) > len(hits)  # the session, and its other sub-agents, say it too


def test_the_name_alone_opens_the_replayer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pivotal PATH#KEY` is `pivotal replay PATH#KEY`, as `pivotal PATH` is (it said
    'unknown command or path', exit 4, for any container's key)."""
    path = home.home(tmp_path)
    key = sidechain_keys(path)["writer"]
    seen = fake_replayer(monkeypatch)
    result = invoke(f"{path}#{key}")
    assert result.exit_code == 0, result.output
    assert seen["ref"].key == key  # type: ignore[attr-defined]
    wrong = invoke(f"{path}#sidechain:1:0:1")
    assert wrong.exit_code == 3 and "no session with key" in wrong.stderr, wrong.output
    assert invoke(f"{tmp_path / 'nope.jsonl'}#x").exit_code == 4  # no such container
