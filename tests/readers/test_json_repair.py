"""JSON that msgspec refuses is repaired without losing the record, in bounded memory (issue 34).

A record holding raw control bytes (a tool's colour escapes written unescaped),
invalid UTF-8 or a lone surrogate escape is read, its text kept as written. The
repair must not cost a multiple of the record: one JSON document can be a whole
35 MB session, and its repair took 1.2 GB.
"""

from __future__ import annotations

import gc
import json
import tracemalloc

import pytest

from pivotal.readers.base import decode_json

ESC = "\x1b"


def coloured_words(count: int) -> list[str]:
    return [f"{ESC}[3{n % 8}mword{n}{ESC}[0m" for n in range(count)]


def raw_json(value: object) -> bytes:
    """`value` as JSON with its ESC characters written as raw bytes (what msgspec refuses)."""
    return json.dumps(value).replace("\\u001b", ESC).encode()


def test_raw_colour_escapes_are_read_as_the_text_they_stand_for() -> None:
    words = coloured_words(50)
    doc = {"output": " ".join(words), "more": [ESC, "\x00\x07\x1f", "plain"]}
    assert decode_json(raw_json(doc)) == doc


def test_a_valid_surrogate_pair_survives_a_lone_surrogate_elsewhere() -> None:
    # a string cut inside an emoji (a lone high half) next to a whole emoji: before,
    # the whole emoji's low half was taken for lone too and the record was lost
    data = b'["\\ud83d\\ude00 ok", "cut \\ud83d", "\\ude00 alone", "\\uD83D\\uDE00\\uDE00"]'
    assert decode_json(data) == ["\U0001f600 ok", "cut \ufffd", "\ufffd alone", "\U0001f600\ufffd"]


def test_pieces_of_a_big_record_join_where_they_were_cut() -> None:
    # a 3-byte character straddling the repair's piece boundary, raw escapes on both
    # sides of it, an invalid byte and a lone surrogate far apart: all as one record
    from pivotal.readers.json_repair import CHUNK

    before = len('{"t": "') + len(f"{ESC}[31m")  # what the document holds before the "€"
    head = "a" * (CHUNK - 1 - before)
    text = head + f"{ESC}[31m€uro{ESC}[0m" + "b" * 100
    data = json.dumps({"t": text, "u": "x\\ud800y"}, ensure_ascii=False)
    data = data.replace("\\u001b", ESC).encode()
    data = data.replace(b"\\\\ud800", b"\\ud800")  # the lone escape itself, not its text
    position = data.index("€".encode())
    assert position < CHUNK < position + 3  # the euro sign is cut by the first piece
    data = data.replace(b"bbbb", b"b\xffbb", 1)  # invalid UTF-8 after the boundary
    decoded = decode_json(data)
    assert decoded == {"t": text.replace("bbbb", "b\ufffdbb", 1), "u": "x\ufffdy"}


def test_a_document_full_of_raw_escapes_is_repaired_in_a_bounded_memory() -> None:
    words = coloured_words(300_000)  # ~4.6 MB, two ESC bytes per word
    data = raw_json(
        {"history": [{"output": " ".join(words[i : i + 40])} for i in range(0, len(words), 40)]}
    )
    gc.collect()
    tracemalloc.start()
    try:
        doc = decode_json(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert doc["history"][1]["output"] == " ".join(words[40:80])
    # the repaired copy (raw ESC -> \u001b: 1.6 times the record) and the decoded strings;
    # a substitution over the whole record took ~40 times it
    assert peak <= 3 * len(data), f"peak {peak / len(data):.1f} times the record"


@pytest.mark.parametrize(
    "bad",
    [
        b'{"a": "x\x1by"}',  # repaired and decoded
        b'{"a": 1,',  # not JSON at all: a ValueError
    ],
)
def test_a_refused_record_leaves_no_reference_cycle_behind(bad: bytes) -> None:
    # readers pause the cyclic collector during big reads: a cycle made per bad line
    # (the decode error holding the frame that holds the repaired copy) stayed until the
    # end of the read, one copy per line (Kimi and Qwen files of raw escapes: 5.5x the file)
    gc.collect()
    gc.disable()
    try:
        try:
            decode_json(bad)
        except ValueError:
            pass
        assert gc.collect() == 0
    finally:
        gc.enable()
