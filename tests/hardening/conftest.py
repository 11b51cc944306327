"""Shared hostile samples for the hardening tests."""

from __future__ import annotations

import re

# Each sample: (name, hostile text, a fragment that must be visible in the cleaned output).
HOSTILE = [
    ("osc0 title", "before\x1b]0;pwned\x07after", "␛]0;pwned␇"),
    ("osc2 title st", "x\x1b]2;title\x1b\\y", "␛]2;title␛\\"),
    ("osc52 clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07", "␛]52;c;cm0gLXJmIH4=␇"),
    (
        "osc8 link",
        "\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\",
        "␛]8;;https://evil.example",
    ),
    ("dcs", "\x1bP1$r0;1m\x1b\\", "␛P1$r0;1m␛\\"),
    ("apc", "\x1b_Gf=100;AAAA\x1b\\", "␛_Gf=100;AAAA"),
    ("pm", "\x1b^private\x1b\\", "␛^private"),
    ("csi clear screen", "ok\x1b[2J\x1b[H", "␛[2J␛[H"),
    ("csi cursor up", "line\x1b[3A\x1b[2K", "␛[3A␛[2K"),
    ("csi private mode", "\x1b[?1049h\x1b[?25l", "␛[?1049h␛[?25l"),
    ("c1 csi", "x\x9b31my", "⟨U+009B⟩31m"),
    ("c1 osc", "\x9d0;title\x9c", "⟨U+009D⟩0;title⟨U+009C⟩"),
    ("bel", "ding\x07dong", "ding␇dong"),
    ("backspace", "secret\x08\x08\x08\x08\x08\x08public", "secret␈␈␈␈␈␈public"),
    ("lone cr", "100%\rhidden", "100%␍hidden"),
    ("bidi override", "access = \u202euser\u202c", "⟨U+202E⟩user⟨U+202C⟩"),
    ("bidi isolate", "\u2066admin\u2069", "⟨U+2066⟩admin⟨U+2069⟩"),
    ("zero width", "pass\u200bword\ufeff", "pass⟨U+200B⟩word⟨U+FEFF⟩"),
    ("word joiner", "a\u2060b", "a⟨U+2060⟩b"),
    ("nul", "a\x00b", "a␀b"),
    ("del", "a\x7fb", "a␡b"),
    ("esc alone", "a\x1bcb", "a␛cb"),
    ("tag characters", "hi\U000e0049\U000e0047", "⟨U+E0049⟩⟨U+E0047⟩"),
    ("lone surrogate", "a\ud800b\udfffc", "a\ufffdb\ufffdc"),
]

SGR_RE = re.compile(r"\x1b\[[0-9;:]*m")
C1_RE = re.compile("[\x80-\x9f]")
