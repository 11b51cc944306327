"""JSON that real files hold but msgspec refuses, made decodable without losing the record.

A UTF-8 BOM is dropped, invalid UTF-8 becomes U+FFFD, a UTF-16 surrogate escape
that is not half of a pair becomes `\\ufffd`, and a raw control byte (which only
ever appears inside a string, where it was meant as text: a tool's colour
escapes written unescaped) becomes its `\\u00XX` escape.

Only run once msgspec has refused a record, but that record may be a whole
session (Continue, Cline and Gemini's legacy chats are one JSON document). So
the repair walks the record in 1 MiB pieces into one growing buffer and needs
the repaired copy and nothing more. A regex substitution over the whole
document keeps one object for every piece it cuts before joining them: a 35 MB
Continue session whose tool output held raw colour escapes peaked at 1.2 GB
that way (issue 34).
"""

from __future__ import annotations

import codecs
import re

__all__ = ["BOM", "repaired"]

BOM = b"\xef\xbb\xbf"
CHUNK = 1 << 20

# a UTF-16 surrogate escape not part of a valid pair (JSON.stringify writes these
# when a string is cut inside an emoji); msgspec rejects them, so they become U+FFFD
_LONE_SURROGATE = re.compile(
    rb"\\u[dD](?:"
    rb"[89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"  # a high half with no low after
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD])[c-fC-F][0-9a-fA-F]{2}"  # a low with no high
    rb")"
)  # (starting with the literal `\u` lets the regex engine skip ahead to each escape)
_REPLACEMENT = b"\\ufffd"  # as long as what it replaces: the buffer is changed in place

# raw control bytes are never valid JSON; tab, newline and CR are whitespace between values
_RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_ESCAPES = [(bytes([c]), b"\\u%04x" % c) for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)]


def repaired(raw: bytes) -> bytearray | None:
    """`raw` with what msgspec refuses made decodable; None when nothing in it needed that."""
    start = len(BOM) if raw.startswith(BOM) else 0
    out = bytearray()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    with memoryview(raw) as view:
        for offset in range(start, len(raw), CHUNK):
            final = offset + CHUNK >= len(raw)
            piece = decoder.decode(view[offset : offset + CHUNK], final).encode(
                "utf-8", "surrogatepass"
            )
            if _RAW_CONTROL.search(piece) is not None:
                piece = _escape_controls(piece)
            out += piece
    if b"\\ud" in out or b"\\uD" in out:
        _replace_lone_surrogates(out)
    if start == 0 and out == raw:
        return None
    return out


def _escape_controls(piece: bytes) -> bytes:
    """Each raw control byte as its `\\u00XX` escape (a few C-speed passes, no list of parts)."""
    for byte, escape in _ESCAPES:
        if byte in piece:
            piece = piece.replace(byte, escape)
    return piece


def _replace_lone_surrogates(out: bytearray) -> None:
    """Overwrite each lone surrogate escape with `\\ufffd`, in place.

    Safe while scanning: a lone half is never next to the other half of a pair,
    so replacing it cannot change whether an escape after it is lone.
    """
    for match in _LONE_SURROGATE.finditer(out):
        out[match.start() : match.end()] = _REPLACEMENT
