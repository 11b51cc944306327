"""Codex writes a person's message twice: which records are the same message.

Every message a person sends is a `response_item` (what the model got) and an
`event_msg user_message` (what the screen showed). Their order changed between
builds (October 2025 rollouts write the response copy first, later ones the
event), some messages have only the event (a `/review` request, written twice),
and the two texts may differ by the `<image …>` tags that frame an attached
image. `Exchange` keeps, for the messages since the agent last answered, the
copies still waiting for their other half, so that each message becomes one
turn wherever its halves are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TypeVar

from pivotal.model import Part, SourceRef, Turn

_IMAGE_TAG = re.compile(r"</?image\b[^>]*>")
MIN_CONTAINED = 32
"""Keys shorter than this pair only when equal ("ok" is inside too many texts)."""


def input_key(text: str) -> str:
    """What both copies of one message share: the text without image tags, spaces folded."""
    if "<image" in text or "</image" in text:
        text = _IMAGE_TAG.sub(" ", text)
    return " ".join(text.split())  # str.split is C: a regex over a pasted log is not


class Copy:
    """One copy of a message; `key` is worked out only when the plain texts differ."""

    __slots__ = ("_key", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._key: str | None = None

    @property
    def key(self) -> str:
        if self._key is None:
            self._key = input_key(self.text)
        return self._key


class Held(Copy):
    """An event whose response copy may still come (it then makes the turn, at its place)."""

    __slots__ = ("attachments", "timestamp", "where")

    def __init__(
        self, text: str, attachments: list[Part], timestamp: float | None, where: SourceRef
    ) -> None:
        super().__init__(text)
        self.attachments = attachments
        self.timestamp = timestamp
        self.where = where


class Made(Copy):
    """A message already shown, waiting for its other copy (which then adds nothing)."""

    __slots__ = ("turns",)

    def __init__(self, text: str, turns: list[Turn]) -> None:
        super().__init__(text)
        self.turns = turns


@dataclass(slots=True)
class Exchange:
    """The person's side since the agent last answered: copies not yet paired."""

    held: list[Held] = field(default_factory=list)
    """Events seen first; shown once the lines read so far cannot bring their copy."""
    answered: list[Made] = field(default_factory=list)
    """Turns made from a response copy, waiting for its event."""
    from_events: list[Made] = field(default_factory=list)
    """Turns made from an event alone, waiting for a late response copy."""
    harness: list[Copy] = field(default_factory=list)
    """Harness messages: an event with the same text is never the person."""
    last_event: tuple[str, str] | None = None
    """(timestamp, text) of the last event: the same pair again is one message written twice."""

    def over(self) -> None:
        """The agent answered: nothing before this can pair with what comes after."""
        self.answered.clear()
        self.from_events.clear()
        self.harness.clear()


T = TypeVar("T", bound=Copy)


def find(items: list[T], text: str, contained: bool = True) -> int | None:
    """Where the first copy of `text` is: the same text, else the same key, else
    (`contained`, long texts only) a key that holds the other."""
    for i, item in enumerate(items):
        if item.text == text:
            return i
    if not items:
        return None
    key = input_key(text)
    for i, item in enumerate(items):
        if item.key == key:
            return i
    if contained and len(key) >= MIN_CONTAINED:
        for i, item in enumerate(items):
            other = item.key
            if len(other) >= MIN_CONTAINED and (key in other or other in key):
                return i
    return None


def take(items: list[T], text: str, contained: bool = True) -> T | None:
    """Remove and return the first copy of `text` (see `find`)."""
    at = find(items, text, contained)
    return None if at is None else items.pop(at)
