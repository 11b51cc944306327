"""Big index passes run with the cyclic garbage collector paused, and always resume it."""

from __future__ import annotations

import gc

import pytest

from pivotal.model import SessionRef
from pivotal.readers import lines
from pivotal.readers.claude_code import ClaudeCodeReader


class _Spy(ClaudeCodeReader):
    """Records whether the collector was running while lines were handled."""

    seen: list[bool]

    def handle_lines(self, batch):  # type: ignore[no-untyped-def]
        self.seen.append(gc.isenabled())
        super().handle_lines(batch)


class _Boom(ClaudeCodeReader):
    def handle_lines(self, batch):  # type: ignore[no-untyped-def]
        raise RuntimeError("a reader bug")


def _session(tmp_path, lines: int):
    path = tmp_path / "s.jsonl"
    record = '{"type":"user","uuid":"u%d","sessionId":"s","message":{"role":"user","content":"hi"}}'
    path.write_text("\n".join(record % i for i in range(lines)) + "\n")
    return SessionRef("claude-code", path)


def test_big_read_pauses_the_collector_and_resumes_it(tmp_path, monkeypatch):
    monkeypatch.setattr(lines, "GC_PAUSE_BYTES", 1024)
    reader = _Spy(_session(tmp_path, 200))
    reader.seen = []
    assert gc.isenabled()
    reader.poll(final=True)
    assert reader.seen and not any(reader.seen)
    assert gc.isenabled()
    assert len(reader.session.turns) == 200


def test_small_read_leaves_the_collector_alone(tmp_path):
    reader = _Spy(_session(tmp_path, 5))
    reader.seen = []
    reader.poll(final=True)
    assert reader.seen == [True]


def test_collector_resumes_when_a_read_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(lines, "GC_PAUSE_BYTES", 1024)
    with pytest.raises(RuntimeError):
        _Boom(_session(tmp_path, 200)).poll(final=True)
    assert gc.isenabled()


def test_collector_disabled_by_the_caller_stays_disabled(tmp_path, monkeypatch):
    monkeypatch.setattr(lines, "GC_PAUSE_BYTES", 1024)
    gc.disable()
    try:
        reader = _Spy(_session(tmp_path, 200))
        reader.seen = []
        reader.poll(final=True)
        assert not gc.isenabled()
    finally:
        gc.enable()
