"""Labelled silences: every silence of every labelled session, with its measured signals.

Two kinds of labelled sets feed the fit and the evaluation:

- `realworld`: real sessions from public repositories, labelled by hand, kept beside the
  repository in `../shared/realworld/` (never copied into it). `labels.json` labels every
  silent-looking turn (`not_pivot` or a pivot kind); a silence no label names counts as no
  pivot, as `score.py` there counts it. A session's group is its repository (the part of
  the file name before the second `__`): the folds of the cross-validation.
- the project's own sample sets (`sample_sessions/`, `heldout/`, `heldout2/`): each session
  has an `*.expected.json` listing its pivots; every other silence is no pivot. A group is a
  scenario (the same story written in six formats is one group).

Each silence becomes an `Example`: its features (the values the detector measured, by weight
name; None when a hard gate of PIVOTS.md turned it down first) and its label. A labelled
pivot that the readers or the silence rules never offer as a silence is a `Missed` label:
it counts against recall and cannot be learnt from.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pivotal.detect import PivotConfig
from pivotal.detect.tracker import PivotTracker
from pivotal.model import SessionRef, Turn
from pivotal.readers import find_sessions, read_session

REPO = Path(__file__).resolve().parents[2]
REALWORLD = REPO.parent / "shared" / "realworld"
REALEXTRA = REPO.parent / "realextra"
"""More real sessions, from repositories `realworld` does not hold, labelled blind by the
project (each subfolder: `MANIFEST.tsv`, `labels.json` and the files, as in `realworld`)."""
REALEXTRA2 = REPO.parent / "realextra2"
"""A third real set, from repositories neither of the others holds, gathered and labelled the
same way after the second one was used in a fit (kept apart to check that fit)."""
REALEXTRA3 = REPO.parent / "realextra3"
"""A fourth, gathered the same way to check a fit on the three others (kept apart from it)."""
REALEXTRA4 = REPO.parent / "realextra4"
"""A fifth, gathered to check a fit on the four others."""
REALEXTRA5 = REPO.parent / "realextra5"
"""A sixth, gathered to check a fit on the five others (the first with a second table)."""
REALEXTRA6 = REPO.parent / "realextra6"
"""A seventh, gathered to check a fit that pulls the real sets towards the own sets' weights."""
REALEXTRA7 = REPO.parent / "realextra7"
"""An eighth, gathered to check that fit again, trained on the seven others."""
REALEXTRA8 = REPO.parent / "realextra8"
"""A ninth, gathered to check the shipped weights and that fit once more, on the eight others."""
EXTRA_ROOTS = {
    "realextra": REALEXTRA,
    "realextra2": REALEXTRA2,
    "realextra3": REALEXTRA3,
    "realextra4": REALEXTRA4,
    "realextra5": REALEXTRA5,
    "realextra6": REALEXTRA6,
    "realextra7": REALEXTRA7,
    "realextra8": REALEXTRA8,
}
REAL_SETS = ("realworld", *EXTRA_ROOTS)
SAMPLES = REPO / "sample_sessions"
OWN_SETS = {"tuning": SAMPLES, "dev": SAMPLES / "heldout", "heldout2": SAMPLES / "heldout2"}
"""The project's own labelled sets (`tuning` is `sample_sessions/` without its held-out folders)."""
NOT_PIVOT = "not_pivot"
_HELDOUT_DIR = re.compile(r"heldout\d*")
REAL_FORMATS = {"aider", "claude-code", "codex", "gemini", "opencode", "qwen"}


@dataclass
class Example:
    """One silence the detector judged, with its label."""

    set: str
    group: str
    file: str
    format: str
    turn: int
    silence: str
    label: str
    """A pivot kind, or `not_pivot`."""
    sure: bool
    features: dict[str, float] | None
    """Measured values by weight name; None when a hard gate turned the silence down."""
    text: str = ""

    @property
    def pivot(self) -> bool:
        return self.label != NOT_PIVOT


@dataclass
class Missed:
    """A labelled pivot no judged silence matched (a reader or silence-rule miss)."""

    set: str
    group: str
    file: str
    format: str
    label: str
    where: str


@dataclass
class Labelled:
    examples: list[Example] = field(default_factory=list)
    missed: list[Missed] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def extend(self, other: Labelled) -> None:
        self.examples.extend(other.examples)
        self.missed.extend(other.missed)
        self.errors.extend(other.errors)


def _judged(
    turns: Sequence[Turn], cfg: PivotConfig
) -> Iterator[tuple[Turn, str, dict[str, float] | None]]:
    """Every silence the detector judged: its turn, its kind and its measured values."""
    tracker = PivotTracker(cfg)
    tracker.update(turns, 0)
    for pos, judgement in tracker.judgements():
        kind = tracker.silence_at(turns, pos)
        yield turns[pos], kind.value if kind is not None else "", judgement.features


def _ids(turn: Turn) -> set[str]:
    return {x for x in (turn.message_id, turn.source.record_id) if x}


# -- realworld -----------------------------------------------------------------------------


def repository(rel: str) -> str:
    """The repository a real file came from: `<format>/<owner>__<repo>__<file>` -> owner__repo."""
    return "__".join(rel.split("/", 1)[-1].split("__")[:2])


def _real_matches(turn: Turn, label: dict[str, Any]) -> bool:
    ids = {x for x in [label.get("message_id"), *(label.get("alt_ids") or [])] if x}
    if ids and turn.message_id in ids:
        return True
    lines = {x for x in [label.get("line"), *(label.get("alt_lines") or [])] if x}
    return bool(lines) and turn.source.line in lines


def real_files(root: Path) -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """Every real file of a supported format (relative path) with its format and labels."""
    out: dict[str, tuple[str, list[dict[str, Any]]]] = {}
    for row in (root / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) >= 7 and cols[6] == "real" and cols[1] in REAL_FORMATS:
            if (root / cols[0]).exists():
                out[cols[0]] = (cols[1], [])
    for label in json.loads((root / "labels.json").read_text(encoding="utf-8")):
        fmt, labels = out.setdefault(label["file"], (label["format"], []))
        labels.append(label)
    return out


def realworld(
    root: Path = REALWORLD, cfg: PivotConfig | None = None, name: str = "realworld"
) -> Labelled:
    cfg = cfg or PivotConfig()
    out = Labelled()
    for rel, (fmt, labels) in sorted(real_files(root).items()):
        group = repository(rel)
        used: set[int] = set()
        try:
            refs = find_sessions([root / rel]).refs
            for ref in refs:
                for turn, silence, values in _judged(read_session(ref).turns, cfg):
                    hit = next(
                        (
                            i
                            for i, lab in enumerate(labels)
                            if i not in used and _real_matches(turn, lab)
                        ),
                        None,
                    )
                    if hit is not None:
                        used.add(hit)
                    label = labels[hit] if hit is not None else {}
                    out.examples.append(
                        Example(
                            name,
                            group,
                            rel,
                            fmt,
                            turn.index,
                            silence,
                            str(label.get("label", NOT_PIVOT)),
                            bool(label.get("sure", True)),
                            values,
                            turn.preview[:60],
                        )
                    )
        except Exception as exc:  # noqa: BLE001 - one unreadable file must not stop the rest
            out.errors.append(f"{rel}: {type(exc).__name__}: {exc}")
            continue
        for i, lab in enumerate(labels):
            if i not in used and lab["label"] != NOT_PIVOT:
                where = f"line {lab.get('line')} id {lab.get('message_id')}"
                out.missed.append(Missed(name, group, rel, fmt, lab["label"], where))
    return out


# -- own sets ------------------------------------------------------------------------------


def expected_files(root: Path, top: bool = True) -> Iterator[Path]:
    """Every `*.expected.json` under root, not descending into held-out folders below it."""
    if not root.is_dir():
        return
    for path in sorted(root.iterdir()):
        if path.is_dir():
            if path.name != "__pycache__" and not _HELDOUT_DIR.fullmatch(path.name):
                yield from expected_files(path, top=False)
        elif path.name.endswith(".expected.json"):
            yield path


def conversations(refs: list[SessionRef]) -> list[list[Turn]]:
    """The turn lists to judge: one per session, except that the runs one history file holds
    (aider appends every run, restoring the previous chat, to one file) form one conversation."""
    sessions = [read_session(ref).turns for ref in refs]
    single_file = len({ref.path for ref in refs}) == 1 and refs[0].path.suffix in (".md", ".jsonl")
    if len(sessions) < 2 or not single_file:
        return sessions
    joined: list[Turn] = []
    for turns in sessions:
        for turn in turns:
            joined.append(dataclasses.replace(turn, index=len(joined)))
    return [joined]


def own_set(name: str, root: Path, cfg: PivotConfig | None = None) -> Labelled:
    cfg = cfg or PivotConfig()
    out = Labelled()
    for expected in expected_files(root):
        session = expected.with_name(expected.name[: -len(".expected.json")])
        doc = json.loads(expected.read_text(encoding="utf-8"))
        fmt = str(doc.get("format", "?"))
        scenario = str(doc.get("scenario", session.name))
        group = f"{name}:{scenario}"
        labels = [p for p in doc.get("pivots", []) if isinstance(p, dict)]
        used: set[int] = set()
        try:
            for turns in conversations(find_sessions([session]).refs):
                for turn, silence, values in _judged(turns, cfg):
                    hit = next(
                        (
                            i
                            for i, lab in enumerate(labels)
                            if i not in used
                            and (
                                (lab.get("line") is not None and turn.source.line == lab["line"])
                                or (lab.get("message_id") and lab["message_id"] in _ids(turn))
                            )
                        ),
                        None,
                    )
                    if hit is not None:
                        used.add(hit)
                    kind = str(labels[hit].get("kind")) if hit is not None else NOT_PIVOT
                    out.examples.append(
                        Example(
                            name,
                            group,
                            str(session),
                            fmt,
                            turn.index,
                            silence,
                            kind,
                            True,
                            values,
                            turn.preview[:60],
                        )
                    )
        except Exception as exc:  # noqa: BLE001 - one bad sample must not stop the rest
            out.errors.append(f"{session}: {type(exc).__name__}: {exc}")
            continue
        for i, lab in enumerate(labels):
            if i not in used:
                where = f"line {lab.get('line')} id {lab.get('message_id')}"
                out.missed.append(
                    Missed(name, group, str(session), fmt, str(lab.get("kind")), where)
                )
    return out


def load(sets: Sequence[str], cfg: PivotConfig | None = None) -> dict[str, Labelled]:
    """The named sets that exist here (`realworld` only beside a `../shared/realworld`)."""
    out: dict[str, Labelled] = {}
    for name in sets:
        if name == "realworld":
            if (REALWORLD / "labels.json").exists():
                out[name] = realworld(REALWORLD, cfg)
        elif name in EXTRA_ROOTS:
            roots = sorted(p.parent for p in EXTRA_ROOTS[name].glob("*/labels.json"))
            if roots:
                out[name] = Labelled()
                for root in roots:
                    out[name].extend(realworld(root, cfg, name))
        elif name in OWN_SETS:
            if OWN_SETS[name].is_dir():
                out[name] = own_set(name, OWN_SETS[name], cfg)
        else:
            raise ValueError(f"unknown set {name!r}: use {', '.join((*REAL_SETS, *OWN_SETS))}")
    return out
