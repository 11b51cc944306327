"""A batch read's turns find their parts in the file as it is when they are asked for.

Cline and Continue rewrite their session document whole. A batch read of one
(`scan`, an export, the replayer) keeps where each turn's items were; when the
client has rewritten the file since, an item that moved is found again by its
bytes, and one that is gone (or a file caught mid-rewrite) gives the turn no parts
instead of a traceback, until the file is whole again.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pivotal.model import SessionRef
from pivotal.readers import read_session
from pivotal.readers.base import preview_of
from pivotal.readers.lazy_items import preview_cut

from .realhome import REAL

SHORT = REAL / "continue-short/.continue/sessions/7a59d172-ef47-48c9-9ad5-d98b6911cebf.json"


def shown(session) -> list[tuple]:
    return [
        (
            turn.role,
            turn.text,
            [(c.call_id, c.name, repr(c.input), c.output, c.status) for c in turn.tool_calls],
        )
        for turn in session.turns
    ]


def written(path: Path, doc: dict) -> None:
    """As Continue writes it: `JSON.stringify(doc, null, 2)`."""
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False))


def test_items_moved_by_a_rewrite_are_found_again(tmp_path: Path) -> None:
    path = tmp_path / SHORT.name
    shutil.copy(SHORT, path)
    ref = SessionRef(format="continue", path=path)
    expected = shown(read_session(ref))
    assert any(turn[2] for turn in expected)  # tool calls, with their outputs
    session = read_session(ref)
    doc = json.loads(SHORT.read_text())
    # a longer title in front, one more item behind: every item is somewhere else
    doc = {"title": "A much longer title " * 20, **{k: v for k, v in doc.items() if k != "title"}}
    doc["history"].append({"message": {"role": "user", "content": "thanks"}, "contextItems": []})
    written(path, doc)
    assert shown(session) == expected


def test_a_rewrite_caught_half_way_gives_no_parts_then_them_again(tmp_path: Path) -> None:
    path = tmp_path / SHORT.name
    shutil.copy(SHORT, path)
    ref = SessionRef(format="continue", path=path)
    expected = shown(read_session(ref))
    session = read_session(ref)
    whole = b'{\n  "padding": "x",' + SHORT.read_bytes()[1:]  # every item moved
    path.write_bytes(whole[: len(whole) // 3])  # the client is mid-rewrite
    half = shown(session)
    assert [turn[0] for turn in half] == [turn[0] for turn in expected]  # the index stays
    assert half != expected  # the items not yet rewritten have no parts yet
    path.write_bytes(whole)
    assert shown(session) == expected


def test_a_deleted_file_leaves_the_index_without_parts(tmp_path: Path) -> None:
    path = tmp_path / SHORT.name
    shutil.copy(SHORT, path)
    session = read_session(SessionRef(format="continue", path=path))
    path.unlink()
    assert session.turns
    assert all(turn.parts == [] for turn in session.turns)


PIECES = st.sampled_from(["a", "b c", " ", "\n", "\u00a0", " " * 90, "w" * 120, "\u2028\t"])
TEXTS = st.lists(st.lists(PIECES, max_size=24).map("".join), max_size=4)
"""Texts around the preview's 200 characters: long runs of white space and of words."""


@given(TEXTS)
def test_a_preview_cut_of_each_text_gives_the_same_preview(texts: list[str]) -> None:
    """Vibe's and Kilo's indexes keep of each text only what a preview can show: the turn's
    preview of the texts joined (as `Turn.text` joins them) comes out the same."""
    texts = [t for t in texts if t]  # a turn has a part only for a text that is not empty
    cut = [preview_cut(t) for t in texts]
    assert [bool(t) for t in cut] == [True] * len(texts)
    assert preview_of("\n\n".join(cut)) == preview_of("\n\n".join(texts))
    assert all(len(c) <= len(t) + 1 for c, t in zip(cut, texts, strict=True))
