"""follow(): a writer appends to a session while the tail reads it (notifications and polling)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pivotal.live.tail import follow, merge_updates
from pivotal.readers.base import Update

from .chat_reader import chat_reader, record
from .helpers import Collector, Writer, wait_until


@pytest.fixture(params=["inotify", "watchfiles", "polling"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


def start(path: Path, backend: str, **kwargs: object):
    reader = chat_reader(path)
    stop = asyncio.Event()
    stream = follow(reader, stop=stop, backend=backend, **kwargs)  # type: ignore[arg-type]
    return reader, Collector(stream, stop)


def texts(reader) -> list[str]:
    return [turn.text for turn in reader.session.turns]


async def test_initial_read_then_several_records_in_one_write(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "s.jsonl"
    writer = Writer(path)
    writer.append(record("user", "fix the build") + record("assistant", "looking"))
    reader, tail = start(path, backend)
    first = await tail.wait_for(lambda u: True)
    assert first.first_changed == 0 and not first.reloaded
    assert texts(reader) == ["fix the build", "looking"]

    writer.append(record("assistant", "ran make") + record("user", "") + record("assistant", "ok"))
    update = await tail.wait_for(lambda u: u.first_changed == 2)
    await wait_until(lambda: len(reader.session.turns) == 5)
    assert texts(reader)[2:] == ["ran make", "", "ok"]
    assert reader.session.turns[3].is_human  # an empty message is still a human turn
    assert update.notice is None and not update.gone
    await tail.close()
    assert all(u.changed or u.notice or u.gone for u in tail.items)
    writer.assert_untouched()


async def test_record_split_across_writes_is_never_parsed_half(
    tmp_path: Path, backend: str
) -> None:
    path = tmp_path / "s.jsonl"
    writer = Writer(path)
    writer.append(record("user", "start"))
    reader, tail = start(path, backend)
    await tail.wait_for(lambda u: True)

    line = record("assistant", "a reply written in two pieces")
    writer.append(line[:17])
    # the tail has read the half line (its offset reached the end of the file) ...
    await wait_until(lambda: reader.progress[0] == len(writer.expected))
    # ... but held it back: no turn, nothing skipped
    assert len(reader.session.turns) == 1 and reader.session.skipped == []

    writer.append(line[17:])
    await tail.wait_for(lambda u: u.first_changed == 1)
    assert texts(reader) == ["start", "a reply written in two pieces"]
    assert reader.session.skipped == []
    await tail.close()
    writer.assert_untouched()


async def test_truncation_reloads_with_a_notice(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "s.jsonl"
    writer = Writer(path)
    writer.append(record("user", "one") + record("assistant", "two"))
    reader, tail = start(path, backend)
    await tail.wait_for(lambda u: True)

    writer.truncate()
    update = await tail.wait_for(lambda u: u.reloaded)
    assert "truncated" in (update.notice or "")
    assert reader.session.turns == []

    writer.append(record("user", "fresh start"))
    await wait_until(lambda: texts(reader) == ["fresh start"])
    await tail.close()
    writer.assert_untouched()


async def test_replacement_by_rename_reloads(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "s.jsonl"
    writer = Writer(path)
    writer.append(record("user", "old one") + record("assistant", "old two"))
    reader, tail = start(path, backend)
    await tail.wait_for(lambda u: True)

    writer.replace(record("user", "rotated") + record("assistant", "new") + record("user", "x"))
    update = await tail.wait_for(lambda u: u.reloaded)
    assert "replaced" in (update.notice or "")
    assert update.first_changed == 0
    await wait_until(lambda: texts(reader) == ["rotated", "new", "x"])

    writer.append(record("assistant", "still followed after the rename"))
    await wait_until(lambda: len(reader.session.turns) == 4)
    await tail.close()
    writer.assert_untouched()


async def test_deletion_keeps_turns_and_resumes_when_the_file_reappears(
    tmp_path: Path, backend: str
) -> None:
    path = tmp_path / "s.jsonl"
    writer = Writer(path)
    writer.append(record("user", "keep me") + record("assistant", "me too"))
    reader, tail = start(path, backend)
    await tail.wait_for(lambda u: True)

    writer.delete()
    gone = await tail.wait_for(lambda u: u.gone)
    assert gone.notice and "gone" in gone.notice
    assert texts(reader) == ["keep me", "me too"]

    writer.append(record("user", "born again"))
    back = await tail.wait_for(lambda u: u.reloaded)
    await wait_until(lambda: texts(reader) == ["born again"])
    assert back.notice and not back.gone
    writer.append(record("assistant", "and growing"))
    await wait_until(lambda: len(reader.session.turns) == 2)
    await tail.close()
    # the deletion was said once, however many times the tail looked meanwhile
    assert sum(1 for u in tail.items if u.gone) == 1
    writer.assert_untouched()


async def test_writes_to_other_files_in_the_directory_are_ignored(
    tmp_path: Path, backend: str
) -> None:
    path = tmp_path / "s.jsonl"
    other = Writer(tmp_path / "other.jsonl")
    writer = Writer(path)
    writer.append(record("user", "mine"))
    reader, tail = start(path, backend)
    await tail.wait_for(lambda u: True)
    for i in range(20):
        other.append(record("assistant", f"someone else {i}"))
    writer.append(record("assistant", "mine too"))
    await wait_until(lambda: len(reader.session.turns) == 2)
    await tail.close()
    assert [u.first_changed for u in tail.items] == [0, 1]


async def test_a_file_that_does_not_exist_yet_is_followed_once_it_appears(
    tmp_path: Path, backend: str
) -> None:
    folder = tmp_path / "later"
    path = folder / "s.jsonl"
    reader, tail = start(path, backend)
    first = await tail.wait_for(lambda u: True)
    assert first.gone

    folder.mkdir()
    writer = Writer(path)
    writer.append(record("user", "hello"))
    await wait_until(lambda: texts(reader) == ["hello"])
    writer.append(record("assistant", "hi"))
    await wait_until(lambda: texts(reader) == ["hello", "hi"])
    await tail.close()
    writer.assert_untouched()


async def test_malformed_record_is_skipped_and_counted(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "s.jsonl"
    writer = Writer(path)
    writer.append(record("user", "a"))
    reader, tail = start(path, backend)
    await tail.wait_for(lambda u: True)
    writer.append(b'{"role": "assistant", "content": \n' + record("assistant", "b"))
    update = await tail.wait_for(lambda u: u.new_skipped > 0)
    await wait_until(lambda: texts(reader) == ["a", "b"])
    assert update.new_skipped == 1 and len(reader.session.skipped) == 1
    await tail.close()


async def test_initial_read_in_small_slices_is_one_update(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    Writer(path).append(b"".join(record("user", f"m{i}") for i in range(200)))
    reader, tail = start(path, "polling", budget=64)
    first = await tail.wait_for(lambda u: True)
    assert first.first_changed == 0
    assert len(reader.session.turns) == 200
    await tail.close()
    assert len(tail.items) == 1


async def test_stop_ends_the_follow_and_breaking_out_is_clean(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    Writer(path).append(record("user", "a"))
    stream = follow(chat_reader(path))
    async for update in stream:
        assert update.first_changed == 0
        break
    await stream.aclose()

    stop = asyncio.Event()
    tail = Collector(follow(chat_reader(path), stop=stop), stop)
    await tail.wait_for(lambda u: True)
    await tail.close()  # sets stop; the task must end by itself
    assert tail.task.done()


def test_merge_updates_keeps_the_lowest_change_and_every_notice() -> None:
    a = Update(first_changed=5, notice="x was truncated; reloaded", new_skipped=1)
    b = Update(first_changed=2, reloaded=True, notice="x was replaced", new_skipped=2)
    merged = merge_updates(a, b)
    assert merged.first_changed == 2 and merged.reloaded and merged.new_skipped == 3
    assert merged.notice == "x was truncated; reloaded; x was replaced"
    assert merge_updates(Update(), Update()).changed is False
    assert merge_updates(Update(gone=True), Update(first_changed=0)).gone is False


async def test_a_symlinked_session_is_followed_where_it_really_lives(
    tmp_path: Path, backend: str
) -> None:
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    writer = Writer(real_dir / "s.jsonl")
    writer.append(record("user", "via a link"))
    link = tmp_path / "latest.jsonl"
    link.symlink_to(writer.path)
    reader, tail = start(link, backend)
    await tail.wait_for(lambda u: True)
    writer.append(record("assistant", "seen through the link"))
    await wait_until(lambda: texts(reader) == ["via a link", "seen through the link"])
    await tail.close()
    writer.assert_untouched()
