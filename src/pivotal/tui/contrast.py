"""Colours that stay readable in every theme: WCAG contrast, and a nudge until it holds.

A theme's `$secondary` on `$panel` can be 1.4:1 (the pivot marker was the least
visible glyph on the timeline). `readable` keeps the theme's hue and moves it
toward white or black, whichever side has room, until it reaches the ratio.
ANSI colours are measured with Rich's default terminal palette (the real one is
the terminal's), and the result is always a true colour.
"""

from __future__ import annotations

from rich.color import Color
from rich.style import Style

AA = 4.5
"""WCAG 2 level AA for normal text."""
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


def _rgb(color: Color) -> tuple[int, int, int]:
    triplet = color.get_truecolor()
    return triplet.red, triplet.green, triplet.blue


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(fg: tuple[int, int, int], bg: tuple[int, int, int]) -> float:
    """WCAG contrast ratio, 1 to 21."""
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def contrast(fg: Color, bg: Color) -> float:
    return ratio(_rgb(fg), _rgb(bg))


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def readable(fg: Color, bg: Color, target: float = AA) -> Color:
    """`fg`, or the nearest mix of it with white or black that reaches `target` on `bg`."""
    start, back = _rgb(fg), _rgb(bg)
    if ratio(start, back) >= target:
        return fg
    best = max((WHITE, BLACK), key=lambda end: ratio(end, back))
    for step in range(1, 21):
        mixed = _mix(start, best, step / 20)
        if ratio(mixed, back) >= target:
            return Color.from_rgb(*mixed)
    return Color.from_rgb(*best)


def readable_style(style: Style, background: Color | None) -> Style:
    """`style` with its foreground made readable on its own background, else `background`."""
    bg = style.bgcolor or background
    if style.color is None or bg is None:
        return style
    return style + Style(color=readable(style.color, bg))
