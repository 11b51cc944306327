"""Regenerate every sample session and its expected pivots, deterministically.

    python tools/samplegen/make.py [--out DIR] [--only NAME ...]

Writes `<out>/<format>/<scenario>.<ext>` (opencode: `<out>/opencode/<scenario>/opencode.db`)
plus `<same path>.expected.json`, for every tuning scenario in every format; the demo is
also copied to `src/pivotal/_demo/demo.jsonl` (Claude Code format). Held-out scenarios
from `tools/samplegen/heldout/*.py` (each exposing `SCENARIOS` and `FORMATS`) go to
`<out>/heldout/<format>/…`, and the second held-out set `tools/samplegen/heldout2/*.py` to
`<out>/heldout2/<format>/…`. Fixed seeds and no wall clock: the same input gives the same
bytes, which `tests/test_samples_wellformed.py` checks.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import shutil
import sys
from pathlib import Path
from typing import Any

GEN = Path(__file__).resolve().parent
REPO = GEN.parents[1]
SAMPLES = REPO / "sample_sessions"
if str(GEN.parent) not in sys.path:
    sys.path.insert(0, str(GEN.parent))

from samplegen.dsl import Scenario  # noqa: E402
from samplegen.writers import FORMATS, writer  # noqa: E402


def sample_path(root: Path, fmt: str, name: str) -> Path:
    """Where a scenario's file goes for a format."""
    if fmt == "opencode":
        return root / "opencode" / name / "opencode.db"
    return root / fmt / f"{name}.{writer(fmt).EXT}"


def expected_path(path: Path) -> Path:
    return path.with_name(path.name + ".expected.json")


def write_one(scenario: Scenario, fmt: str, root: Path) -> Path:
    """Write one scenario in one format, with its expected-pivots file beside it."""
    path = sample_path(root, fmt, scenario.name)
    if path.exists():
        path.unlink()
    anchors, omitted = writer(fmt).write(scenario, path), []
    if isinstance(anchors, tuple):
        anchors, omitted = anchors
    doc: dict[str, Any] = {"scenario": scenario.name, "format": fmt, "pivots": anchors}
    if omitted:
        doc["not_in_file"] = omitted
    expected_path(path).write_text(
        json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return path


def tuning_scenarios() -> list[Scenario]:
    from samplegen.scenarios import all_scenarios

    return all_scenarios()


def heldout_modules(name: str = "heldout") -> list[Any]:
    """Modules under `<name>/` here exposing SCENARIOS and FORMATS (sorted by file name)."""
    folder = GEN / name
    mods = []
    for file in sorted(folder.glob("*.py")) if folder.is_dir() else []:
        if file.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"samplegen.{name}.{file.stem}"))
    return mods


def generate(
    root: Path,
    only: set[str] | None = None,
    demo_copy: Path | None = None,
    heldout: bool = True,
) -> None:
    """Write every tuning scenario in every format (and the held-out ones unless told not to)."""
    for scenario in tuning_scenarios():
        if only and scenario.name not in only:
            continue
        for fmt in FORMATS:
            write_one(scenario, fmt, root)
        if scenario.name == "demo" and demo_copy is not None:
            demo_copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(sample_path(root, "claude", "demo"), demo_copy)
    for folder in ("heldout", "heldout2") if heldout else ():
        for mod in heldout_modules(folder):
            for scenario in mod.SCENARIOS:
                if only and scenario.name not in only:
                    continue
                for fmt in mod.FORMATS:
                    write_one(scenario, fmt, root / folder)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=SAMPLES, help="output root (default: samples)")
    ap.add_argument("--only", nargs="*", help="only these scenario names")
    ap.add_argument("--no-heldout", action="store_true", help="skip samplegen/heldout/")
    args = ap.parse_args(argv)
    demo = REPO / "src" / "pivotal" / "_demo" / "demo.jsonl" if args.out == SAMPLES else None
    generate(args.out, set(args.only) if args.only else None, demo, heldout=not args.no_heldout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
