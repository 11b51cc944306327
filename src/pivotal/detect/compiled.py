"""The detector's regular expressions, compiled once per Python build, not once per run.

Why: the detector's patterns are long alternations and `re` compiles in pure
Python, about 17 ms of every process that judges a silence: most of the
detection of a small session, and paid by both processes of a split scan
(`pivotal.scan.split`). What `re` compiles a pattern to (its "sre code", a list
of numbers) depends only on the pattern, its flags and the Python build, so
`save` keeps the codes this process compiled in the cache folder and `load`
takes them back, as Python keeps compiled modules in `__pycache__`. A pattern
with a kept code is built from it at once, by the same call `re` ends with;
any other is compiled as usual. A file from another build, or one that does not
read back, is ignored (and replaced by the next save): the cache can only make
a compile faster, never change what a pattern matches.

The same file keeps the lazy patterns' plans (`remembered`): what `lazyre` and
`wordgap` work out from a pattern's source before compiling anything (its factored
form, its word groups' gap forms), ~3 ms of string work in every process that judges
a silence. A plan depends on the planning code, not on Python, so plans are kept
with the size and time of the modules that make them and ignored when those change.
"""

from __future__ import annotations

import _sre
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec

__all__ = [
    "Code",
    "adopt",
    "cache_file",
    "compile_pattern",
    "fresh",
    "load",
    "new_plans",
    "remembered",
    "save",
    "unsaved",
]


class Code(msgspec.Struct, array_like=True):
    """What `_sre.compile` takes for one pattern, as `re` worked it out."""

    source: str
    flags: int
    final_flags: int
    code: list[int]
    groups: int
    groupindex: dict[str, int]
    indexgroup: list[str | None]


class _File(msgspec.Struct):
    build: str
    codes: list[Code]
    planner: str = ""
    """`_planner()` of the code that made `plans`."""
    plans: dict[str, Any] = msgspec.field(default_factory=dict)


_BUILD = f"{sys.implementation.cache_tag} {_sre.MAGIC} {sys.version}"
"""Codes are kept for exactly this Python (its version string names the build)."""
_FILE_NAME = f"regex-{sys.implementation.cache_tag}.json"

_codes: dict[tuple[str, int], Code] = {}
_fresh: list[Code] = []
"""What this process compiled that the cache did not hold (so `save` writes)."""
_plans: dict[str, Any] = {}
_new_plans: list[str] = []
"""The plans this process worked out that the cache did not hold."""
_PLANNERS = ("syntax.py", "wordgap.py", "lazyre.py", "casefold.py", "compiled.py")
_T = TypeVar("_T")


def remembered(kind: str, flags: int, source: str, work: Callable[[], _T]) -> _T:
    """`work()`, the plan of one kind for a pattern, as kept by an earlier run of the same
    planning code, or worked out now (and kept by the next `save`).

    The plan must be made of what JSON holds (str, bool, None, lists): it comes back so.
    """
    key = f"{kind} {flags} {source}"  # as written: a hash would cost an import (~3 ms)
    if key in _plans:
        kept: _T = _plans[key]
        return kept
    value = work()
    _plans[key] = value
    _new_plans.append(key)
    return value


def _planner() -> str:
    """Which planning code this is: the size and time of each module that makes plans (an
    edit, a checkout or another release changes them); "" when one cannot be looked at."""
    here = Path(__file__).parent
    try:
        stats = [os.stat(here / name) for name in _PLANNERS]
    except OSError:
        return ""
    return " ".join(f"{st.st_size}:{st.st_mtime_ns}" for st in stats)


def compile_pattern(source: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(source, flags)`, built from a kept code when there is one."""
    flags = int(flags)
    kept = _codes.get((source, flags))
    if kept is not None:
        try:
            return _built(kept)
        except (RuntimeError, TypeError, ValueError, OverflowError):  # not this build's code
            del _codes[source, flags]
    code = _code_of(source, flags)
    if code is None:
        return re.compile(source, flags)  # this Python's `re` is laid out otherwise
    try:
        pattern = _built(code)
    except (RuntimeError, TypeError, ValueError, OverflowError):
        return re.compile(source, flags)
    _codes[source, flags] = code
    _fresh.append(code)
    return pattern


def cache_file(folder: Path) -> Path:
    """The file `save` writes in `folder` (and `load` reads)."""
    return folder / _FILE_NAME


def unsaved() -> bool:
    """Whether this process compiled or planned anything the cache file does not hold."""
    return bool(_fresh or _new_plans)


def fresh() -> list[Code]:
    """The codes this process compiled (or adopted) since its last `save` (a split scan's
    child hands them to the parent, which saves them)."""
    return list(_fresh)


def new_plans() -> dict[str, Any]:
    """The plans this process worked out that the cache did not hold (as `fresh`)."""
    return {key: _plans[key] for key in _new_plans}


def adopt(codes: list[Code], plans: dict[str, Any] | None = None) -> None:
    """Take codes and plans another process made (`fresh`, `new_plans`) as if made here."""
    for code in codes:
        if isinstance(code, Code) and (code.source, code.flags) not in _codes:
            _codes[code.source, code.flags] = code
            _fresh.append(code)
    for key, plan in (plans or {}).items():
        if key not in _plans:
            _plans[key] = plan
            _new_plans.append(key)


def _code_of(source: str, flags: int) -> Code | None:
    """The code `re.compile` would give, by the steps it takes; None if they are not there."""
    try:
        parser, compiler = re._parser, re._compiler  # type: ignore[attr-defined]
        parsed = parser.parse(source, flags)  # raises re.error as re.compile would
        code = compiler._code(parsed, flags)
        state = parsed.state
        groupindex = dict(state.groupdict)
        groups = state.groups
        final_flags = int(flags | state.flags)
    except AttributeError:
        return None
    indexgroup: list[str | None] = [None] * groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    numbers = [int(op) for op in code]  # opcodes are int subclasses: kept as plain numbers
    return Code(source, flags, final_flags, numbers, groups - 1, groupindex, indexgroup)


def _built(code: Code) -> re.Pattern[str]:
    return _sre.compile(  # type: ignore[no-any-return]
        code.source,
        code.final_flags,
        code.code,
        code.groups,
        code.groupindex,
        tuple(code.indexgroup),
    )


_decode = msgspec.json.Decoder(_File).decode


def load(folder: Path) -> None:
    """Take back the codes a run of this Python kept in `folder` (nothing if there are none)."""
    try:
        kept = _decode((folder / _FILE_NAME).read_bytes())
    except (OSError, msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return
    if kept.build != _BUILD:
        return
    for code in kept.codes:
        _codes.setdefault((code.source, code.flags), code)
    if kept.plans and kept.planner and kept.planner == _planner():
        for key, plan in kept.plans.items():
            _plans.setdefault(key, plan)


def save(folder: Path) -> bool:
    """Keep this process's codes in `folder` when it compiled new ones; whether it wrote.

    Written to a temporary file and moved into place, so a reader never sees half
    a file; a folder that cannot be written to only means compiling next time.
    """
    if not unsaved():
        return False
    planner = _planner()
    # one name per process: one left by a killed run with this pid is stale, so it is reused
    temporary = folder / f".{_FILE_NAME}.{os.getpid()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    made = False
    try:
        plans = _plans if planner else {}
        data = msgspec.json.encode(_File(_BUILD, list(_codes.values()), planner, plans))
        folder.mkdir(parents=True, exist_ok=True)
        handle = os.open(temporary, flags, 0o600)
        made = True
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, folder / _FILE_NAME)
    except (OSError, TypeError, ValueError):
        if made:
            try:
                os.unlink(temporary)
            except OSError:
                pass
        return False
    _fresh.clear()
    _new_plans.clear()
    return True
