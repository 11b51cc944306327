"""Measure the pivot detector against labelled sample sessions.

    python bench/eval_detector.py [DIR ...] [--sets tuning,dev,heldout] [--sensitivity normal]
                                  [--verbose]

Each DIR is one set. Without DIRs, `--sets` picks named sets (default all
three): `tuning` = `sample_sessions/` without its `heldout/` and `heldout2/`
folders, `dev` = `sample_sessions/heldout/` (the first held-out set, now
studied), `heldout` = `sample_sessions/heldout2/` (blind; only when the folder
exists), `realworld` = real sessions from public repositories labelled by hand, kept
beside the repository in `../shared/realworld/` (only when it exists; scored the way its
`score.py` scores `pivotal scan --json`, see `eval_realworld.py`). Every session with a
`<file>.expected.json` beside it ({"scenario", "format", "pivots": [{"line",
"message_id", "kind", "silence"}]}) is read with the project's readers and
run through `detect_pivots`. A detection matches a label when its anchor
turn has the label's source line or message id. Per set it prints
precision, recall, F1 and kind accuracy (on matched pivots), beside two
naive baselines: "every empty human message is a pivot" and "every empty
or bare go-on human message is a pivot". The runs one history file holds
(aider appends each run, restoring the chat, to one file) are judged as one
conversation. Plain text; never crashes on a
format or label it has not seen (such sessions are counted as errors).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import traceback
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from eval_realworld import report_realworld, run_realworld  # noqa: E402

from pivotal.detect import PivotConfig, detect_pivots  # noqa: E402
from pivotal.detect.silence import classify_text  # noqa: E402
from pivotal.model import SessionRef, Silence, Turn  # noqa: E402
from pivotal.readers import find_sessions, read_session  # noqa: E402

REALWORLD = REPO.parent / "shared" / "realworld"
"""Real sessions from public repositories with hand-made labels (never copied into the repo)."""
SKIP_DIRS = {"__pycache__"}
HELDOUT_DIR = re.compile(r"heldout\d*")
"""Held-out set folders (`heldout/`, `heldout2/` ...): never part of another set."""


@dataclass
class Label:
    line: int | None
    message_id: str | None
    kind: str
    silence: str


@dataclass
class Detection:
    line: int | None
    ids: set[str]
    kind: str
    silence: str
    turn: int


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    kind_ok: int = 0
    silence_ok: int = 0

    def add(self, other: Score) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn
        self.kind_ok += other.kind_ok
        self.silence_ok += other.silence_ok

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def kind_accuracy(self) -> float:
        return self.kind_ok / self.tp if self.tp else 0.0

    def row(self, name: str, kinds: bool = True) -> str:
        kind = f"{self.kind_accuracy:6.3f}" if kinds else "     -"
        return (
            f"  {name:<28} P {self.precision:5.3f}  R {self.recall:5.3f}  F1 {self.f1:5.3f}  "
            f"kind {kind}  (tp {self.tp}, fp {self.fp}, fn {self.fn})"
        )


@dataclass
class SetResult:
    detector: Score = field(default_factory=Score)
    naive_empty: Score = field(default_factory=Score)
    naive_ack: Score = field(default_factory=Score)
    by_format: dict[str, Score] = field(default_factory=lambda: defaultdict(Score))
    sessions: int = 0
    labels: int = 0
    errors: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)


def expected_files(root: Path) -> Iterator[Path]:
    """Every `*.expected.json` under root, not descending into held-out or generator folders."""
    if not root.is_dir():
        return
    for path in sorted(root.iterdir()):
        if path.is_dir():
            if path.name not in SKIP_DIRS and not HELDOUT_DIR.fullmatch(path.name):
                yield from expected_files(path)
        elif path.name.endswith(".expected.json"):
            yield path


def load_labels(doc: Any) -> list[Label]:
    out = []
    for item in doc.get("pivots", []) if isinstance(doc, dict) else []:
        if not isinstance(item, dict):
            continue
        line = item.get("line")
        mid = item.get("message_id")
        out.append(
            Label(
                line=line if isinstance(line, int) else None,
                message_id=str(mid) if mid not in (None, "") else None,
                kind=str(item.get("kind", "")),
                silence=str(item.get("silence", "")),
            )
        )
    return out


def turn_ids(turn: Turn) -> set[str]:
    return {x for x in (turn.message_id, turn.source.record_id) if x}


def naive(turns: Sequence[Turn], with_ack: bool) -> list[Detection]:
    cfg = PivotConfig()
    out = []
    for turn in turns:
        if not turn.is_human:
            continue
        kind = classify_text(turn.text, cfg)
        if kind is Silence.EMPTY or (with_ack and kind is Silence.ACK):
            out.append(Detection(turn.source.line, turn_ids(turn), "", kind.value, turn.index))
    return out


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


def match(
    labels: list[Label], found: list[Detection]
) -> tuple[Score, list[tuple[Label, Detection]]]:
    score = Score()
    used: set[int] = set()
    pairs = []
    for label in labels:
        hit = None
        for i, det in enumerate(found):
            if i in used:
                continue
            if (label.line is not None and det.line == label.line) or (
                label.message_id is not None and label.message_id in det.ids
            ):
                hit = i
                break
        if hit is None:
            score.fn += 1
            continue
        used.add(hit)
        score.tp += 1
        det = found[hit]
        score.kind_ok += det.kind == label.kind
        score.silence_ok += det.silence == label.silence
        pairs.append((label, det))
    score.fp = len(found) - len(used)
    return score, pairs


def evaluate_file(expected: Path, cfg: PivotConfig, result: SetResult) -> None:
    session_path = expected.with_name(expected.name[: -len(".expected.json")])
    doc = json.loads(expected.read_text(encoding="utf-8"))
    labels = load_labels(doc)
    fmt = str(doc.get("format", "?")) if isinstance(doc, dict) else "?"
    found = find_sessions([session_path])
    if not found.refs:
        problem = found.problems[0].message if found.problems else "no session found"
        raise RuntimeError(problem)
    detections: list[Detection] = []
    naive_e: list[Detection] = []
    naive_a: list[Detection] = []
    for turns in conversations(found.refs):
        for pivot in detect_pivots(turns, cfg):
            anchor = turns[pivot.turn] if pivot.turn < len(turns) else None
            if anchor is None:
                continue
            detections.append(
                Detection(
                    anchor.source.line,
                    turn_ids(anchor),
                    pivot.kind.value,
                    pivot.silence.value,
                    pivot.turn,
                )
            )
        naive_e.extend(naive(turns, False))
        naive_a.extend(naive(turns, True))
    score, pairs = match(labels, detections)
    result.detector.add(score)
    result.by_format[fmt].add(score)
    result.naive_empty.add(match(labels, naive_e)[0])
    result.naive_ack.add(match(labels, naive_a)[0])
    result.sessions += 1
    result.labels += len(labels)
    for label, det in pairs:
        result.confusion[(label.kind, det.kind)] += 1
    name = f"{fmt}/{doc.get('scenario', session_path.name)}"
    matched = {id(d) for _, d in pairs}
    matched_labels = {id(lb) for lb, _ in pairs}
    for label in labels:
        if id(label) not in matched_labels:
            result.misses.append(
                f"{name}: missed {label.kind}/{label.silence} at "
                f"line {label.line} id {label.message_id}"
            )
    for det in detections:
        if id(det) not in matched:
            result.misses.append(
                f"{name}: extra {det.kind}/{det.silence} at turn {det.turn} line {det.line}"
            )
    for label, det in pairs:
        if label.kind != det.kind:
            result.misses.append(
                f"{name}: kind {det.kind} instead of {label.kind} at turn {det.turn}"
            )


def run_set(root: Path, cfg: PivotConfig, verbose: bool) -> SetResult:
    result = SetResult()
    for expected in expected_files(root):
        try:
            evaluate_file(expected, cfg, result)
        except Exception as exc:  # one bad sample must not stop the evaluation
            message = f"{type(exc).__name__}: {exc}"
            if verbose and not any(e.endswith(message) for e in result.errors):
                traceback.print_exc()
            result.errors.append(f"{expected}: {message}")
    return result


def report(name: str, root: Path, result: SetResult, verbose: bool) -> None:
    print(f"== {name}: {root}  ({result.sessions} sessions, {result.labels} labelled pivots)")
    if not result.sessions:
        print("  no labelled sessions found")
    else:
        print(result.detector.row("detector"))
        print(result.naive_empty.row("naive: every empty", kinds=False))
        print(result.naive_ack.row("naive: every empty or ack", kinds=False))
        for fmt in sorted(result.by_format):
            print(result.by_format[fmt].row(f"  {fmt}"))
        if result.confusion:
            wrong = {k: v for k, v in result.confusion.items() if k[0] != k[1]}
            if wrong:
                text = ", ".join(f"{a}→{b} ×{n}" for (a, b), n in sorted(wrong.items()))
                print(f"  kind confusions (label→detected): {text}")
    if result.errors:
        print(f"  errors: {len(result.errors)}")
        for line in result.errors[: 20 if verbose else 5]:
            print(f"    {line}")
    if verbose:
        for line in result.misses:
            print(f"    {line}")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="*", type=Path)
    parser.add_argument("--sensitivity", default="normal")
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument(
        "--sets",
        default="tuning,dev,heldout,realworld",
        help="comma-separated sets to run when no DIR is given: tuning, dev (sample_sessions/"
        "heldout/), heldout (sample_sessions/heldout2/, only when it exists), realworld "
        "(../shared/realworld/, only when it exists)",
    )
    args = parser.parse_args(argv)
    cfg = PivotConfig.for_sensitivity(args.sensitivity)
    sets: list[tuple[str, Path]]
    if args.dirs:
        sets = [(d.name or str(d), d) for d in args.dirs]
    else:
        base = REPO / "sample_sessions"
        known = {
            "tuning": base,
            "dev": base / "heldout",
            "heldout": base / "heldout2",
            "realworld": REALWORLD,
        }
        wanted = [name.strip() for name in args.sets.split(",") if name.strip()]
        unknown = [name for name in wanted if name not in known]
        if unknown:
            parser.error(f"unknown set(s) {', '.join(unknown)}: use {', '.join(known)}")
        # the held-out set (written blind) and the real corpus are read when asked for and present
        sets = [
            (name, known[name])
            for name in wanted
            if name not in ("heldout", "realworld") or known[name].is_dir()
        ]
        if "realworld" in wanted and not REALWORLD.is_dir():
            print(f"== realworld: {REALWORLD} not found, skipped\n")
    for name, root in sets:
        if name == "realworld":
            report_realworld(root, run_realworld(root, cfg), args.verbose)
        else:
            report(name, root, run_set(root, cfg, args.verbose), args.verbose)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
