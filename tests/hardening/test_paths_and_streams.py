"""File names, FIFOs, pipes and odd first records (issue 18: 9, 11, 16, 17, 20).

FIFO and pipe cases run pivotal as a real process with a generous time cap:
a regression hangs there (opening a FIFO waits for a writer), and the cap
turns that hang into a failure instead of a stuck test run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import invoke
from privilege import as_nobody

from .fuzz_support import FIXTURES

CLAUDE = FIXTURES / "claude-short.jsonl"
CODEX = FIXTURES / "codex-short.jsonl"
REALCLIENTS = Path(__file__).parents[1] / "fixtures" / "realclients"
CAP_S = 60  # a hang, not a slow machine, is what this catches


def pivotal(
    *args: str | os.PathLike[str], env_extra: dict[str, str] | None = None, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    """`python -m pivotal ARGS` in its own process, ended by CAP_S if it hangs."""
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run(  # type: ignore[call-overload]
        [sys.executable, "-m", "pivotal", *map(str, args)],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=CAP_S,
        env=env,
        check=False,
        **kwargs,
    )


def claude_home(tmp_path: Path) -> Path:
    """A home with one real Claude Code session under ~/.claude/projects."""
    home = tmp_path / "home"
    project = home / ".claude" / "projects" / "-home-dev-work-proj"
    project.mkdir(parents=True)
    shutil.copy(CLAUDE, project / "good.jsonl")
    return home


# -- 16: FIFOs never hang a command ---------------------------------------------------


def test_a_fifo_given_explicitly_is_refused_with_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "live.jsonl"
    os.mkfifo(fifo)
    for command in (["scan"], ["scan", "--follow"], ["export", "--to", "md"], ["stats"]):
        result = pivotal(*command, fifo)
        assert result.returncode == 5, (command, result.stderr)
        [line] = result.stderr.splitlines()
        assert "live.jsonl: a pipe or FIFO, not a file" in line, line


def test_a_fifo_inside_a_folder_is_skipped_and_named(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    shutil.copy(CODEX, folder / "codex.jsonl")
    os.mkfifo(folder / "pipe.jsonl")
    result = pivotal("scan", folder)
    assert "codex.jsonl  (codex, 12 turns" in result.stdout, result.stderr
    assert "skipped 1 file that cannot be read: pipe.jsonl (not a regular file)" in result.stderr
    assert result.returncode == 5


def test_a_fifo_in_claude_projects_does_not_stop_sessions_or_stats(tmp_path: Path) -> None:
    home = claude_home(tmp_path)
    os.mkfifo(home / ".claude" / "projects" / "-home-dev-work-proj" / "fifo.jsonl")
    cache = {"PIVOTAL_CACHE_DIR": str(tmp_path / "cache")}
    listed = pivotal("sessions", "--root", home, "--json", env_extra=cache)
    assert listed.returncode == 0, listed.stderr
    assert [Path(json.loads(line)["path"]).name for line in listed.stdout.splitlines()] == [
        "good.jsonl"
    ]
    stats = pivotal("stats", "--root", home, "--json", env_extra=cache)
    assert stats.returncode == 0, stats.stderr
    assert [s["label"] for s in json.loads(stats.stdout)["sessions"]] == ["good.jsonl"]


# -- 17: pipes are refused, never read as empty ----------------------------------------


def shell(script: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("bash") is None:
        pytest.skip("bash is needed for pipes and <(…)")
    return subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=CAP_S, check=False
    )


@pytest.mark.parametrize(
    "script",
    [
        'cat "{session}" | "{python}" -m pivotal scan /dev/stdin',
        '"{python}" -m pivotal scan <(cat "{session}")',
    ],
    ids=["stdin-pipe", "process-substitution"],
)
def test_a_pipe_is_refused_not_read_as_zero_turns(script: str) -> None:
    result = shell(script.format(session=CLAUDE, python=sys.executable))
    assert result.returncode == 5, result.stdout
    assert result.stdout == ""  # no "0 turns" report of a stream the sniff consumed
    [line] = result.stderr.splitlines()
    assert ": a pipe or FIFO, not a file: pivotal reads session files" in line
    assert "save the stream to a file first" in line


def test_stdin_redirected_from_a_file_is_read() -> None:
    with open(CLAUDE, "rb") as source:
        result = pivotal("scan", "/dev/stdin", stdin=source)
    assert result.returncode == 0, result.stderr
    assert "(claude-code, 10 turns" in result.stdout


# -- 9: names that are not UTF-8 ------------------------------------------------------


def test_a_file_name_that_is_not_utf8_is_listed_with_replacement_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = claude_home(tmp_path)
    project = home / ".claude" / "projects" / "-home-dev-work-proj"
    odd = os.fsencode(project) + b"/bad\xff\xfe.jsonl"
    shutil.copy(CLAUDE, os.fsdecode(odd))
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    for attempt in ("cold", "warm"):  # the second listing comes from the session index
        table = invoke("sessions", "--root", home)
        assert table.exit_code == 0, (attempt, table.output)
        assert "bad\ufffd\ufffd.jsonl" in table.stdout and "good.jsonl" in table.stdout
        listed = invoke("sessions", "--root", home, "--json")
        assert listed.exit_code == 0, (attempt, listed.output)
        names = sorted(Path(json.loads(line)["path"]).name for line in listed.stdout.splitlines())
        assert names == ["bad\ufffd\ufffd.jsonl", "good.jsonl"]
    stats = invoke("stats", "--root", home, "--json")
    assert stats.exit_code == 0, stats.output
    labels = sorted(s["label"] for s in json.loads(stats.stdout)["sessions"])
    assert labels == ["bad\ufffd\ufffd.jsonl", "good.jsonl"]
    assert invoke("stats", "--root", home).exit_code == 0
    scanned = invoke("scan", "--json", project)
    assert scanned.exit_code == 0, scanned.output
    paths = sorted(Path(json.loads(line)["path"]).name for line in scanned.stdout.splitlines())
    assert paths == ["bad\ufffd\ufffd.jsonl", "good.jsonl"]


# -- 11: a record of an unexpected shape early in a file ---------------------------------


@pytest.mark.parametrize("shape", [["user"], {"a": 1}], ids=["list", "object"])
def test_a_type_of_the_wrong_shape_stops_neither_its_file_nor_the_others(
    tmp_path: Path, shape: object
) -> None:
    lines = CLAUDE.read_text().splitlines()
    first = json.loads(lines[0])
    first["type"] = shape
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    result = invoke("scan", bad, CODEX)
    assert result.exit_code == 0, result.output
    assert "bad.jsonl  (claude-code, 10 turns" in result.stdout
    assert "skipped 1 unreadable record at line 1 (" in result.stdout
    assert "codex-short.jsonl  (codex, 12 turns" in result.stdout
    exported = invoke("export", bad, "--to", "md")
    assert exported.exit_code == 0 and "# Pivotal report" in exported.stdout


def test_a_sniffer_that_raises_is_no_match_and_the_other_paths_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever a future sniffer gets wrong, the registry keeps one file from stopping all."""
    from pivotal.readers import claude_code, find_sessions
    from pivotal.readers.base import FormatSpec

    def broken(path: Path, head: bytes) -> bool:
        raise TypeError("unhashable type: 'list'")

    spec = claude_code.SPEC
    monkeypatch.setattr(
        claude_code,
        "SPEC",
        FormatSpec(spec.name, spec.description, broken, spec.refs, spec.open),
    )
    monkeypatch.setattr("pivotal.readers._loaded", {})
    found = find_sessions([CLAUDE, CODEX])
    assert [r.format for r in found.refs] == ["codex"]
    assert [p.kind for p in found.problems] == ["unknown"]


# -- 20: byte order marks, UTF-16, unreadable files in folders ---------------------------


def test_a_bom_before_a_single_json_session_is_read(tmp_path: Path) -> None:
    doc = {
        "sessionId": "5b2c8740-00e4-4481-94e9-939d81e710c3",
        "projectHash": "a02aa96f",
        "startTime": "2026-11-30T03:51:18.675Z",
        "lastUpdated": "2026-11-30T03:52:18.675Z",
        "messages": [
            {"id": "m1", "timestamp": "2026-11-30T03:51:18.676Z", "type": "user",
             "content": "list the files"},
            {"id": "m2", "timestamp": "2026-11-30T03:51:20.000Z", "type": "gemini",
             "content": "Here they are."},
        ],
    }  # fmt: skip
    chat = tmp_path / "session-2026-11-30T03-51-5b2c8740.json"
    chat.write_bytes(b"\xef\xbb\xbf" + json.dumps(doc, indent=2).encode())
    generic = tmp_path / "chat.json"
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    generic.write_bytes(b"\xef\xbb\xbf" + json.dumps({"messages": messages}).encode())
    for path, fmt in ((chat, "gemini"), (generic, "generic")):
        result = invoke("scan", path)
        assert result.exit_code == 0, result.output
        assert f"({fmt}, 2 turns" in result.stdout


def test_utf16_text_gets_a_hint(tmp_path: Path) -> None:
    for name, encoding in (("bom.jsonl", "utf-16"), ("le.json", "utf-16-le")):
        path = tmp_path / name
        path.write_bytes(CLAUDE.read_text().encode(encoding))
        result = invoke("scan", path)
        assert result.exit_code == 3, result.output
        assert "unknown format" in result.stderr
        assert "it is UTF-16 text; pivotal reads UTF-8" in result.stderr


def test_a_prompt_log_passed_for_a_session_says_where_the_sessions_are(tmp_path: Path) -> None:
    # Gemini CLI and Qwen Code keep the person's prompts in logs.json beside their chats
    # (pretty-printed, one record per prompt, no replies); it is the file people find first
    log = [
        {"sessionId": "3c1f9e0a-5d2b-4e8f-9a61-0b7d2c4e8f13", "messageId": n, "type": "user",
         "message": text, "timestamp": f"2026-02-0{n + 1}T09:00:00.000Z"}
        for n, text in enumerate(["add a health check", "now the readiness probe"])
    ]  # fmt: skip
    path = tmp_path / ".gemini" / "tmp" / "shop-api" / "logs.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(log, indent=2))
    result = invoke("scan", path)
    assert result.exit_code == 3, result.output
    [line] = result.stderr.splitlines()
    assert line.endswith(
        "a prompt log (the person's prompts, no replies), not a session; the sessions are in"
        " chats/ beside it (Gemini CLI) or in ~/.qwen/projects/<project>/chats/ (Qwen Code)"
    )
    chat = next((REALCLIENTS / "gemini-short").rglob("session-*.jsonl"))
    (path.parent / "chats").mkdir()
    shutil.copy(chat, path.parent / "chats" / chat.name)
    folder = invoke("scan", path.parent)  # a folder scan reads the chat, passes over the log
    assert folder.exit_code == 0 and folder.stderr == "", folder.output
    assert f"chats/{chat.name}  (gemini, " in folder.stdout


def test_unreadable_files_in_a_folder_are_counted_and_named(world_tmp: Path) -> None:
    folder = world_tmp / "sessions"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(CODEX, folder / "codex.jsonl")
    for name in ("a.jsonl", "sub/b.jsonl", "c.json", "d.jsonl"):
        shutil.copy(CLAUDE, folder / name)
        (folder / name).chmod(0o000)
    for path in (folder, folder / "sub"):
        path.chmod(0o755)
    proc = as_nobody([sys.executable, "-m", "pivotal", "scan", str(folder)], cwd="/")
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert "codex.jsonl  (codex, 12 turns" in out, err
    [line] = err.splitlines()
    assert line.endswith(
        "skipped 4 files that cannot be read: a.jsonl (permission denied),"
        " c.json (permission denied), d.jsonl (permission denied) and 1 more"
    ), line
    assert proc.returncode == 5
