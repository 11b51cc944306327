"""A big scan on two processes gives exactly the one-process answer, or falls back to it.

Each run is a fresh interpreter (a fork inside pytest, which may have threads,
would be refused by `can_split`), scanning a long session chained from the
samples with the size threshold lowered: the samples are real-shaped sessions
of a few hundred turns, the split needs well over a thousand, so copies are
chained with fresh record uuids and message ids (no copy reads as a duplicate
or a continuation of another), as a long session of many tasks would look.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pivotal.detect import PivotConfig
from pivotal.model import SessionRef
from pivotal.scan import split as scan_split

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions" / "claude"


def _fresh(uuid: str, tag: str) -> str:
    digest = hashlib.sha1(f"{uuid}/{tag}".encode()).hexdigest()
    return f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"


def long_session_lines(copies: int = 3) -> list[str]:
    """JSONL lines (without newlines) of the samples chained `copies` times."""
    out: list[str] = []
    for copy in range(copies):
        for sample in sorted(SAMPLES.glob("*.jsonl")):
            tag = f"{copy}/{sample.stem}"
            for raw in sample.read_text(encoding="utf-8").splitlines():
                if not raw.strip():
                    continue
                rec = json.loads(raw)
                for key in ("uuid", "parentUuid", "leafUuid"):
                    if isinstance(rec.get(key), str):
                        rec[key] = _fresh(rec[key], tag)
                msg = rec.get("message")
                if isinstance(msg, dict) and isinstance(msg.get("id"), str):
                    msg["id"] = f"{msg['id']}_{copy}_{sample.stem}"
                out.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False))
    return out


UGLY = Path(__file__).resolve().parents[1] / "fixtures" / "claude" / "ugly.jsonl"

RUN = """
import io, json, pathlib, sys
from pivotal.cli import scan as scan_command
from pivotal.scan import split as scan_split
scan_split.MIN_BYTES = 0
if sys.argv[3] == "broken-child":
    def boom(*args):
        raise RuntimeError("child failed")
    scan_split._child_report = boom
out = io.StringIO()
mode = sys.argv[2]
paths = [pathlib.Path(sys.argv[1])]
scan_command.run_scan(paths, as_json=mode == "json", explain=mode == "explain", out=out)
print(json.dumps({"outcome": scan_split.last_outcome, "out": out.getvalue()}))
"""


def _scan(path: Path, mode: str, *, split: bool, child: str = "ok") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PIVOTAL_ONE_CORE"}
    if not split:
        env["PIVOTAL_ONE_CORE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(path), mode, child],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def long_lines() -> list[str]:
    return long_session_lines(3)


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _seam_line(path: Path, lines: list[str]) -> int:
    """Index in `lines` of the record the split cuts at."""
    seam = scan_split._find_seam(
        SessionRef("claude-code", path), int(path.stat().st_size * scan_split.SEAM_AT)
    )
    assert seam is not None
    offset = 0
    for i, line in enumerate(lines):
        if offset == seam:
            return i
        offset += len(line.encode()) + 1
    raise AssertionError("the seam is not at a line start")


@pytest.mark.parametrize("mode", ["json", "explain"])
def test_two_processes_give_the_one_process_answer(tmp_path, long_lines, mode):
    path = _write(tmp_path, long_lines)
    split = _scan(path, mode, split=True)
    alone = _scan(path, mode, split=False)
    # --explain also lists every silence turned down, with its gate: one process judges all
    assert split["outcome"] == ("split" if mode == "json" else "")
    assert alone["outcome"] == ""
    assert split["out"] == alone["out"]
    if mode == "json":
        report = json.loads(split["out"])
        turns = [p["turn"] for p in report["pivots"]]
        # pivots on both sides of the seam, so both processes' answers are in there
        assert min(turns) < report["turns"] // 3 and max(turns) > 2 * report["turns"] // 3
        assert report["turns"] > 4 * sum(PivotConfig().reach())


def _record(line: str) -> dict:
    return json.loads(line)


def _first(lines: list[str], kind: str, before: int, **want: object) -> dict:
    for line in lines[:before]:
        rec = _record(line)
        if rec.get("type") == kind and all(rec.get(k) == v for k, v in want.items()):
            return rec
    raise AssertionError(f"no {kind} record")


def _user(text_or_blocks: object, uuid: str, parent: str | None, like: dict) -> str:
    rec = dict(like)
    rec.update(
        type="user",
        uuid=uuid,
        parentUuid=parent,
        message={"role": "user", "content": text_or_blocks},
    )
    for key in ("isMeta", "isCompactSummary", "toolUseResult"):
        rec.pop(key, None)
    return json.dumps(rec, separators=(",", ":"))


def _case(name: str, lines: list[str], seam: int) -> list[str]:
    """`lines` with one record after the seam that refers back across it.

    The record goes near the end, past the turns both processes read, so only the
    check of what the child looked up (not the comparison of the overlap) can see it.
    """
    early = seam // 4
    late = len(lines) - 50
    human = _first(lines, "user", seam)
    out = list(lines)
    if name == "record written twice":
        assistant = next(
            line for line in lines[early:seam] if _record(line).get("type") == "assistant"
        )
        out.insert(late, assistant)
    elif name == "tool result for an early call":
        call = _first(lines[early:], "assistant", seam - early)
        result = [{"type": "tool_result", "tool_use_id": "toolu_early", "content": "done"}]
        uuid = "0badc0de-0000-4000-8000-000000000001"
        out.insert(late, _user(result, uuid, call["uuid"], human))
    elif name == "rewind to an early message":
        target = _first(lines[early:], "user", seam - early)
        uuid = "0badc0de-0000-4000-8000-000000000002"
        out.insert(late, _user("no, go back to the plan", uuid, target["uuid"], human))
    elif name == "interrupt right after the seam":
        seam_rec = _record(lines[seam])
        out.insert(
            seam + 1,
            _user(
                [{"type": "text", "text": "[Request interrupted by user]"}],
                "0badc0de-0000-4000-8000-000000000003",
                seam_rec["uuid"],
                human,
            ),
        )
    return out


@pytest.mark.parametrize(
    ("case", "why"),
    [
        ("record written twice", "written again"),
        ("tool result for an early call", "tool result"),
        ("rewind to an early message", "rewind"),
        ("interrupt right after the seam", "interrupt"),
    ],
)
def test_references_across_the_seam_fall_back_to_one_process(tmp_path, long_lines, case, why):
    plain = _write(tmp_path, long_lines)
    lines = _case(case, long_lines, _seam_line(plain, long_lines))
    path = _write(tmp_path, lines)
    split = _scan(path, "json", split=True)
    alone = _scan(path, "json", split=False)
    assert split["outcome"].startswith("alone:") and why in split["outcome"], split["outcome"]
    assert split["out"] == alone["out"]


def test_a_failing_child_falls_back_to_one_process(tmp_path, long_lines):
    path = _write(tmp_path, long_lines)
    broken = _scan(path, "json", split=True, child="broken-child")
    alone = _scan(path, "json", split=False)
    assert broken["outcome"] == "alone: no report"
    assert broken["out"] == alone["out"]


def test_small_files_other_formats_and_threaded_callers_are_not_split(tmp_path, long_lines):
    path = _write(tmp_path, long_lines)
    ref = SessionRef("claude-code", path)
    assert scan_split.can_split(ref, min_bytes=0) == (threading.active_count() == 1)
    assert not scan_split.can_split(ref)  # 5 MB: under the default threshold
    assert not scan_split.can_split(SessionRef("codex", path), min_bytes=0)
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert not scan_split.can_split(ref, min_bytes=0)
    finally:
        stop.set()
        worker.join()


def test_a_file_with_no_seam_is_read_alone(tmp_path):
    """A short session has no message from the person past its middle that leaves enough turns."""
    path = tmp_path / "ugly.jsonl"
    path.write_bytes(UGLY.read_bytes())
    result = _scan(path, "json", split=True)
    assert result["outcome"].startswith("alone:")
    assert result["out"] == _scan(path, "json", split=False)["out"]


SWEEP = """
import json, pathlib, sys
from pivotal.scan import split as scan_split
from pivotal.detect import PivotConfig, detect_pivots
from pivotal.model import SessionRef
from pivotal.readers import read_session
from pivotal.scan.report import explain, session_json
config = PivotConfig.for_sensitivity("normal")
ref = SessionRef("claude-code", pathlib.Path(sys.argv[1]))
whole = read_session(ref)
pivots = detect_pivots(whole.turns, config, possible=True)
def shown(session, found):
    sure = [p for p in found if not p.possible]
    maybe = [p for p in found if p.possible]
    return [session_json(ref, session, sure, maybe), [explain(session, p) for p in found]]
want = shown(whole, pivots)
rows = []
for at in (0.25, 0.4, 0.6):
    session, found = scan_split.scan_split(ref, config, seam_at=at)
    got = shown(session, found)
    rows.append([at, scan_split.last_outcome, got == want])
print(json.dumps(rows))
"""


def test_wherever_the_seam_falls_the_answer_is_the_same(tmp_path, long_lines):
    path = _write(tmp_path, long_lines)
    done = subprocess.run(
        [sys.executable, "-c", SWEEP, str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    rows = json.loads(done.stdout)
    assert all(same for _, _, same in rows), rows
    assert sum(outcome == "split" for _, outcome, _ in rows) >= 2, rows


def test_the_split_scan_only_reads_the_session(tmp_path, long_lines):
    path = _write(tmp_path, long_lines)
    os.utime(path, (1_700_000_000, 1_700_000_000))
    before = (path.read_bytes(), path.stat().st_mtime_ns, path.stat().st_mode)
    assert _scan(path, "json", split=True)["outcome"] == "split"
    assert (path.read_bytes(), path.stat().st_mtime_ns, path.stat().st_mode) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.jsonl"]


def test_the_seam_search_reads_a_bounded_amount(tmp_path, monkeypatch, long_lines):
    """A huge line past the middle: the search gives up after SEAM_SEARCH bytes, not the file."""
    human = next(
        line for line in long_lines if '"type":"user","message":{"role":"user","content":"' in line
    )
    path = tmp_path / "s.jsonl"
    path.write_text(long_lines[0] + "\n" + "x" * (8 << 20) + "\n" + human + "\n", encoding="utf-8")
    monkeypatch.setattr(scan_split, "SEAM_SEARCH", 2 << 20)
    read: list[int] = []
    real = os.pread

    def counting(fd: int, n: int, offset: int) -> bytes:
        data = real(fd, n, offset)
        read.append(len(data))
        return data

    monkeypatch.setattr(scan_split.os, "pread", counting)
    assert scan_split._find_seam(SessionRef("claude-code", path), 10) is None
    assert sum(read) <= (2 << 20) + scan_split.STEP
    assert scan_split._find_seam(SessionRef("claude-code", path), (8 << 20) + 10) is not None


def _proxied(lines: list[str]) -> list[str]:
    """`lines` as Claude Code writes them behind an OpenAI-compatible proxy: every assistant
    line twice, the copy with a uuid of its own chained to the first, and what followed the
    line chained to the copy."""
    out: list[str] = []
    copies: dict[str, str] = {}
    for line in lines:
        rec = _record(line)
        if rec.get("parentUuid") in copies:
            rec["parentUuid"] = copies[rec["parentUuid"]]
        out.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False))
        if rec.get("type") == "assistant":
            copies[rec["uuid"]] = _fresh(rec["uuid"], "again")
            again = {**rec, "parentUuid": rec["uuid"], "uuid": copies[rec["uuid"]]}
            out.append(json.dumps(again, separators=(",", ":"), ensure_ascii=False))
    return out


def _placeless(out: str) -> dict:
    """A scan's JSON without what moves when lines are added: the path and the line numbers."""
    report = json.loads(out)
    report.pop("path")
    for pivot in (*report["pivots"], *report["possible"]):
        pivot.pop("line")
    return report


def test_a_session_written_twice_by_a_proxy_splits_into_the_same_answer(tmp_path, long_lines):
    """Each half decodes its turns as one process does: no half counts a call written twice."""
    (tmp_path / "plain").mkdir()
    (tmp_path / "proxy").mkdir()
    plain = _scan(_write(tmp_path / "plain", long_lines), "json", split=False)
    path = _write(tmp_path / "proxy", _proxied(long_lines))
    split = _scan(path, "json", split=True)
    alone = _scan(path, "json", split=False)
    assert split["outcome"] == "split"
    assert split["out"] == alone["out"]
    assert _placeless(split["out"]) == _placeless(plain["out"])


def _stamp(when: datetime) -> str:
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _restamped(lines: list[str], steps_back: set[int]) -> list[str]:
    """`lines` with times 5 s apart, except the records at `steps_back`: 2 s before the
    agent's latest response, as a real tool result often is before its call, or a person's
    message before the reply they typed it under. Every stamp is as long as the next, so the
    lines keep their offsets whatever is stepped back."""
    out: list[str] = []
    when = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    agent = when
    for i, line in enumerate(lines):
        rec = _record(line)
        if "timestamp" in rec:
            when += timedelta(seconds=5)
            stamp = agent - timedelta(seconds=2) if i in steps_back else when
            rec["timestamp"] = _stamp(stamp)
            if rec.get("type") == "assistant":
                agent = stamp
        out.append(json.dumps(rec, separators=(",", ":"), ensure_ascii=False))
    return out


def test_times_that_step_back_a_few_seconds_still_split(tmp_path, long_lines):
    """Real Claude Code files step back in time now and then (a tool result stamped before
    its call, mostly by seconds; 36 of 60 real files do). A turn keeps its record's time, so
    the halves agree and the scan is split, even with a step back at the very seam."""
    rising = _restamped(long_lines, set())
    seam = _seam_line(_write(tmp_path, rising), rising)
    back = set(range(0, len(long_lines), 9)) | {seam}
    lines = _restamped(long_lines, back)
    path = _write(tmp_path, lines)
    assert _seam_line(path, lines) == seam
    records = [_record(line) for line in lines]
    stamped = [r["timestamp"] for r in records if "timestamp" in r]
    assert sum(b < a for a, b in zip(stamped, stamped[1:], strict=False)) > len(stamped) // 20
    replies = [r["timestamp"] for r in records[:seam] if r.get("type") == "assistant"]
    assert records[seam]["timestamp"] < replies[-1]  # the person's message at the cut, too
    split = _scan(path, "json", split=True)
    alone = _scan(path, "json", split=False)
    assert split["outcome"] == "split", split["outcome"]
    assert split["out"] == alone["out"]
