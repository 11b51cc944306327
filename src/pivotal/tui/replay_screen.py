"""ReplayScreen: transcript, pivot panel, timeline and footer, and every replay key.

The screen owns the `Playback` (cursor, play state, filter) and pushes it down
to its widgets in `sync()`; widgets report clicks back by message. Data comes
from the app (`add_turns`, `add_analysis`) as the reading worker delivers it.

It also owns its helpers, created in `__init__` with what each needs:
`Panes` (where the pivot panel sits), `PlayTimer` (the timer that reveals
turns while playing), `Marking` (marks, notes and the session's identity),
`Search` (the needle and its thread), `Handoff` (resume command, screenshot),
`Exporter` (x and X), `Clips` (copy and the pager) and `LiveFollow` (the live
feed). Every key stays an `action_*` method here or, for the jump keys, in
`JumpKeys` (replay_jumps.py), which the screen inherits (keys.py binds them,
the palette and help list them); a helper's key is one line that delegates to
it. Helpers never import this module: what they need is passed in, and what
happens later comes back as a message (`PlayTimer.Advanced`, `Marking.Loaded`,
`Search.Found`, `Search.Progress`, `LiveFollow.Updated`, `LiveFollow.Switched`)
or a call from their thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from time import monotonic

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from pivotal.detect.evaluate import Rejection
from pivotal.model import Pivot, Turn
from pivotal.readers import session_files
from pivotal.spend.ledger import Ledger
from pivotal.spend.subagents import Subagent
from pivotal.spend.words import subagent_note
from pivotal.tui.clip import Clips
from pivotal.tui.exporting import Exporter
from pivotal.tui.handoff import Handoff
from pivotal.tui.jumps import Jumps
from pivotal.tui.keybar import KeyBar
from pivotal.tui.keys import FOOTER, bindings
from pivotal.tui.live import LiveFollow
from pivotal.tui.loading import Batch
from pivotal.tui.marking import Marking
from pivotal.tui.pacing import Pace
from pivotal.tui.panes import WIDE, Panes
from pivotal.tui.pivot_panel import PivotPanel, Verdicts
from pivotal.tui.pivot_story import Stories
from pivotal.tui.play_timer import PlayTimer
from pivotal.tui.playback import FILTER_WORDS, Filter, Playback
from pivotal.tui.prefetch import Prefetch
from pivotal.tui.render import ALL_PARTS, expandable
from pivotal.tui.replay_jumps import JumpKeys
from pivotal.tui.safe import one_line
from pivotal.tui.screens import HelpScreen, PromptScreen
from pivotal.tui.search import Search
from pivotal.tui.session_name import SessionName
from pivotal.tui.timeline import Timeline, TimelineState
from pivotal.tui.top_line import TopLine
from pivotal.tui.transcript import TranscriptView
from pivotal.tui.verdicts import Banners, none_found


class ReplayScreen(JumpKeys, Screen[None]):
    """The main screen of the replayer."""

    BINDINGS = bindings()
    AUTO_FOCUS = None

    def __init__(
        self, *, autopause: bool = True, pace: Pace | None = None, notice: str = ""
    ) -> None:
        super().__init__()
        self.playback = Playback(autopause=autopause, pace=pace or Pace())
        self.notice = notice
        self.status = ""
        self.status_name = ""
        """A name inside `status` (the session followed) the status line may cut in its middle
        rather than drop the counters beside it."""
        self.status_forms: tuple[str, str, tuple[str, ...]] = ("", "", ())
        """(status, its short form, names in it to cut first) as `say` was given them: they
        hold while `status` is that one."""
        self.reading = ""
        """How far reading got ("" when done). Not `loading`: that is Textual's reactive that
        covers the whole screen with a spinner while it is truthy."""
        self.analysed = False
        self.pending_at: int | None = None
        self.end_at: int | None = None
        """G while the file is still read: the cursor sits on the last turn read (here) and
        follows the end as more arrive, until the person moves it."""
        self.ready = False
        """Widgets exist (data that arrives earlier is kept and shown on mount)."""
        self._bindings_state: tuple[bool, bool] | None = None
        # the helpers this screen owns (they never import it)
        self.panes = Panes(self)
        self.jumps = Jumps(self.playback)
        self.stories = Stories()
        self.player = PlayTimer(self, self.playback, live=lambda: self.live.on)
        self.marking = Marking(self, self.playback, say=self.say)
        self.search = Search(self, self.playback, self.jumps, say=self.say, show=self.show)
        self.handoff = Handoff(self, say=self.say)
        self.exporter = Exporter(self, say=self.say, sensitivity=self._sensitivity)
        self.live = LiveFollow(self, self.playback)
        self.search.path = lambda: None if self.live.ref is None else str(self.live.ref.path)
        self.clips = Clips(self, say=self.say)
        self.clips.files = lambda: None if self.live.ref is None else session_files(self.live.ref)
        self.ledger = Ledger()
        """Tokens and dollars up to each turn (the status line's spend)."""
        self.subagents: list[Subagent] = []
        """The sub-agents the session ran, once its analysis is in."""
        self.came_from: str = ""
        """Set on a sub-agent's screen: what it came from (Backspace returns there)."""
        self.landing: Callable[[ReplayScreen], None] | None = None
        """Runs once the pivots are known: a hit of the search across sessions (`search_hit`)."""
        self.from_results = False
        """Opened from the picker's search results: Esc goes back to them."""
        self.verdicts = Banners()
        """The line on each judged silence: pivot, possible pivot, or why it is none."""
        self.session_name: SessionName | None = None
        """Which session this is (the top line and the terminal's title say it)."""
        self.prefetch: Prefetch | None = None
        """Draws ahead, between frames, where the jump keys lead (made on mount)."""

    # -- widgets -----------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TopLine(id="title")
        if self.notice:
            yield Static(Text(self.notice, no_wrap=True, overflow="ellipsis"), id="banner")
        with Horizontal(id="body"):
            yield TranscriptView(id="transcript")
            yield PivotPanel(id="panel")
        yield Timeline(id="timeline")
        yield KeyBar(id="keybar")

    @property
    def transcript(self) -> TranscriptView:
        return self.query_one(TranscriptView)

    @property
    def panel(self) -> PivotPanel:
        return self.query_one(PivotPanel)

    @property
    def timeline(self) -> Timeline:
        return self.query_one(Timeline)

    def on_resize(self, event: events.Resize) -> None:
        self.panes.resize(event.size.width)
        self.call_after_refresh(self._expect_widths)

    def _expect_widths(self) -> None:
        """With the panel docked, `p` gives the transcript the panel's columns: say so, so
        the turns' heights there are guessed while idle (100,000 turns: ~40 ms in one key)."""
        panel = self.panel
        if self.panes.wide and self.panes.panel_shown and panel.outer_size.width:
            self.transcript.expect_width(self.transcript.content_width + panel.outer_size.width)

    def name_session(self, name: SessionName) -> None:
        """Say which session this is: the top line, and the terminal's title while on top."""
        self.session_name = name
        if self.is_mounted:
            self.query_one(TopLine).show(name)
        setter = getattr(self.app, "set_terminal_title", None)
        if setter is not None and (not self.is_mounted or self.app.screen is self):
            setter(name)

    def on_mount(self) -> None:
        if self.session_name is not None:
            self.query_one(TopLine).show(self.session_name)
        self.panes.resize(self.app.size.width)
        self.call_after_refresh(self._expect_widths)
        self.ready = True
        self.transcript.reason_of = self.pivot_reason
        self.transcript.set_turns(self.playback.turns, 0)
        self.transcript.set_banners(self.judged_banners())
        self.show_subagents()
        self.marking.open(getattr(self.app, "session", None), self.live.ref)
        self.prefetch = Prefetch(
            self,
            self.playback,
            self.marking,
            self.transcript,
            self.panel,
            self.panel_shows,
            lambda: self.panel_shows(self.jumps.panel_pivot()),
            self.since_key,
        )
        self.transcript.scrolled = self.prefetch.pages
        self.sync()
        self.land()
        self.prepare_search()

    def on_unmount(self) -> None:
        self.marking.close()

    # -- data from the app -------------------------------------------------------
    def add_turns(self, batch: Batch) -> None:
        """A slice of the session arrived: show it (the cursor stays where it is)."""
        self.playback.set_turns(batch.turns, batch.first_changed)
        first = batch.first_changed
        if batch.model != self.ledger.model:  # turns that name no model are priced again
            self.ledger.model, first = batch.model, 0
            if self.ready:
                self.transcript.set_spend(batch.model, self.transcript.subagents)
        self.ledger.update(batch.turns, first)
        if self.ready:
            self.transcript.set_turns(batch.turns, batch.first_changed)
        name = self.session_name
        if name is not None and (batch.title or batch.cwd):  # the reader read its own name
            learnt = name.learnt(batch.title, batch.cwd)
            if learnt != name:
                self.name_session(learnt)
        if batch.notices:
            self.status = one_line(batch.notices[-1], 300)  # a reader's notice may quote a path
        if batch.problem:
            self.status = f"nothing could be read: {one_line(batch.problem, 200)}"
        if batch.finished:
            self.reading = "" if self.analysed else "finding pivots…"
        else:
            share = batch.done * 100 // max(batch.total, 1)
            self.reading = f"reading {share}% ({batch.done >> 20}/{batch.total >> 20} MB)"
        pending = self.pending_at
        if pending is not None and (batch.finished or 0 <= pending < len(batch.turns)):
            self.start_at(pending)  # one outside the session waits for its end, to say so
            self.pending_at = None
        if self.end_at is not None:  # G while reading: on to the new end, unless moved since
            if self.playback.cursor == self.end_at:
                self.end_at = self.playback.last()
            if self.playback.cursor != self.end_at or batch.finished:
                self.end_at = None
        if batch.finished and self.status.startswith("still reading"):
            self.status = ""  # said while reading, not true any more
        # keep the person's hand scrolling while the rest of the file arrives
        self.sync(follow=not self.ready or self.transcript.follow_cursor)

    def add_analysis(
        self,
        pivots: list[Pivot],
        failures: list[int],
        subagents: list[Subagent] | None = None,
        rejections: list[Rejection] | None = None,
    ) -> None:
        """The detector's verdicts (`pivots` holds the possible pivots too) and the failures."""
        self.analysed = True
        self.reading = ""
        self.playback.set_judged(pivots, rejections)
        self.playback.set_failures(failures)
        docked = self.panes.panel_shown if self.ready else self.app.size.width >= WIDE
        if not self.status and not docked:  # the drawer is shut: say where to read why
            self.status = none_found(self.playback.pivots, self.playback.possible, rejections)
        if subagents is not None:
            self.subagents = subagents
            self.ledger.set_subagents(subagents)
        if self.ready:
            self.transcript.set_banners(self.judged_banners())
            self.show_subagents()
        self.sync()
        self.land()
        self.prepare_search()

    def prepare_search(self) -> None:
        """Once the turns are read and judged and the screen is up: what the first search
        needs, built in a thread (a live session grows: each of its searches builds its own)."""
        if self.ready and self.analysed and not self.live.on:
            self.search.prepare()

    def land(self) -> None:
        """Once the pivots are known and the widgets exist: the pending landing, if any."""
        if self.landing is not None and self.ready and self.analysed:
            landing, self.landing = self.landing, None
            landing(self)

    def judged_banners(self) -> dict[int, str]:
        """Each judged silence's line in the transcript (`verdicts`)."""
        pb = self.playback
        return self.verdicts(pb.pivots, pb.possible, pb.rejections)

    def pivot_reason(self, turn: int) -> str:
        """What happened at the pivot anchored at `turn`, in plain words ("" when none is)."""
        pivot = self.playback.pivot_anchored_at(turn)
        return "" if pivot is None else one_line(pivot.summary or pivot.reason, 300)

    def show_subagents(self) -> None:
        """Each call that ran a sub-agent says, under it, what the sub-agent did."""
        notes: dict[int, list[tuple[str, str]]] = {}
        for sub in self.subagents:
            if sub.parent_turn is not None and sub.call_id is not None:
                notes.setdefault(sub.parent_turn, []).append((sub.call_id, subagent_note(sub)))
        self.transcript.set_spend(self.ledger.model, {k: tuple(v) for k, v in notes.items()})

    def set_session(
        self,
        turns: list[Turn],
        pivots: list[Pivot],
        failures: list[int],
        *,
        model: str | None = None,
        subagents: list[Subagent] | None = None,
        rejections: list[Rejection] | None = None,
    ) -> None:
        """Everything at once (tests, small in-memory sessions)."""
        self.add_turns(Batch(turns, 0, 1, 1, True, model=model))
        self.add_analysis(pivots, failures, subagents, rejections)

    # -- pushing state down -------------------------------------------------------
    def sync(self, *, follow: bool = True, live: bool = False) -> None:
        """Push the playback state to the transcript, the panel, the timeline, the footer.

        `live`: the live feed changed it, not the person (the panel may catch up a little later).
        """
        if not self.ready:
            return
        pb = self.playback
        self.transcript.show(pb.shown(), pb.cursor, follow=follow, hidden=pb.hiding())
        self.panel.show_pivot(**self.panel_shows(self.jumps.panel_pivot()), live=live)
        spend, spend_short = self.ledger.status(pb.cursor)
        said, short, names = self.status_forms
        if said != self.status:  # said since by other means
            short, names = "", ()
        live, live_short = self.live.label()
        self.transcript.placeholder = "" if pb.turns else self.live.empty_note(self.reading)
        self.transcript.set_marks(self.marking.mark_notes())
        self.timeline.update_state(
            TimelineState.of(
                pb,
                following=self.live.on or self.reading.startswith("reading"),  # no end yet
                loading=self.reading,
                notice=self.status,
                notice_cut=(*names, self.status_name),
                notice_short=short,
                live=live,
                live_short=live_short,
                marks=self.marking.marked_turns(),
                spend=spend,
                spend_short=spend_short,
            )
        )
        bindings_state = (bool(self.search.needle), bool(pb.failures))
        if bindings_state != self._bindings_state:  # n appears with a search, e with failures
            self._bindings_state = bindings_state
            enabled = [a for _, _, _, a, _ in FOOTER if self.check_action(a.split("(")[0], ())]
            self.query_one(KeyBar).set_enabled(frozenset(enabled))
        if self.prefetch is not None and self.analysed:  # where pivots are is known
            self.prefetch.soon()

    def since_key(self) -> float:
        """Seconds since the last key reached the app (its collector keeps the time)."""
        collector = getattr(self.app, "collector", None)
        return monotonic() - collector.last_key if collector is not None else 1.0

    def panel_shows(self, pivot: Pivot | None) -> dict[str, object]:
        """What the panel shows about `pivot` with the cursor where it is (`show_pivot`'s
        arguments: the prefetch asks the same for the places a jump leads to)."""
        pb = self.playback
        number, total = pb.number_of(pivot) if pivot is not None else (0, len(pb.pivots))
        context = None
        if pivot is not None:
            context = self.stories.context(
                pivot,
                pb.turns,
                pb.failures,
                pivots=pb.pivots,
                model=self.ledger.model,
                subagents=self.subagents,
            )
        return {
            "pivot": pivot,
            "number": number,
            "total": total,
            "loading": not self.analysed,
            "note": self.marking.cursor_note(),
            "context": context,
            "verdicts": self.panel_verdicts(pivot),
        }

    def panel_verdicts(self, pivot: Pivot | None) -> Verdicts:
        """What the panel says beside (or instead of) a pivot: the silence under the cursor
        the detector turned down, and with no pivot to explain, every one it turned down."""
        pb = self.playback
        here = pb.rejection_at() if self.jumps.pinned is None else None
        config = getattr(self.app, "config", None)
        return Verdicts(
            len(pb.pivots),
            len(pb.possible),
            here,
            pb.rejections if pivot is None and here is None else (),
            None if config is None else config.min_confidence,
        )

    def moved(self, target: int | None, what: str = "") -> None:
        """After a jump: say so when nothing moved, then sync."""
        self.status = "" if target is not None else what
        self.sync()

    def show(self, status: str, moved: bool) -> None:
        """A helper moved the cursor (`moved`) or not, and says `status` about it."""
        self.status = one_line(status, 300)
        self.sync(follow=moved)

    def say(self, status: str, short: str = "", names: tuple[str, ...] = ()) -> None:
        """Put `status` on the status line (the view stays where it is); `short`: its form for
        a narrow line, `names`: what in it may be cut first (`TimelineState.notice_cut`)."""
        self.status = one_line(status, 300)  # it may quote a path or an exception
        self.status_forms = (self.status, one_line(short, 300), names)
        self.sync(follow=False)

    def on_key(self, event: events.Key) -> None:
        """A notice lasts until the next key (runs before the key's action, which may say more)."""
        if self.status:
            self.status = ""
            self.timeline.update_state(replace(self.timeline.state, notice=""))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("search_next", "search_prev"):
            return bool(self.search.needle)
        if action in ("next_failure", "prev_failure"):
            return bool(self.playback.failures)
        return True

    # -- playback ---------------------------------------------------------------
    def action_toggle_play(self) -> None:
        self.player.toggle()
        if self.playback.playing:
            self.panes.give_back()  # playing gives a narrow screen's transcript back
        self.status = ""
        self.sync()

    def tick(self) -> None:
        """What the play timer does when it fires (tests call it to play without waiting)."""
        self.player.tick()

    @on(PlayTimer.Advanced)
    def show_advance(self, message: PlayTimer.Advanced) -> None:
        if message.stopped:
            self.status = "auto-paused at a pivot (Space plays on)"
            self.panes.reveal()
        self.sync()

    def action_step(self, delta: int) -> None:
        self.moved(self.playback.step(delta), "at the end" if delta > 0 else "at the start")

    def action_faster(self) -> None:
        self.paced(self.player.faster())

    def action_slower(self) -> None:
        self.paced(self.player.slower())

    def action_toggle_realtime(self) -> None:
        self.paced(self.player.toggle_realtime())

    def action_idle_limit(self) -> None:
        self.paced(self.player.cycle_idle())

    def paced(self, said: str) -> None:
        """+, -, R, i: the status line's pace part shows the new pace; the notice says only
        what it cannot ("already at the top speed"), not the pace a second time."""
        self.say("" if said == self.playback.pace.label() else said)

    def action_toggle_autopause(self) -> None:
        self.playback.autopause = not self.playback.autopause
        self.sync()

    # -- clicks (the jump keys are in replay_jumps.py) -------------------------------
    @on(Timeline.JumpRequested)
    def jump_to_turn(self, event: Timeline.JumpRequested) -> None:
        self.moved(self.jumps.go(lambda: self.playback.goto(event.turn)))

    @on(TranscriptView.PivotClicked)
    def show_clicked_pivot(self, event: TranscriptView.PivotClicked) -> None:
        self.panes.show()

    # -- search and filter ----------------------------------------------------------
    def action_search(self) -> None:
        self.search.ask()

    def action_search_next(self) -> None:
        self.search.next(forward=True)

    def action_search_prev(self) -> None:
        self.search.next(forward=False)

    @on(Search.Found)
    def show_found(self, message: Search.Found) -> None:
        self.search.show(self.search.found(message))

    @on(Search.Counted)
    def show_count(self, message: Search.Counted) -> None:
        self.search.show_count(message)

    @on(Search.Progress)
    def show_search_progress(self, message: Search.Progress) -> None:
        self.search.show_progress(message)

    def action_cycle_filter(self) -> None:
        value = self.playback.cycle_filter()
        self.transcript.with_reasons = value is Filter.PIVOTS  # a list of pivots says why
        shown = FILTER_WORDS[value]
        self.status = f"showing {shown}" if self.playback.visible else f"no {shown.split()[0]} here"
        self.sync()

    # -- view ---------------------------------------------------------------------
    def action_expand(self) -> None:
        """Fold or unfold the turn's calls; on a call that ran a sub-agent, open its transcript."""
        if not self.playback.turns:
            return
        cursor = self.playback.cursor
        hiding = self.playback.hiding()
        if hiding:  # what Enter would unfold is not on screen
            self.say(f"turn #{cursor + 1} is hidden by the filter ({hiding}): \\ changes it")
            return
        ran = [s for s in self.subagents if s.parent_turn == cursor and not s.error]
        order = [call.call_id for call in self.playback.turns[cursor].tool_calls] if ran else []
        ran.sort(key=lambda s: order.index(s.call_id) if s.call_id in order else len(order))
        if not ran and not expandable(self.playback.turns[cursor]):
            self.say("nothing to unfold here: this turn has no tool calls and shows in full")
        elif not ran:
            self.transcript.toggle_expanded(cursor, ALL_PARTS)
        elif len(ran) == 1:
            self.app.open_subagent(ran[0], self)  # type: ignore[attr-defined]
        else:
            self.choose_subagent(ran)

    def choose_subagent(self, ran: list[Subagent]) -> None:
        """Several sub-agents ran from this turn: ask which (by number; Enter alone: the
        first, in the turn's order, as the dim 1 in the box and `y` / `v`'s prompt say)."""
        lines = [
            f"{n}  {one_line(s.title or s.prompt, 60)}  {subagent_note(s)}"
            for n, s in enumerate(ran, 1)
        ]
        label = "Open which sub-agent? (number, Enter: 1)\n" + "\n".join(lines)

        def done(value: str | None) -> None:
            if value is None:
                return
            number = value.strip() or "1"
            if number.isdigit() and 1 <= int(number) <= len(ran):
                self.app.open_subagent(ran[int(number) - 1], self)  # type: ignore[attr-defined]
            else:
                self.say(f"no sub-agent {one_line(number, 20)} here (1 to {len(ran)})")

        self.app.push_screen(PromptScreen(label, "1"), done)

    def action_toggle_reasoning(self) -> None:
        self.transcript.set_reasoning(not self.transcript.reasoning)
        self.status = "reasoning shown" if self.transcript.reasoning else "reasoning folded"
        self.sync(follow=False)

    def action_toggle_panel(self) -> None:
        self.panes.toggle()

    def action_scroll_lines(self, delta: int) -> None:
        pane = self.panes.scrolled()
        if isinstance(pane, TranscriptView | PivotPanel):
            pane.scroll_by_hand(delta)

    def action_scroll_page(self, direction: int) -> None:
        pane = self.panes.scrolled()
        if isinstance(pane, TranscriptView | PivotPanel):
            height = max(pane.scrollable_content_region.height - 1, 1)
            pane.scroll_by_hand(direction * height)

    def action_next_pane(self) -> None:
        self.say(f"keys scroll the {self.panes.cycle()} (Tab switches)")

    def action_close_overlay(self) -> None:
        if self.handoff.close_box():  # the resume box (r) first: it sits over everything
            return
        if self.search.cancel():  # a long search next: it is what the person just started
            return
        if self.panes.close_overlay():
            return
        if self.playback.playing:
            self.action_toggle_play()
        elif self.from_results:
            self.app.back_to_results()  # type: ignore[attr-defined]

    def action_open_picker(self) -> None:
        self.app.open_picker()  # type: ignore[attr-defined]

    def action_search_sessions(self) -> None:
        """*: search every session's text for this search's text (the picker's search mode);
        after a hit of that search, for what was typed there, as it was typed."""
        query = self.search.query
        if query.typed is not None and self.search.needle:
            self.app.open_picker(query.typed)  # type: ignore[attr-defined]
        else:
            self.app.search_sessions(self.search.needle)  # type: ignore[attr-defined]

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    # -- live follow ----------------------------------------------------------------
    def action_follow(self) -> None:
        self.live.toggle()
        self.sync(follow=self.live.on)

    @on(LiveFollow.Updated)
    def show_live_update(self, message: LiveFollow.Updated) -> None:
        if not self.ready:  # posted before the screen was mounted: show it after
            self.call_after_refresh(self.show_live_update, message)
            return
        shown = self.live.apply(message.generation)
        if shown is None:
            return
        if shown.analysed:
            self.analysed = True
        if shown.loading is not None:
            self.reading = shown.loading
        if shown.restarted and self.status.startswith("auto-paused"):
            self.status = ""  # said of turns that are gone
        if shown.paused_at is not None:
            self.status = ""  # the LIVE part says why the view moved back, and End
            self.panes.reveal()
        elif self.playback.playing and not shown.pinned and not self.player.running:
            self.player.schedule()
        # an auto-pause moves the person's attention to the pivot: show it now
        self.sync(follow=self.transcript.follow_cursor, live=shown.paused_at is None)

    @on(LiveFollow.Switched)
    def follow_switched(self, message: LiveFollow.Switched) -> None:
        self.marking.identify(message.ref)  # marks, notes and resume belong to the new session
        self.name_session(SessionName.of(message.ref))
        self.status_name = self.session_name.short()  # type: ignore[union-attr]
        self.say(f"following the newest session now: {self.status_name}")

    # -- marks, notes, handoff ------------------------------------------------------
    @on(Marking.Loaded)
    def show_marks(self) -> None:
        self.sync(follow=False)

    def action_mark(self) -> None:
        self.marking.toggle()

    def action_note(self) -> None:
        self.marking.edit_note()

    def action_next_mark(self) -> None:
        self.moved(self.jumps.go(self.marking.next_mark), "no later mark")

    def action_prev_mark(self) -> None:
        self.moved(self.jumps.go(self.marking.prev_mark), "no earlier mark")

    def action_resume(self) -> None:
        self.handoff.resume(self.marking.identity)

    def action_copy(self) -> None:
        if self.playback.turns:
            self.clips.copy(self.playback.turns[self.playback.cursor])

    def action_page(self) -> None:
        if self.playback.turns:
            self.clips.page(self.playback.turns[self.playback.cursor])

    def action_next_human(self) -> None:
        self.moved(self.jumps.go(self.playback.next_human), "no later message of yours")

    def action_prev_human(self) -> None:
        self.moved(self.jumps.go(self.playback.prev_human), "no earlier message of yours")

    def _sensitivity(self) -> str:
        return str(getattr(self.app, "sensitivity", "normal"))

    def action_export(self) -> None:
        self.exporter.ask(self.live.ref, redact=False)

    def action_export_redacted(self) -> None:
        self.exporter.ask(self.live.ref, redact=True)

    def action_screenshot(self) -> None:
        ref = self.live.ref
        self.handoff.screenshot(
            self.playback.cursor if self.playback.turns else None,
            session_files(ref) if ref is not None else None,
        )
