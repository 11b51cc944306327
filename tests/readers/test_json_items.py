"""A JSON document read item by item (`json_items`) reads as `decode_json` reads it whole.

Cline's and Continue's sessions are one document rewritten whole; the readers take
its big array one item at a time instead of decoding it at once (issue 34: 3.6
times a 1 GB session). Whatever the document (indented as the clients write it or
not, cut anywhere, a byte changed, raw control bytes in its strings, items longer
than the read buffer), the items handed on, their offsets and the other members
are what the whole document decodes to, and a document the whole decode refuses is
refused too.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pivotal.readers import json_items
from pivotal.readers.base import decode_json
from pivotal.readers.json_items import ITEMS, scan_document

from .fuzzing import FUZZ_SETTINGS

KEY = "history"
REFUSED = "refused"


def items_read(path: Path, key: str = KEY) -> object:
    """The document as `scan_document` gives it, its items put back in place (or REFUSED)."""
    data = path.read_bytes()
    items: list[object] = []

    def each(offset: int, item: memoryview) -> None:
        assert data[offset : offset + len(item)] == item  # the offset is the item's, in the file
        items.append(decode_json(item))

    fd = os.open(path, os.O_RDONLY)
    try:
        found = scan_document(fd, len(data), key, each, items.clear)
    except ValueError:
        return REFUSED
    finally:
        os.close(fd)
    if found is ITEMS:
        return items
    if isinstance(found, dict) and found.get(key) is ITEMS:
        return {**found, key: items}
    return found


def whole(data: bytes) -> object:
    try:
        return decode_json(data)
    except ValueError:
        return REFUSED


def check(tmp: Path, data: bytes) -> None:
    path = tmp / "doc.json"
    path.write_bytes(data)
    assert items_read(path) == whole(data)


VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet='ab "\\\n}]{[:,\x1b\t\u00e9\U0001f600', max_size=12),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["a", KEY, "b c", '"q"']), children, max_size=4)
    ),
    max_leaves=20,
)
DOCUMENTS = VALUES | st.fixed_dictionaries(
    {"sessionId": st.text(max_size=5), KEY: st.lists(VALUES, max_size=6), "usage": VALUES}
)


@FUZZ_SETTINGS
@given(
    DOCUMENTS,
    st.sampled_from([None, 2, 4, "\t"]),
    st.booleans(),
    st.sampled_from([3, 64, 1 << 20]),
    st.data(),
)
def test_any_document_reads_as_the_whole_decode_reads_it(
    doc, indent, raw_controls, chunk, data
) -> None:
    text = json.dumps(doc, indent=indent, ensure_ascii=data.draw(st.booleans()))
    encoded = text.encode()
    if raw_controls:  # escapes written as the raw bytes (repaired item by item)
        encoded = encoded.replace(b"\\u001b", b"\x1b").replace(b"\\t", b"\t")
    damage = data.draw(st.sampled_from(["none", "cut", "byte"]))
    if damage != "none" and encoded:
        at = data.draw(st.integers(0, len(encoded) - 1))
        if damage == "cut":
            encoded = encoded[:at]
        else:
            encoded = encoded[:at] + bytes([data.draw(st.integers(0, 255))]) + encoded[at + 1 :]
    original = json_items.CHUNK
    json_items.CHUNK = chunk  # items and strings cut by the read buffer, often
    try:
        with tempfile.TemporaryDirectory(prefix="pivotal-items-") as folder:
            check(Path(folder), encoded)
    finally:
        json_items.CHUNK = original


@pytest.mark.parametrize(
    "data",
    [
        b'{"history": [1, 2], "history": [3]}',  # the last one counts, as in a dict
        b'{"history": [1, 2], "history": "x"}',
        b'\xef\xbb\xbf{"history": [{"a": 1}]}',  # a BOM
        b'  [1, {"a": [2]} , "x"]  ',  # the document itself is the array
        b'{"history": [1,]}',
        b'{"history": [1 2]}',
        b'{"history" [1]}',
        b'{"history": [\x0c1]}',  # not JSON white space
        b'{"a": 1} x',
        b"",
        b"   ",
        b"{}",
        b"[]",
        b'"text"',
        b'{"history": [\n    {\n      "a": "\\n    }"\n    }\n  ]\n}',
        # an inner object closed at the item's indentation: the guess is checked
        b'{"history": [\n    {\n      "a": {\n    },\n      "b": 1\n    },\n    2\n  ]\n}',
        b'{"history": [\n    {\n      "a": "\x1b[31mred\x1b[0m"\n    }\n  ]\n}',
    ],
)
def test_documents_that_once_went_wrong_or_might(tmp_path: Path, data: bytes) -> None:
    check(tmp_path, data)


def test_an_item_longer_than_the_buffer_is_read_whole(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(json_items, "CHUNK", 1024)
    doc = {"sessionId": "s", KEY: [{"out": "x" * 50_000}, {"out": "\\" * 30_001 + '"'}, 3]}
    for indent in (None, 2):
        check(tmp_path, json.dumps(doc, indent=indent).encode())


def test_an_error_names_the_byte_of_the_file(tmp_path: Path) -> None:
    data = b'{"history": [1, 2, {"a": tru}]}'
    path = tmp_path / "doc.json"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        with pytest.raises(ValueError) as raised:
            scan_document(fd, len(data), KEY, lambda offset, item: decode_json(item))
    finally:
        os.close(fd)
    with pytest.raises(ValueError) as at_once:
        decode_json(data)
    expected = "JSON is malformed: invalid character (byte 29)"
    assert str(raised.value) == str(at_once.value) == expected
