"""Start-up trims for the command line: every `pivotal scan` pays its imports.

msgspec imports typing_extensions only for backports of typing features
(`get_type_hints` with extras, `Required` / `NotRequired`) that Python 3.11's
own `typing` has, and falls back to `typing` when typing_extensions cannot be
imported. Importing it drags in inspect, ast, dis and tokenize: about 7 ms, a
twentieth of a 100 MB scan. `load_msgspec` imports msgspec with
typing_extensions hidden and then un-hides it, so anything imported later
(Textual uses it) gets it as usual.
"""

from __future__ import annotations

import sys


def load_msgspec() -> None:
    """Import msgspec without typing_extensions, unless either is already loaded.

    A msgspec that needs typing_extensions after all fails the hidden import;
    it is then imported the ordinary way by whoever imports it next.
    """
    if "msgspec" in sys.modules or "typing_extensions" in sys.modules:
        return
    sys.modules["typing_extensions"] = None  # type: ignore[assignment]  # "cannot import"
    try:
        import msgspec  # noqa: F401
    except ImportError:
        for name in [m for m in sys.modules if m == "msgspec" or m.startswith("msgspec.")]:
            del sys.modules[name]
    finally:
        if "typing_extensions" in sys.modules and sys.modules["typing_extensions"] is None:
            del sys.modules["typing_extensions"]
