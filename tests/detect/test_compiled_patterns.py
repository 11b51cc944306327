"""Kept pattern codes (`pivotal.detect.compiled`): the same patterns, without compiling.

A kept code must give exactly the pattern `re.compile` gives (Pattern equality
compares the compiled code itself), a damaged or foreign file must be ignored
without a word, and a save must neither fail a command nor leave pieces behind.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from pivotal.detect import compiled
from pivotal.detect.compiled import Code

PATTERNS = [
    (r"\b(?:shall i|want me to|should i)\b", 0),
    (r"(?P<word>proceed|continue)\s+(?P<rest>\w+)?", re.IGNORECASE),
    (r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(ms|s)\b", 0),
    (r"是否继续|お願いします|voulez-vous", 0),
    (r"(?m)^\s*(exit code:?)\s*(-?\d+)", re.IGNORECASE),
]
TEXTS = [
    "Shall I proceed with step 2?",
    "PROCEED now",
    "took 1,234 ms",
    "是否继续执行？",
    "exit code: 3",
]


@pytest.fixture()
def fresh_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's kept codes, emptied for one test (and restored after it)."""
    monkeypatch.setattr(compiled, "_codes", {})
    monkeypatch.setattr(compiled, "_fresh", [])
    monkeypatch.setattr(compiled, "_plans", {})
    monkeypatch.setattr(compiled, "_new_plans", [])


def _same(pattern: re.Pattern[str], source: str, flags: int) -> None:
    expected = re.compile(source, flags)
    assert pattern == expected
    assert (pattern.flags, pattern.groups, pattern.groupindex) == (
        expected.flags,
        expected.groups,
        expected.groupindex,
    )
    for text in TEXTS:
        found, wanted = pattern.search(text), expected.search(text)
        assert (found and (found.span(), found.groups())) == (
            wanted and (wanted.span(), wanted.groups())
        )


def _no_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("compiled although a kept code was there")

    monkeypatch.setattr(re._parser, "parse", refuse)  # type: ignore[attr-defined]


@pytest.mark.usefixtures("fresh_state")
def test_kept_codes_give_the_same_patterns_without_compiling(monkeypatch, tmp_path):
    for source, flags in PATTERNS:
        _same(compiled.compile_pattern(source, flags), source, flags)
    assert compiled.save(tmp_path) is True
    monkeypatch.setattr(compiled, "_codes", {})
    compiled.load(tmp_path)
    with monkeypatch.context() as inner:
        _no_compiling(inner)
        built = [compiled.compile_pattern(source, flags) for source, flags in PATTERNS]
    for pattern, (source, flags) in zip(built, PATTERNS, strict=True):
        _same(pattern, source, flags)


@pytest.mark.usefixtures("fresh_state")
def test_a_pattern_re_refuses_is_refused_the_same_way():
    with pytest.raises(re.error):
        compiled.compile_pattern(r"(unbalanced", 0)
    assert compiled.fresh() == []


def _kept_file(tmp_path: Path) -> Path:
    for source, flags in PATTERNS:
        compiled.compile_pattern(source, flags)
    assert compiled.save(tmp_path)
    (kept,) = tmp_path.glob("regex-*.json")
    return kept


@pytest.mark.usefixtures("fresh_state")
@pytest.mark.parametrize(
    "damage",
    ["other python", "not json", "half written", "wrong shape", "code sre refuses", "empty"],
)
def test_a_foreign_or_damaged_file_is_ignored(monkeypatch, tmp_path, damage):
    kept = _kept_file(tmp_path)
    data = json.loads(kept.read_bytes())
    if damage == "other python":  # whose codes would build other patterns here
        data["build"] = "cpython-399 20221023 3.99.0 (main, Jan  1 2030)"
        codes = [code[3] for code in data["codes"]]
        for code, other in zip(data["codes"], codes[1:] + codes[:1], strict=True):
            code[3] = other
        kept.write_text(json.dumps(data))
    elif damage == "not json":
        kept.write_bytes(b"\x00\xff binary garbage")
    elif damage == "half written":
        kept.write_bytes(kept.read_bytes()[: kept.stat().st_size // 2])
    elif damage == "wrong shape":
        kept.write_text(json.dumps({"build": data["build"], "codes": [["only a source"]]}))
    elif damage == "code sre refuses":
        for code in data["codes"]:
            code[3] = [99999, 1, 2]  # no such opcode: `_sre` validates what it is given
        kept.write_text(json.dumps(data))
    else:
        kept.write_bytes(b"")
    monkeypatch.setattr(compiled, "_codes", {})
    monkeypatch.setattr(compiled, "_fresh", [])
    compiled.load(tmp_path)
    for source, flags in PATTERNS:
        _same(compiled.compile_pattern(source, flags), source, flags)
    assert len(compiled.fresh()) == len(PATTERNS)  # compiled anew, kept by the next save


@pytest.mark.usefixtures("fresh_state")
def test_save_writes_only_when_something_new_was_compiled(tmp_path):
    assert compiled.save(tmp_path) is False
    assert not tmp_path.exists() or not any(tmp_path.iterdir())
    kept = _kept_file(tmp_path)
    stamp = kept.stat().st_mtime_ns
    compiled.compile_pattern(*PATTERNS[0])  # already kept
    assert compiled.save(tmp_path) is False
    assert kept.stat().st_mtime_ns == stamp
    assert sorted(p.name for p in tmp_path.iterdir()) == [kept.name]  # no temporary left


@pytest.mark.usefixtures("fresh_state")
def test_a_folder_that_cannot_be_written_only_costs_the_cache(tmp_path):
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    compiled.compile_pattern(*PATTERNS[0])
    assert compiled.save(blocker / "cache") is False
    if os.geteuid() != 0:  # root writes into a read-only folder all the same
        folder = tmp_path / "read-only"
        folder.mkdir()
        folder.chmod(0o500)
        try:
            assert compiled.save(folder) is False
            assert list(folder.iterdir()) == []
        finally:
            folder.chmod(0o700)
    assert compiled.fresh()  # still waiting for a folder that takes them


@pytest.mark.usefixtures("fresh_state")
def test_codes_a_split_scans_child_compiled_are_kept_by_the_parent(monkeypatch, tmp_path):
    """The child of a split scan hands over its codes in its msgpack report (`scan.split`)."""
    for source, flags in PATTERNS[:2]:
        compiled.compile_pattern(source, flags)
    handed = msgspec.msgpack.decode(msgspec.msgpack.encode(compiled.fresh()), type=list[Code])
    monkeypatch.setattr(compiled, "_codes", {})
    monkeypatch.setattr(compiled, "_fresh", [])
    compiled.adopt([*handed, "not a code"])  # type: ignore[list-item]
    assert compiled.save(tmp_path)
    monkeypatch.setattr(compiled, "_codes", {})
    compiled.load(tmp_path)
    with monkeypatch.context() as inner:
        _no_compiling(inner)
        for source, flags in PATTERNS[:2]:
            _same(compiled.compile_pattern(source, flags), source, flags)


DEMO = Path(__file__).resolve().parents[2] / "sample_sessions" / "claude" / "demo.jsonl"


def _scan(cache: Path) -> str:
    env = {**os.environ, "PIVOTAL_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-m", "pivotal", "scan", "--json", str(DEMO)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def test_a_scan_keeps_the_codes_and_answers_the_same_with_them(tmp_path):
    cache = tmp_path / "cache"
    first = _scan(cache)
    (kept,) = cache.glob("regex-*.json")
    assert json.loads(kept.read_bytes())["codes"]
    assert json.loads(kept.read_bytes())["plans"]
    assert _scan(cache) == first
    kept.write_bytes(b'{"build": "damaged')
    assert _scan(cache) == first  # and replaced by a whole file again
    assert json.loads(kept.read_bytes())["codes"]


@pytest.mark.usefixtures("fresh_state")
def test_a_temporary_file_a_killed_run_left_does_not_stop_the_next_save(tmp_path):
    compiled.compile_pattern(*PATTERNS[0])
    tmp_path.mkdir(exist_ok=True)
    left = tmp_path / f".regex-{sys.implementation.cache_tag}.json.{os.getpid()}.tmp"
    left.write_text("half a file from a run that was killed")
    assert compiled.save(tmp_path) is True
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"regex-{sys.implementation.cache_tag}.json"
    ]


# word lists as the lexicon writes them: `\b` groups (gap-searched), flags, a `(?i:...)` tail
LAZY = [
    (r"\bshall i\b|\bwant me to\b|\bshould i\b|✅", 0),
    (r"\b(?:proceed|continue|go ahead)\b|是否继续", re.IGNORECASE),
    (r"\bFAILED\b|(?i:\btraceback\b|\berror:)", 0),
]
LAZY_TEXTS = [*TEXTS, "Want me to go ahead? ✅", "Traceback (most recent call last)", "FAILED x"]


def _spans() -> list[object]:
    from pivotal.detect.lazyre import lazy

    out: list[object] = []
    for source, flags in LAZY:
        pattern = lazy(source, flags)
        exact = re.compile(source, flags)
        for text in LAZY_TEXTS:
            first = pattern.first(text)  # type: ignore[attr-defined]
            found = exact.search(text)
            assert first == (found.span() if found else None)
            hits = [m.span() for m in pattern.finditer(text)]
            assert hits == [m.span() for m in exact.finditer(text)]
            out += [first, hits]
    return out


@pytest.mark.usefixtures("fresh_state")
def test_kept_plans_give_the_same_matches_without_planning(monkeypatch, tmp_path):
    """A lazy pattern's plan (factored source, gap forms) comes back from the file: no string
    work is done again, and every match is the one `re` gives."""
    from pivotal.detect import lazyre

    planned = _spans()
    assert compiled.save(tmp_path) is True
    monkeypatch.setattr(compiled, "_plans", {})
    compiled.load(tmp_path)
    assert compiled._plans

    def refuse(*_args: object) -> None:
        raise AssertionError("planned although a kept plan was there")

    with monkeypatch.context() as inner:
        for name in ("factored", "_span_plan", "_planned_parts"):
            inner.setattr(lazyre, name, refuse)
        assert _spans() == planned


@pytest.mark.usefixtures("fresh_state")
def test_plans_made_by_other_planning_code_are_planned_again(monkeypatch, tmp_path):
    planned = _spans()
    assert compiled.save(tmp_path) is True
    (kept,) = tmp_path.glob("regex-*.json")
    data = json.loads(kept.read_bytes())
    assert data["planner"]
    data["planner"] = "0badc0de"  # what an older pivotal's planning code wrote
    for key in data["plans"]:
        data["plans"][key] = "a plan this code would not make"
    kept.write_text(json.dumps(data))
    monkeypatch.setattr(compiled, "_plans", {})
    monkeypatch.setattr(compiled, "_new_plans", [])
    compiled.load(tmp_path)
    assert compiled._plans == {}
    assert _spans() == planned
    assert compiled.unsaved()  # planned anew: the next save keeps this code's plans


@pytest.mark.usefixtures("fresh_state")
def test_plans_a_split_scans_child_made_are_kept_by_the_parent(monkeypatch, tmp_path):
    planned = _spans()
    handed = msgspec.msgpack.decode(msgspec.msgpack.encode(compiled.new_plans()))
    monkeypatch.setattr(compiled, "_plans", {})
    monkeypatch.setattr(compiled, "_new_plans", [])
    compiled.adopt([], handed)
    assert compiled.save(tmp_path)
    monkeypatch.setattr(compiled, "_plans", {})
    compiled.load(tmp_path)
    assert set(compiled._plans) == set(handed)
    assert _spans() == planned
