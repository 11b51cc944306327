"""Hostile session ids and file names never drive the terminal or forge output lines.

Issue 18, items 1, 2 and 5: a session id holding OSC 0 (window title) and OSC 52
(clipboard) was printed raw by `scan` and `--explain`; file names with OSC
sequences, C1 bytes, U+202E or a newline reached stderr raw through a shell glob,
and a newline in a name forged a row of the scan table; invisible filler and
format characters reached every output. These tests run `pivotal` as a real
process, as a shell would, and read the bytes it wrote.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pivotal.text.safe import clean, clean_line, json_inert
from privilege import as_nobody

from .hostile_samples import FORBIDDEN

# Issue 18.5: invisible / format / filler characters that must be shown, never passed on.
INVISIBLES = [
    "\u00ad",  # soft hyphen
    "\u034f",  # combining grapheme joiner
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\u3164",  # Hangul filler
    "\uffa0",  # halfwidth Hangul filler
    *[chr(c) for c in range(0x206A, 0x2070)],  # deprecated format characters
    "\u180b",  # Mongolian free variation selector one
    "\u17b4",  # Khmer vowel inherent aq
    "\u2800",  # braille pattern blank
    "\u2065",  # unassigned, in the invisible-operators block
]
INVISIBLE_RE = re.compile("[" + "".join(INVISIBLES) + "]")
ID_PAYLOAD = "ses\x1b]0;pwned-title\x07\x1b]52;c;cm0gLXJmIH4=\x07\x9b2J\u202eid" + "".join(
    INVISIBLES
)


def pivotal(*args: str, colour: bool = False, **kwargs: object) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    env["COLUMNS"] = "120"
    if colour:
        env["FORCE_COLOR"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pivotal", *args],
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
        **kwargs,  # type: ignore[arg-type]
    )


def text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def assert_inert(output: str) -> None:
    for pattern in (FORBIDDEN, INVISIBLE_RE):
        match = pattern.search(output)
        where = output[max(0, match.start() - 60) :][:120] if match else ""
        assert match is None, f"raw {match.group()!r}: {where!r}"
    # a misused emoji presentation selector (after a letter) is never passed on either
    assert re.search("[A-Za-z]\ufe0f", output) is None


def claude_session(session_id: str, cwd: str = "/work/app") -> str:
    """A small Claude Code session (person, agent with a failing command, bare go-on)."""
    records = []
    parent = None

    def add(kind: str, message: dict, n: int) -> None:
        nonlocal parent
        uuid = f"u{n}"
        records.append(
            {
                "parentUuid": parent,
                "isSidechain": False,
                "userType": "external",
                "cwd": cwd,
                "sessionId": session_id,
                "version": "2.1.197",
                "type": kind,
                "message": message,
                "uuid": uuid,
                "timestamp": f"2026-11-30T10:{n:02d}:00.000Z",
            }
        )
        parent = uuid

    n = 0
    add("user", {"role": "user", "content": "Make the benchmark faster"}, n)
    for attempt in range(4):
        n += 1
        call = f"toolu_{attempt}"
        add(
            "assistant",
            {
                "id": f"msg_{attempt}",
                "type": "message",
                "role": "assistant",
                "model": "claude-opus-4-8",
                "content": [
                    {"type": "text", "text": f"Attempt {attempt}: trying a cache."},
                    {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "make"}},
                ],
            },
            n,
        )
        n += 1
        add(
            "user",
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": call,
                        "content": "error: still slow",
                        "is_error": True,
                    }
                ],
            },
            n,
        )
    n += 1
    add("user", {"role": "user", "content": "ok"}, n)
    for step in range(3):
        n += 1
        add(
            "assistant",
            {
                "id": f"msg_after_{step}",
                "type": "message",
                "role": "assistant",
                "model": "claude-opus-4-8",
                "content": [{"type": "text", "text": f"Trying another approach {step}."}],
            },
            n,
        )
    return "\n".join(json.dumps(r) for r in records) + "\n"


# -- the text functions --------------------------------------------------------------


@pytest.mark.parametrize("char", INVISIBLES, ids=[f"U+{ord(c):04X}" for c in INVISIBLES])
def test_invisible_characters_are_shown(char: str) -> None:
    out = clean(f"a{char}b")
    assert out == f"a⟨U+{ord(char):04X}⟩b"
    assert json_inert(json.dumps(f"a{char}b", ensure_ascii=False)) == json.dumps(f"a{char}b")


@pytest.mark.parametrize(
    "misused", ["a\ufe0f", "\ufe0fstart", "❤\ufe0f\ufe0f\ufe0f", "x\ufe0e"], ids=repr
)
def test_a_presentation_selector_that_follows_no_emoji_is_shown(misused: str) -> None:
    assert "⟨U+FE0" in clean(misused)


EMOJI = ["❤\ufe0f", "1\ufe0f\u20e3", "#\ufe0f\u20e3", "‼\ufe0f", "☺\ufe0e"]


@pytest.mark.parametrize("emoji", EMOJI)
def test_emoji_presentation_sequences_are_kept(emoji: str) -> None:
    assert clean(f"ok {emoji} done") == f"ok {emoji} done"


def test_clean_line_keeps_a_name_on_one_line() -> None:
    assert clean_line("a\nb\tc\x1b]0;t\x07") == "a␊b␉c␛]0;t␇"


# -- the session id (18.1) ----------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile_id_session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ids") / "session.jsonl"
    path.write_text(claude_session(ID_PAYLOAD), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("args", "colour"),
    [((), False), (("--explain",), False), (("--explain",), True), (("--json",), False)],
    ids=["plain", "explain", "explain-forced-colour", "json"],
)
def test_scan_shows_a_hostile_session_id_as_text(
    hostile_id_session: Path, args: tuple[str, ...], colour: bool
) -> None:
    proc = pivotal("scan", *args, str(hostile_id_session), colour=colour)
    out, err = text(proc.stdout), text(proc.stderr)
    assert proc.returncode == 0, err
    assert_inert(out)
    assert_inert(err)
    if "--json" in args:
        assert json.loads(out)["session_id"].startswith("ses␛]0;pwned-title␇␛]52;c;")
    else:
        assert "id ses␛]0;pwned-title␇␛]52;c;cm0gLXJmIH4=␇⟨U+009B⟩2J⟨U+202E⟩id" in out


def test_exports_show_a_hostile_id_as_text(hostile_id_session: Path) -> None:
    for fmt in ("md", "html", "json", "cast"):
        proc = pivotal("export", str(hostile_id_session), "--to", fmt, "--no-notes")
        assert proc.returncode == 0, text(proc.stderr)
        out = text(proc.stdout)
        assert_inert(out)
        assert "52;c;cm0gLXJmIH4=" in out and ("␛" in out or "\\u241b" in out), fmt


# -- file names (18.2) --------------------------------------------------------------------

HOSTILE_NAMES = {
    "osc": "osc\x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIH4=\x07.jsonl",
    "c1": "c1\x9b31m\x9d0;t\x9c.jsonl",
    "c1-bytes": "raw\udc9b31m\udc9d0;t.jsonl",  # bytes 0x9b / 0x9d: not UTF-8 at all
    "bidi": "bidi\u202egnp.jsonl",
    "newline": "new\nline  (claude-code, 99 turns).jsonl",
    "invisible": "inv" + "".join(INVISIBLES) + ".jsonl",
}


@pytest.fixture()
def hostile_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "downloaded"
    folder.mkdir()
    return folder


def _problem_lines(err: str) -> list[str]:
    return [line for line in err.split("\n") if line]


@pytest.mark.parametrize("name", list(HOSTILE_NAMES), ids=list(HOSTILE_NAMES))
@pytest.mark.parametrize("case", ["unknown format", "empty file", "no such file"])
def test_error_lines_show_hostile_file_names_on_one_line(
    hostile_folder: Path, name: str, case: str
) -> None:
    path = hostile_folder / HOSTILE_NAMES[name]
    if case == "unknown format":
        path.write_text("just some notes\n", encoding="utf-8")
    elif case == "empty file":
        path.write_bytes(b"")
    for args in (("scan",), ("scan", "--follow"), ("export",)):
        proc = pivotal(*args, str(path))
        err = text(proc.stderr)
        assert_inert(err)
        lines = _problem_lines(err)
        assert len(lines) == 1, lines
        assert lines[0].startswith("pivotal: ") and case in lines[0], lines
        assert proc.returncode == (4 if case == "no such file" else 3), (args, err)
        assert proc.stdout == b""


def test_permission_denied_line_is_inert_for_an_unprivileged_user(world_tmp: Path) -> None:
    """Root reads everything, so this runs the command as `nobody` (setpriv)."""
    path = world_tmp / HOSTILE_NAMES["osc"]
    path.write_text(claude_session("s1"), encoding="utf-8")
    path.chmod(0o600)
    proc = as_nobody([sys.executable, "-m", "pivotal", "scan", str(path)])
    err = text(proc.stderr)
    assert_inert(err)
    assert _problem_lines(err) == ["pivotal: " + clean_line(str(path)) + ": permission denied"], err
    assert proc.returncode == 5


def test_a_newline_in_a_file_name_forges_no_table_row(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    forged = tmp_path / HOSTILE_NAMES["newline"]
    for path in (plain, forged):
        path.write_text(claude_session("s1"), encoding="utf-8")
    plain_out = text(pivotal("scan", str(plain)).stdout)
    forged_out = text(pivotal("scan", str(forged)).stdout)
    assert forged_out.count("\n") == plain_out.count("\n")
    assert "new␊line  (claude-code, 99 turns).jsonl  (claude-code," in forged_out
    listing = text(pivotal("scan", str(plain), str(forged)).stdout)
    assert not any(line.startswith("line  (claude-code, 99 turns)") for line in listing.split("\n"))


def test_a_shell_glob_over_a_hostile_folder_prints_one_line_per_name(hostile_folder: Path) -> None:
    for name in HOSTILE_NAMES.values():
        (hostile_folder / name).write_text("not a session\n", encoding="utf-8")
    paths = sorted(str(p) for p in hostile_folder.iterdir())
    proc = pivotal("scan", *paths)
    err = text(proc.stderr)
    assert_inert(err)
    assert len(_problem_lines(err)) == len(HOSTILE_NAMES)
    assert proc.returncode == 3
