"""`pivotal.cli.startup.load_msgspec`: msgspec without typing_extensions, and nothing else changed.

Each case runs in a fresh interpreter: what is being checked is the state of
`sys.modules` that an import leaves behind.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def run(code: str, *, path: Path | None = None) -> str:
    env_path = [str(path)] if path else []
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.path[:0] = {env_path!r}\n" + textwrap.dedent(code),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_msgspec_loads_without_typing_extensions_and_then_it_is_importable_again():
    out = run(
        """
        from pivotal.cli.startup import load_msgspec
        load_msgspec()
        hidden = "typing_extensions" not in sys.modules and "inspect" not in sys.modules
        import typing_extensions
        import textual.app  # Textual needs it: the hiding must not outlive the import
        print(hidden, "msgspec" in sys.modules, typing_extensions.__name__)
        """
    )
    assert out == "True True typing_extensions"


def test_msgspec_still_reads_typed_records_through_typing():
    out = run(
        """
        from pivotal.cli.startup import load_msgspec
        load_msgspec()
        from typing import NotRequired, TypedDict
        import msgspec
        from pivotal.model import SourceRef

        class Rec(TypedDict):
            type: str
            uuid: NotRequired[str]

        print(msgspec.json.decode(b'{"type": "user"}', type=Rec))
        print(msgspec.json.decode(b'{"line": 3}', type=SourceRef))
        """
    )
    assert out.splitlines() == [
        "{'type': 'user'}",
        "SourceRef(line=3, record_id=None, offset=None)",
    ]


def test_nothing_is_hidden_when_typing_extensions_is_already_loaded():
    out = run(
        """
        import typing_extensions
        from pivotal.cli.startup import load_msgspec
        load_msgspec()
        import msgspec._utils
        print(msgspec._utils._get_type_hints is typing_extensions.get_type_hints)
        """
    )
    assert out == "True"


def test_a_msgspec_that_insists_on_typing_extensions_is_imported_normally(tmp_path: Path):
    fake = tmp_path / "msgspec"
    fake.mkdir()
    (fake / "__init__.py").write_text("import typing_extensions\nLOADED_WITH = typing_extensions\n")
    out = run(
        """
        from pivotal.cli.startup import load_msgspec
        load_msgspec()
        print("msgspec" in sys.modules, "typing_extensions" in sys.modules)
        import msgspec
        print(msgspec.LOADED_WITH.__name__)
        """,
        path=tmp_path,
    )
    assert out.splitlines() == ["False False", "typing_extensions"]
