"""Messages the app's reading worker posts to the UI (thread-safe hand-off)."""

from __future__ import annotations

from textual.message import Message

from pivotal.detect.evaluate import Rejection
from pivotal.model import Pivot, SessionRef
from pivotal.spend.subagents import Subagent
from pivotal.tui.loading import Batch
from pivotal.tui.safe import one_line


class TurnsRead(Message):
    """Another slice of the session was read: `batch.turns` is everything so far."""

    def __init__(self, batch: Batch, ref: SessionRef | None = None) -> None:
        super().__init__()
        self.batch = batch
        self.ref = ref
        """The session read (a replay screen shows only its own session's slices)."""


class SessionAnalysed(Message):
    """The whole session is read and its pivots and failures are known.

    `pivots` holds the possible pivots too (`Pivot.possible`); `rejections` the other
    silences, each with why it is no pivot, from the same pass of the detector."""

    def __init__(
        self,
        pivots: list[Pivot],
        failures: list[int],
        ref: SessionRef | None = None,
        subagents: list[Subagent] | None = None,
        rejections: list[Rejection] | None = None,
    ) -> None:
        super().__init__()
        self.pivots = pivots
        self.rejections = rejections or []
        self.failures = failures
        self.ref = ref
        self.subagents = subagents
        """The sub-agents the session ran, read and tied to their calls (None: not read)."""


class ReadFailed(Message):
    """The session could not be read at all (the reason is one line for the person).

    The reason quotes a path and an exception: it is cleaned here, once, and shown
    only as plain text (never as markup: a folder may be named `[@click=app.quit]`).
    """

    def __init__(self, reason: str, ref: SessionRef | None = None) -> None:
        super().__init__()
        self.reason = one_line(reason, 400)
        self.ref = ref
