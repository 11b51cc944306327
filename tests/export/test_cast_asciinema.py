"""The cast plays in the real asciinema CLI from PyPI (2.x, in the test extra).

asciinema 2.x — what `pip install asciinema` and Debian give people — opens only
asciicast v1 and v2; that is why v2 is the default (`--cast-version 3` for
asciinema 3 and the player). `asciinema cat` must print every output event of
the v2 file; `asciinema play -m` runs in a pseudo-terminal (it reads keys from
/dev/tty) and must pause at every pivot's marker, showing the pivot banner and
nothing after it until a key resumes it, then play to the end.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pivotal.export import render

pytest.importorskip("asciinema", reason="the asciinema CLI (test extra) is not installed")

ASCIINEMA = [sys.executable, "-m", "asciinema"]


def _write(tmp_path: Path, data, version: int) -> Path:  # type: ignore[no-untyped-def]
    path = tmp_path / f"replay-v{version}.cast"
    path.write_text(render("cast", data, cast_version=version), encoding="utf-8")
    return path


def test_asciinema_cat_prints_every_output_event_of_the_v2_file(tmp_path, demo_input):
    path = _write(tmp_path, demo_input, 2)
    proc = subprocess.run(
        [*ASCIINEMA, "cat", str(path)], capture_output=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    expected = "".join(data for _, code, data in events if code == "o")
    assert proc.stdout.decode() == expected


def test_asciinema_2_refuses_v3_which_is_why_v2_is_the_default(tmp_path, demo_input):
    proc = subprocess.run(
        [*ASCIINEMA, "cat", str(_write(tmp_path, demo_input, 3))],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode != 0
    assert b"only asciicast v1 and v2" in proc.stdout + proc.stderr


class Terminal:
    """`asciinema play` on a pseudo-terminal: what it printed, and keys typed into it."""

    def __init__(self, argv: list[str]) -> None:
        import pty

        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: asciinema, with the pty as its /dev/tty
            os.execv(argv[0], argv)
        self.output = bytearray()

    def read_for(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.05))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the child closed the terminal
                    return
                if not chunk:
                    return
                self.output += chunk

    def wait_for(self, needle: bytes, start: int, cap: float = 60.0) -> int:
        """Read until `needle` shows after `start`; its position (fails after `cap` s)."""
        end = time.monotonic() + cap
        while (found := self.output.find(needle, start)) < 0:
            assert time.monotonic() < end, f"{needle!r} never shown: {bytes(self.output[-400:])!r}"
            self.read_for(0.05)
        return found

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def exit_status(self, cap: float = 60.0) -> int:
        end = time.monotonic() + cap
        while time.monotonic() < end:
            self.read_for(0.05)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
        os.kill(self.pid, 9)
        raise AssertionError("asciinema play did not end")


def test_asciinema_play_pauses_at_every_pivot(tmp_path, demo_input):
    path = _write(tmp_path, demo_input, 2)
    terminal = Terminal([*ASCIINEMA, "play", "-m", "-s", "100", str(path)])
    position = 0
    for number, pivot in enumerate(demo_input.pivots, 1):
        banner = terminal.wait_for(f"PIVOT {number} ·".encode(), position)
        # paused: a bounded look for output after the banner finds none. At 100x speed
        # the next turn would otherwise follow within milliseconds.
        terminal.read_for(0.5)
        after = bytes(terminal.output[banner:])
        assert "▌ turn #".encode() not in after, f"did not pause at pivot {number}"
        assert f"turn #{pivot.turn + 1}".encode() in bytes(terminal.output[:banner])
        terminal.type(b" ")  # asciinema's resume key
        position = banner + 1
    assert terminal.exit_status() == 0
    last_turn = len(demo_input.session.turns)
    assert f"▌ turn #{last_turn} ".encode() in bytes(terminal.output[position:])
