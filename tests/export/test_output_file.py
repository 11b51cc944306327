"""`export -o PATH` never replaces what is not a regular, writable file (issue 17.1).

Each case of the `-o` rules (docs/commands.md), as root (these tests run as root, so does
CI) and, where privilege changes the answer, as the unprivileged `nobody`
(`privilege.as_nobody`). Devices are private copies made with mknod where the
kernel allows it, so a bug here can never replace the machine's own /dev/null.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.cli.exitcodes import ExitCode
from privilege import as_nobody

from .conftest import DEMO


def export(*args: str | Path) -> tuple[int, str, str]:
    result = invoke("export", DEMO, "--no-notes", *map(str, args))
    return result.exit_code, result.stdout, result.stderr


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_dash_is_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = export("-o", "-")
    assert code == ExitCode.OK and out.startswith("# Pivotal report"), err
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_a_new_file_is_created_with_the_umask_mode(tmp_path):
    target = tmp_path / "report.md"
    code, out, err = export("-o", target)
    assert code == ExitCode.OK and out == "", err
    assert target.read_text().startswith("# Pivotal report")
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]  # no temporary left
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_a_missing_folder_is_exit_4(tmp_path):
    code, _, err = export("-o", tmp_path / "nowhere" / "report.md")
    assert code == ExitCode.NOT_FOUND
    assert "no such folder" in one_line(err)


def test_a_regular_file_is_replaced_atomically_keeping_its_mode(tmp_path):
    target = tmp_path / "report.md"
    target.write_text("old export\n")
    target.chmod(0o640)
    with open(target) as reader:  # a reader of the old file never sees half a new one
        code, _, err = export("-o", target)
        assert reader.read() == "old export\n"
    assert code == ExitCode.OK, err
    assert target.read_text().startswith("# Pivotal report")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_a_read_only_file_is_refused_even_for_root(tmp_path):
    target = tmp_path / "report.md"
    target.write_text("keep me\n")
    target.chmod(0o444)
    code, _, err = export("-o", target)
    assert code == ExitCode.UNREADABLE
    assert "read-only file" in one_line(err)
    assert target.read_text() == "keep me\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444


def test_a_file_with_other_hard_links_is_written_in_place(tmp_path):
    target = tmp_path / "report.md"
    target.write_text("old\n")
    other = tmp_path / "other-name.md"
    os.link(target, other)
    code, _, err = export("-o", target)
    assert code == ExitCode.OK, err
    assert other.read_text().startswith("# Pivotal report")  # still one file
    assert os.path.samefile(target, other)


def test_a_symlink_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.md"
    real.write_text("old\n")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    code, _, err = export("-o", link)
    assert code == ExitCode.OK, err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("# Pivotal report")


def test_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.md"
    link.symlink_to(tmp_path / "made.md")
    code, _, err = export("-o", link)
    assert code == ExitCode.OK, err
    assert link.is_symlink() and (tmp_path / "made.md").read_text().startswith("# Pivotal")


def test_a_folder_is_refused(tmp_path):
    code, _, err = export("-o", tmp_path)
    assert code == ExitCode.UNREADABLE and "is a folder" in one_line(err)


def _device(tmp_path: Path, name: str, minor: int) -> Path:
    """A private character device (1, minor): 3 is null, 7 is full; else the system's own."""
    path = tmp_path / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        path.chmod(0o666)  # mknod applies the umask
        with open(path, "w"):
            pass
    except OSError:
        path.unlink(missing_ok=True)
        if minor == 3:  # never point a test at the machine's own /dev/null
            pytest.skip("cannot make a private null device here (mknod refused)")
        return Path("/dev") / name
    return path


def test_a_full_device_is_written_in_place_and_fails_with_one_line(tmp_path):
    full = _device(tmp_path, "full", 7)
    code, _, err = export("-o", full)
    assert code == ExitCode.UNREADABLE
    assert one_line(err) == f"pivotal: {full}: cannot write (No space left on device)"
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_the_null_device_stays_a_device(tmp_path):
    null = _device(tmp_path, "null", 3)
    code, _, err = export("-o", null)
    assert code == ExitCode.OK, err
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    code, _, err = export("-o", fifo)
    reader.join(timeout=60)
    assert code == ExitCode.OK, err
    assert received and received[0].startswith(b"# Pivotal report")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_dev_stdout_style_path_is_written_in_place(tmp_path):
    """`-o` a link to /proc/self/fd/1 (what /dev/stdout is), stdout a pipe: the pipe gets
    the export and the link stays. A private link: a bug can never replace /dev/stdout."""
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    argv = [sys.executable, "-m", "pivotal", "export", str(DEMO), "--no-notes", "-o", str(link)]
    proc = subprocess.run(argv, capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(b"# Pivotal report")
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"
    assert [p.name for p in tmp_path.iterdir()] == ["stdout"]


def test_a_socket_is_refused_with_one_line(tmp_path):
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        code, _, err = export("--to", "md", "-o", path)  # .sock names no format
    finally:
        server.close()
    assert code == ExitCode.UNREADABLE and "cannot write" in one_line(err)
    assert stat.S_ISSOCK(os.stat(path).st_mode)


# -- as an unprivileged user ----------------------------------------------------------


def nobody_export(target: Path) -> subprocess.CompletedProcess[bytes]:
    argv = [sys.executable, "-m", "pivotal", "export", str(DEMO), "--no-notes", "-o", str(target)]
    return as_nobody(argv, cwd="/")


def test_nobody_cannot_replace_a_file_it_may_not_write(world_tmp):
    target = world_tmp / "root-owned.md"
    target.write_text("root's\n")
    target.chmod(0o644)
    proc = nobody_export(target)
    assert proc.returncode == ExitCode.UNREADABLE
    assert "read-only file" in one_line(proc.stderr.decode())
    assert target.read_text() == "root's\n"


def test_nobody_writes_its_own_file_in_a_folder_it_cannot_write(world_tmp):
    """The atomic rename needs the folder; without it the file is written in place."""
    target = world_tmp / "shared.md"
    target.write_text("old\n")
    target.chmod(0o666)
    proc = nobody_export(target)
    assert proc.returncode == ExitCode.OK, proc.stderr
    assert target.read_text().startswith("# Pivotal report")
    assert sorted(p.name for p in world_tmp.iterdir()) == ["shared.md"]


def test_nobody_in_a_folder_it_cannot_enter_gets_one_line(world_tmp):
    locked = world_tmp / "locked"
    locked.mkdir(mode=0o700)
    proc = nobody_export(locked / "report.md")
    err = proc.stderr.decode()
    assert proc.returncode == ExitCode.UNREADABLE, err
    assert "Permission denied" in one_line(err) and "internal error" not in err


def test_nobody_cannot_create_a_file_in_a_folder_it_cannot_write(world_tmp):
    proc = nobody_export(world_tmp / "new.md")
    err = proc.stderr.decode()
    assert proc.returncode == ExitCode.UNREADABLE, err
    assert "Permission denied" in one_line(err)
    assert list(world_tmp.iterdir()) == []


def test_nobody_reading_a_read_only_file_of_its_own_is_refused(world_tmp):
    target = world_tmp / "mine.md"
    target.write_text("mine\n")
    os.chown(target, 65534, 65534) if os.geteuid() == 0 else None
    target.chmod(0o444)
    proc = nobody_export(target)
    assert proc.returncode == ExitCode.UNREADABLE
    assert "read-only file" in one_line(proc.stderr.decode())
    assert target.read_text() == "mine\n"


def test_nobody_gets_the_same_line_for_a_full_device(world_tmp):
    full = _device(world_tmp, "full", 7)
    proc = nobody_export(full)
    assert proc.returncode == ExitCode.UNREADABLE
    assert "No space left on device" in one_line(proc.stderr.decode())
