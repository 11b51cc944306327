"""ReplayerApp: opens a session (or the picker), reads it in a worker, shows ReplayScreen.

Built from explicit inputs so tests can construct the real thing: a
`SessionRef` to read, a list of refs for the picker, or an in-memory `Session`
(with its pivots) that needs no reader at all.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import App, SystemCommand
from textual.screen import Screen
from textual.worker import get_current_worker

if TYPE_CHECKING:  # the picker loads when there is one to show (not before a path's replay)
    from pivotal.tui.picker import PickerScreen
    from pivotal.tui.picker_fill import Details
    from pivotal.tui.picker_search import Picked

from pivotal.detect import PivotConfig
from pivotal.detect.evaluate import Rejection
from pivotal.model import Pivot, Session, SessionRef
from pivotal.readers import open_reader
from pivotal.spend.subagents import Subagent
from pivotal.tui.collector import IdleCollector
from pivotal.tui.keys import PALETTE, PALETTE_KEYS
from pivotal.tui.loading import (
    Analysis,
    Batch,
    analyse,
    find_failures,
    find_subagents,
    read_batches,
)
from pivotal.tui.messages import ReadFailed, SessionAnalysed, TurnsRead
from pivotal.tui.pacing import IDLE_LIMIT, Pace
from pivotal.tui.render import warm_up
from pivotal.tui.replay_screen import ReplayScreen
from pivotal.tui.safe import one_line
from pivotal.tui.session_name import SessionName, terminal_title

POST_EVERY = 0.25
FIRST_PAINT_WAIT = 1.0
"""At most this long the reader pauses after the first slice, waiting for the first paint."""
"""Seconds between progress messages while a big file is read."""
Lister = Callable[[], tuple[list[SessionRef], "Details | None"]]


def quick_listing() -> tuple[list[SessionRef], Details | None]:
    """The sessions in every agent's default location (counts arrive behind the picker)."""
    from pivotal.catalog.discovery import discover_details, discover_sessions

    details = partial(discover_details, None, warn=lambda _: None)
    return discover_sessions(None, details=False), details


DEMO_NOTICE = "Demo session (no sessions were found) · replay your own: pivotal PATH"
"""One row at 80 columns: it stays on screen for the whole replay."""


class ReplayerApp(App[int]):
    """The replayer: one screen per opened session, the picker when there is a choice."""

    CSS_PATH = "pivotal.tcss"
    TITLE = "pivotal"
    SUSPENDED_SCREEN_CLASS = "-under"
    """On a screen under another: its notifications are hidden there (pivotal.tcss), the
    screen on top shows them, and the palette and the help show none."""

    def __init__(
        self,
        ref: SessionRef | None = None,
        *,
        refs: list[SessionRef] | None = None,
        session: Session | None = None,
        pivots: list[Pivot] | None = None,
        rejections: list[Rejection] | None = None,
        at: int | None = None,
        speed: float = 1.0,
        realtime: bool = False,
        idle_limit: float = IDLE_LIMIT,
        autopause: bool = True,
        demo: bool = False,
        follow: bool | Path = False,
        details: Details | None = None,
        lister: Lister | None = None,
        unlisted: int = 0,
        sensitivity: str = "normal",
    ) -> None:
        super().__init__()
        self.sensitivity = sensitivity
        self.config = PivotConfig.for_sensitivity(sensitivity)
        """How readily a silence is a pivot (`--sensitivity`), for the whole replay."""
        self.ref = ref
        self.refs = refs or []
        self.session = session
        self.given_pivots = pivots
        """The pivots (possible ones too) to show instead of the detector's (tests, demos)."""
        self.given_rejections = rejections
        """... and the silences it turned down, with why."""
        self.at = at
        self.speed = speed
        self.realtime = realtime
        self.idle_limit = idle_limit
        self.autopause = autopause
        self.demo = demo
        self.follow = follow
        self.details = details
        """Fills the picker's turn and pivot counts in the background (refs are the quick list)."""
        self.lister = lister or quick_listing
        """`o` in a replay opened without a picker: the sessions to pick from."""
        self.unlisted = unlisted
        """Files of the agents' folders that listed no session (the picker says how many)."""
        self.query = ""
        """The picker's filter as it was left."""
        self.search_text: str | None = None
        """The picker's text search as it was left (None: it was filtering)."""
        self._picker: PickerScreen | None = None
        self.first_paint = threading.Event()
        """Set once the first slice of the session is on screen."""
        self.first_paint_at: float | None = None
        self.exiting = False
        """`exit()` was called: keys and clicks still queued behind it are dropped."""
        self.collector = IdleCollector(self)
        self._held: list[events.Key] = []
        """Keys typed before a prompt could take them (`_typed_too_early`)."""
        self._early: list[events.Key] = []
        """Keys typed before the first screen was on the stack (`_typed_too_early`)."""
        self._after_close: list[events.Key] = []
        """Keys typed behind the key that closed a prompt or the note editor (`after_close`)."""
        self.terminal_title = ""
        """What the terminal's title was set to ("" until a session is named)."""

    # -- quitting ----------------------------------------------------------------------
    def exit(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        self.exiting = True
        super().exit(*args, **kwargs)  # type: ignore[arg-type]

    async def on_event(self, event: events.Event) -> None:
        # `q` and `a` arriving in one read: without this the note editor is pushed
        # while the app shuts down and fails to compose (a traceback, exit 0)
        if self.exiting and isinstance(event, events.Key | events.MouseEvent):
            return
        if isinstance(event, events.Key):
            self.collector.key()
            if self._typed_too_early(event):
                return
        await super().on_event(event)

    def _typed_too_early(self, event: events.Key) -> bool:
        """`:17⏎` in one read: keys meant for a prompt that is not ready for them yet.

        Textual hands each key to the screen on top when it arrives and checks
        bindings when it comes back up. `1` and `7` arrive while the replay
        screen is still on top, come back once `:` has pushed the prompt, and
        were dropped; keys that arrive before the prompt's input has focus were
        dropped by the prompt screen. Both are held, in order, and sent again
        once the input has focus. True: this event is spent.
        """
        if not self.screen_stack or self._early:
            # typed while the app starts: no screen to hand them to yet (Textual raised
            # ScreenStackError); kept, in order, for the first screen
            if not self._early:
                self.set_timer(0.01, self._send_early)
            self._early.append(events.Key(event.key, event.character))
            return True
        screen = self.screen
        if getattr(screen, "closing", False) and not event.is_forwarded:
            # behind the Enter / Esc that closes a prompt: for the screen below, once it is on top
            self.after_close(screen, event)
            return True
        if not getattr(screen, "TAKES_TYPING", False):
            if not event.is_forwarded:
                event._pivotal_screen = screen  # type: ignore[attr-defined]
            return False
        if event.is_forwarded:
            if getattr(event, "_pivotal_screen", screen) is screen:
                return False  # it went to the prompt and came back: the prompt's to drop
        elif screen.focused is not None and not self._held:
            return False  # the input has focus: Textual hands it the key
        if not self._held:
            screen.call_after_refresh(self._send_held, screen, 0)
        self._held.append(events.Key(event.key, event.character))
        return True

    def _send_early(self) -> None:
        """Send the keys typed during start-up again once there is a screen to take them."""
        if not self.screen_stack:
            self.set_timer(0.01, self._send_early)
            return
        early, self._early = self._early, []
        for key in early:
            self.post_message(key)

    def after_close(self, screen: Screen, event: events.Key) -> None:
        """Keep `event` for the screen below `screen`, a prompt or the note editor that is
        closing (`PromptInput`, `NoteScreen.action_save`)."""
        if not self._after_close:
            # not `call_after_refresh`: that callback waits for the screen on top to
            # repaint, and the closing screen can be gone first (the keys were lost)
            self.call_later(self._send_after_close, screen, 0)
        self._after_close.append(events.Key(event.key, event.character))

    def _send_after_close(self, screen: Screen, tries: int) -> None:
        """Send the keys typed behind a closing key again once its screen is off the stack."""
        if screen in self.screen_stack and tries < 250:
            self.set_timer(0.02, partial(self._send_after_close, screen, tries + 1))
            return
        keys, self._after_close = self._after_close, []
        for key in keys:
            self.post_message(key)

    def _send_held(self, screen: Screen, tries: int) -> None:
        """Send the held keys again, in order, once `screen`'s input has focus."""
        if screen is self.screen and screen.focused is None and tries < 100:
            screen.call_after_refresh(self._send_held, screen, tries + 1)
            return
        held, self._held = self._held, []
        if screen is self.screen:
            for key in held:
                self.post_message(key)

    def _print_error_renderables(self) -> None:
        """A crash prints one line (the command line's) unless PIVOTAL_DEBUG asks for more.

        Textual's hook for the traceback it shows on exit; the exit code stays 1.
        """
        if os.environ.get("PIVOTAL_DEBUG"):
            super()._print_error_renderables()
        else:
            self._exit_renderables.clear()

    def on_mount(self) -> None:
        if self.follow and self.ref is None:
            self.notify("Nothing to follow: no session file was given.", timeout=6, markup=False)
        if self.session is not None:
            session = self.session
            screen = self.open_screen(
                session.title or str(session.path),
                SessionName(session.format, str(session.path), None, session.title, session.cwd),
            )
            given = self.given_pivots
            found = analyse(self.session.turns, self.config) if given is None else None
            screen.set_session(
                self.session.turns,
                given if found is None else [*found.pivots, *found.possible],
                find_failures(self.session.turns),
                model=self.session.model,
                subagents=find_subagents(self.session),
                rejections=self.given_rejections if found is None else found.rejections,
            )
            if self.at is not None:
                screen.start_at(self.at)
                screen.sync()
        elif self.ref is not None:
            self.open_ref(self.ref)
        else:
            self.show_picker()

    def open_screen(self, title: str, name: SessionName | None = None) -> ReplayScreen:
        notice = DEMO_NOTICE if self.demo else ""
        pace = Pace(realtime=self.realtime, idle_limit=self.idle_limit)
        clamped = pace.set_speed(self.speed)
        screen = ReplayScreen(autopause=self.autopause, pace=pace, notice=notice)
        screen.status = clamped
        screen.pending_at = self.at
        self.sub_title = title
        if name is not None:
            screen.name_session(name)
        self.push_screen(screen)
        return screen

    def open_ref(self, ref: SessionRef, *, picked: bool = False) -> None:
        """Replay (or follow) `ref`; `picked`: chosen in the picker over another replay."""
        name = SessionName.of(ref)
        screen = self.open_screen(ref.title or ref.label, name)
        screen.live.ref = ref
        if self.follow:  # a folder: follow its newest session, switching to new ones
            folder = self.follow if isinstance(self.follow, Path) else None
            screen.live.folder = folder
            where = f"the newest session in {one_line(str(folder), 80)}" if folder else ""
            short = name.short()
            what = where or (short if short == name.file else f"{short} ({name.file})")
            if not screen.status:
                screen.status = f"following {what} · o picks another"  # ● LIVE says live
                screen.status_name = one_line(str(folder), 80) if folder else what
            screen.live.start(initial=True)
        else:
            if picked:
                screen.status = screen.status or f"now replaying {name.short()} ({name.agent})"
            self.read_session(ref)

    def set_terminal_title(self, name: SessionName) -> None:
        """The terminal's title names the session (its own title comes back on exit where
        the terminal keeps a title stack: xterm's push and pop)."""
        title = terminal_title(name)
        if title == self.terminal_title:
            return
        driver = self._driver
        if driver is not None and not self.is_headless:
            if not self.terminal_title:
                driver.write("\x1b[22;0t")  # push the terminal's own title
            driver.write(f"\x1b]2;{title}\x07")
        self.terminal_title = title

    def on_unmount(self) -> None:
        self.collector.stop()  # the process goes on after the app (tests, the command line)
        driver = self._driver
        if self.terminal_title and driver is not None and not self.is_headless:
            driver.write("\x1b[23;0t")  # the terminal's own title back

    @property
    def replay(self) -> ReplayScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, ReplayScreen):
                return screen
        return None

    def replay_of(self, ref: SessionRef | None) -> ReplayScreen | None:
        """The replay screen of `ref` (a slice read for a session since left is dropped)."""
        screen = self.replay
        if screen is None or (ref is not None and screen.live.ref is not ref):
            return None
        return screen

    # -- the picker ----------------------------------------------------------------------
    def show_picker(self, *, back: bool = False, search: str | None = None) -> None:
        """The picker over this app's sessions (`back`: over a replay, which Esc returns to;
        `search`: in search mode, looking that up; by default as it was left)."""
        from pivotal.tui.picker import PickerScreen
        from pivotal.tui.picker_fill import FillingPicker

        search = search if search is not None else self.search_text
        unlisted = self.unlisted
        if self.details is not None:  # the quick listing: counts arrive behind it
            picker: PickerScreen = FillingPicker(
                self.refs, self.details, self.query, back=back, unlisted=unlisted, search=search
            )
        else:
            picker = PickerScreen(
                self.refs, self.query, back=back, unlisted=unlisted, search=search
            )
        self._picker = picker
        self.push_screen(picker, self.open_picked)

    def open_picker(self, search: str | None = None) -> None:
        """o (or the palette) in a replay: back to the picker, the filter as it was left
        (`search`: in search mode, looking that up)."""
        if not self.refs:
            self.refs, self.details = self.lister()
        if not self.refs:
            self.notify("No other sessions were found.", timeout=5, markup=False)
            return
        self.show_picker(back=True, search=search)

    def back_to_results(self) -> None:
        """Esc in a replay opened from the search results: the results, as they were."""
        self.open_picker(self.search_text)

    def search_sessions(self, needle: str) -> None:
        """* in a replay: every session's text searched for the `/` search's text."""
        needle = " ".join(needle.split())
        self.open_picker(f'"{needle}"' if " " in needle else needle)

    def open_picked(self, picked: SessionRef | Picked | None) -> None:
        from pivotal.tui.picker_search import Picked

        picker = self._picker
        if picker is not None:  # what it learnt (counts, the filter) is kept for next time
            self.refs, self.query = picker.refs, picker.query_text
            search = picker.text_search
            self.search_text = search.query.text if search.active else None
            if getattr(picker, "complete", False):
                self.details = None
        if picked is None:
            return  # Esc: back to the replay under it
        while isinstance(self.screen, ReplayScreen):
            self.pop_screen()
        self.session = None  # an in-memory session is left behind with its screen
        if not isinstance(picked, Picked):
            self.open_ref(picked, picked=True)
            return
        from pivotal.tui.search_hit import land, land_in_subagent

        self.open_ref(picked.ref, picked=True)
        screen = self.replay
        if screen is not None:  # at the hit's turn, its matches marked once the pivots are known
            screen.pending_at = picked.turn
            screen.landing = partial(land, turn=picked.turn, query=picked.query)
            if picked.subagent is not None:  # at the call that ran it, then in the sub-agent
                screen.landing = partial(
                    land_in_subagent, turn=picked.turn, query=picked.query, hit=picked.subagent
                )
            screen.from_results = True

    # -- sub-agents ------------------------------------------------------------------
    def open_subagent(self, sub: Subagent, parent: ReplayScreen) -> ReplayScreen | None:
        """Enter on a call that ran a sub-agent: its transcript, over the session's (the
        screen it is read into; None while the session is still being read)."""
        if not parent.analysed:
            parent.say("still reading the session: its sub-agents open once it is read")
            return None
        title = sub.title or sub.prompt or sub.ref.path.name
        came_from = self.sub_title or "the session"
        name = SessionName(sub.ref.format, str(sub.ref.path), sub.ref.key, None, sub.ref.cwd)
        screen = self.open_screen(
            f"sub-agent: {one_line(title, 80)}", name.learnt(f"sub-agent: {title}", None)
        )
        screen.came_from = came_from
        screen.pending_at = None
        screen.status = "a sub-agent's transcript · Backspace goes back to the session"
        screen.live.ref = sub.ref
        self.read_session(sub.ref, own_pivots=False)
        return screen

    def close_subagent(self, screen: ReplayScreen) -> None:
        """Backspace in a sub-agent's transcript with no jump to undo: back to the session."""
        if self.screen is screen:
            self.pop_screen()
            below = self.replay
            if below is not None:
                self.sub_title = screen.came_from
                if below.session_name is not None:  # the terminal's title names it again
                    self.set_terminal_title(below.session_name)
                below.say("back from the sub-agent")

    # -- reading ---------------------------------------------------------------------
    @work(
        thread=True,
        exclusive=True,
        group="read",
        exit_on_error=False,
        description="Reading the session",
    )
    def read_session(self, ref: SessionRef, own_pivots: bool = True) -> None:
        """Read `ref` in slices, posting the first slice at once and then every POST_EVERY s.

        `own_pivots=False`: a sub-agent's session, judged afresh (pivots given to the app
        are its main session's)."""
        worker = get_current_worker()
        try:
            reader = open_reader(ref)
        except (OSError, KeyError, ValueError) as exc:
            self.post_message(ReadFailed(f"cannot open {ref.label}: {exc}", ref))
            return
        try:
            last_post, pending, warm = 0.0, None, False
            for batch in read_batches(reader, lambda: worker.is_cancelled):
                pending = merge(pending, batch)
                now = time.monotonic()
                if batch.finished or now - last_post >= POST_EVERY:
                    self.post_message(TurnsRead(pending, ref))
                    pending, last_post = None, now
                if not warm:
                    # let the UI paint the first screen before parsing the rest competes
                    # with it for the GIL, then warm the code highlighter up while the person reads
                    warm = True
                    self.first_paint.wait(timeout=FIRST_PAINT_WAIT)
                    warm_up()
            if worker.is_cancelled:
                return
            turns = reader.session.turns
            given = self.given_pivots if own_pivots else None
            # one pass of the detector: pivots, possible pivots and why the rest are none
            found = Analysis.of(given) if given is not None else analyse(turns, self.config)
            failures = find_failures(turns, lambda: worker.is_cancelled)
            subagents = find_subagents(reader.session)
            judged = [*found.pivots, *found.possible]
            self.post_message(
                SessionAnalysed(judged, failures, ref, subagents, rejections=found.rejections)
            )
        except Exception as exc:  # noqa: BLE001 - shown to the person, never swallowed silently
            self.post_message(ReadFailed(f"reading {ref.label} failed: {exc!r}", ref))
        finally:
            reader.close()

    @on(TurnsRead)
    def show_turns(self, message: TurnsRead) -> None:
        if (screen := self.replay_of(message.ref)) is not None:
            screen.add_turns(message.batch)
        if not self.first_paint.is_set():
            self.call_after_refresh(self.mark_first_paint)

    def mark_first_paint(self) -> None:
        """The first slice is on screen: let the reader go on (and note when, for the bench)."""
        self.first_paint_at = time.perf_counter()
        self.first_paint.set()

    @on(SessionAnalysed)
    def show_analysis(self, message: SessionAnalysed) -> None:
        if (screen := self.replay_of(message.ref)) is not None:
            screen.add_analysis(
                message.pivots, message.failures, message.subagents, message.rejections
            )
        # A big session is millions of long-lived objects; frozen, no collection walks them
        # (a key press stalled ~100 ms); what is left is collected between keys
        self.collector.start()

    @on(ReadFailed)
    def show_failure(self, message: ReadFailed) -> None:
        self.notify(message.reason, severity="error", timeout=10, markup=False)
        if (screen := self.replay_of(message.ref)) is not None:
            screen.reading = ""
            screen.status = message.reason
            screen.sync(follow=False)

    # -- command palette ---------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's own "Screenshot" delivers the file to a browser (textual-serve): in a
        # terminal it does nothing. The replay's "Save a screenshot (SVG)" (S) replaces it.
        for command in super().get_system_commands(screen):
            if command.title != "Screenshot":
                yield command
        if not isinstance(screen, ReplayScreen):
            return
        for title, action in PALETTE:  # the help line is the key: the palette teaches it
            key = PALETTE_KEYS.get(action, "")
            yield SystemCommand(title, f"key: {key}", partial(screen.run_action, action))


def merge(pending: Batch | None, batch: Batch) -> Batch:
    """Fold an unposted batch into the next one, keeping the lowest changed turn."""
    if pending is None:
        return batch
    firsts = [f for f in (pending.first_changed, batch.first_changed) if f is not None]
    batch.first_changed = min(firsts) if firsts else None
    batch.notices = pending.notices + batch.notices
    return batch
