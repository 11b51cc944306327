"""The tuning scenarios: every module here exposes `SCENARIOS: list[Scenario]`."""

from __future__ import annotations

import importlib
import pkgutil

from samplegen.dsl import Scenario


def all_scenarios() -> list[Scenario]:
    """Every tuning scenario, in module-name order (stable, so output paths are stable)."""
    out: list[Scenario] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        out.extend(importlib.import_module(f"{__name__}.{info.name}").SCENARIOS)
    return out
