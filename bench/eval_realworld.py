"""The detector on real sessions from public repositories, labelled by hand.

Reads `../shared/realworld/` (kept beside the repository, never inside it: the files are
other people's, most without a licence) the way `score.py` there scores `pivotal scan
--json`: every real file of a supported format is scanned; a pivot matches a label by
message id (or the label's other ids), else by line (or its other lines); a pivot on a
silence labelled `not_pivot`, and any other pivot no label names (candidates aside), is a
false alarm. Scored beside two naive baselines on the same sessions: "every empty human
message" and "every empty or bare go-on human message". Used by `eval_detector.py`.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pivotal.detect import PivotConfig, detect_pivots
from pivotal.detect.silence import classify_text
from pivotal.model import Silence, Turn
from pivotal.readers import find_sessions, read_session

SUPPORTED = {"aider", "claude-code", "codex", "gemini", "opencode"}


@dataclass
class Found:
    """A pivot (or a naive baseline's pick) in the terms the labels use."""

    message_id: str | None
    line: int | None
    kind: str
    candidate: bool = False


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    kind_ok: int = 0
    neg_hits: int = 0

    def add(self, other: Tally) -> None:
        for name in ("tp", "fp", "fn", "kind_ok", "neg_hits"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def row(self, name: str, kinds: bool = True) -> str:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        kind = f"{self.kind_ok / self.tp:6.3f}" if kinds and self.tp else "     -"
        return (
            f"  {name:<28} P {p:5.3f}  R {r:5.3f}  F1 {f1:5.3f}  kind {kind}  "
            f"(tp {self.tp}, fp {self.fp}, fn {self.fn}; on not_pivot labels {self.neg_hits})"
        )


@dataclass
class RealResult:
    detector: Tally = field(default_factory=Tally)
    naive_empty: Tally = field(default_factory=Tally)
    naive_ack: Tally = field(default_factory=Tally)
    by_format: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    files: int = 0
    labels: int = 0
    pivots: int = 0
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def files_and_labels(root: Path) -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """Every scored file (relative path) with its format and labels."""
    out: dict[str, tuple[str, list[dict[str, Any]]]] = {}
    rows = (root / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
    for row in rows:
        cols = row.split("\t")
        if len(cols) >= 7 and cols[6] == "real" and cols[1] in SUPPORTED:
            if (root / cols[0]).exists():
                out[cols[0]] = (cols[1], [])
    for label in json.loads((root / "labels.json").read_text(encoding="utf-8")):
        fmt, labels = out.setdefault(label["file"], (label["format"], []))
        labels.append(label)
    return out


def _matches(found: Found, label: dict[str, Any]) -> bool:
    ids = {x for x in [label.get("message_id"), *(label.get("alt_ids") or [])] if x}
    if ids and found.message_id in ids:
        return True
    lines = {x for x in [label.get("line"), *(label.get("alt_lines") or [])] if x}
    return bool(lines) and found.line in lines


def score(labels: list[dict[str, Any]], found: list[Found]) -> tuple[Tally, list[str]]:
    """One file's tally, and a line per miss, false alarm and wrong kind."""
    tally = Tally()
    notes: list[str] = []
    used: set[int] = set()
    for label in labels:
        hit = next((i for i, f in enumerate(found) if i not in used and _matches(f, label)), None)
        where = f"line={label.get('line')} id={label.get('message_id')}"
        if label["label"] != "not_pivot":
            if hit is None:
                tally.fn += 1
                notes.append(f"MISS  {where} {label['label']} ({label['silence']})")
                continue
            used.add(hit)
            tally.tp += 1
            if found[hit].kind == label["label"]:
                tally.kind_ok += 1
            else:
                notes.append(f"KIND  {where} {label['label']} / found {found[hit].kind}")
        elif hit is not None:
            used.add(hit)
            tally.fp += 1
            tally.neg_hits += 1
            notes.append(f"FALSE {where} {found[hit].kind} on a not_pivot {label['silence']}")
    for i, f in enumerate(found):
        if i not in used and not f.candidate:
            tally.fp += 1
            notes.append(f"FALSE line={f.line} id={f.message_id} {f.kind} on an unlabelled turn")
    return tally, notes


def _naive(turns: Iterable[Turn], with_ack: bool) -> list[Found]:
    cfg = PivotConfig()
    out = []
    for turn in turns:
        if turn.is_human:
            kind = classify_text(turn.text, cfg)
            if kind is Silence.EMPTY or (with_ack and kind is Silence.ACK):
                out.append(Found(turn.message_id, turn.source.line, ""))
    return out


def run_realworld(root: Path, cfg: PivotConfig) -> RealResult:
    """Scan every file of the corpus and score it."""
    result = RealResult()
    for rel, (fmt, labels) in sorted(files_and_labels(root).items()):
        result.files += 1
        result.labels += len(labels)
        detected: list[Found] = []
        empties: list[Found] = []
        acks: list[Found] = []
        try:
            for ref in find_sessions([root / rel]).refs:
                turns = read_session(ref).turns
                for p in detect_pivots(turns, cfg):
                    anchor = turns[p.turn]
                    detected.append(
                        Found(anchor.message_id, anchor.source.line, p.kind.value, p.candidate)
                    )
                empties.extend(_naive(turns, False))
                acks.extend(_naive(turns, True))
        except Exception as exc:  # one unreadable file must not stop the evaluation
            result.errors.append(f"{rel}: {type(exc).__name__}: {exc}")
            continue
        tally, notes = score(labels, detected)
        result.pivots += sum(1 for lab in labels if lab["label"] != "not_pivot")
        result.detector.add(tally)
        result.by_format[fmt].add(tally)
        result.naive_empty.add(score(labels, empties)[0])
        result.naive_ack.add(score(labels, acks)[0])
        result.notes.extend(f"{note}  {rel}" for note in notes)
    return result


def report_realworld(root: Path, result: RealResult, verbose: bool) -> None:
    print(
        f"== realworld: {root}  ({result.files} files, {result.labels} labelled silences, "
        f"{result.pivots} of them pivots)"
    )
    print(result.detector.row("detector"))
    print(result.naive_empty.row("naive: every empty", kinds=False))
    print(result.naive_ack.row("naive: every empty or ack", kinds=False))
    for fmt in sorted(result.by_format):
        print(result.by_format[fmt].row(f"  {fmt}"))
    for line in result.errors[:5]:
        print(f"  error: {line}")
    for line in result.notes if verbose else []:
        print(f"    {line}")
    print()
