"""pivotal: replay AI coding-agent sessions and stop at the silent pivots.

Importing any part of pivotal imports msgspec first, without `typing_extensions`.
msgspec treats that package as optional (it only reads type hints with it, which
Python 3.11's `typing` does as well for every struct here), yet imports it when it
is installed, and it is (Textual needs it): 7-8 ms of `inspect`, `ast` and `dis`
at the start of every headless command, a twentieth of a 100 MB scan. It is
hidden for that one import only, so Textual and anything else still import it.
"""

import sys as _sys


def _import_msgspec_lean() -> None:
    if "msgspec" in _sys.modules or "typing_extensions" in _sys.modules:
        return  # too late to matter, or already paid for
    _sys.modules["typing_extensions"] = None  # type: ignore[assignment]  # import fails fast
    try:
        import msgspec  # noqa: F401
    finally:
        if "typing_extensions" in _sys.modules and _sys.modules["typing_extensions"] is None:
            del _sys.modules["typing_extensions"]


_import_msgspec_lean()

__version__ = "0.1.0"
