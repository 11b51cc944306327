"""Refresh `src/pivotal/spend/prices.json` from LiteLLM's published model price table.

LiteLLM (MIT) ships its table in every wheel as
`litellm/model_prices_and_context_window_backup.json`. pivotal keeps a filtered copy:
the chat models of the providers whose models the agents it reads run on, and of each
only the per-token prices it uses (input, output, cache read, cache write, reasoning,
and the prompt-size tiers of those). Nothing else is changed: the field names and
values are LiteLLM's.

    pip download litellm --no-deps -d /tmp/litellm
    python tools/update_prices.py /tmp/litellm/litellm-*.whl

The date written is today's; the LiteLLM version is read from the wheel. The
licence beside the data (`LICENSE.litellm`) is refreshed from the wheel too.
"""

from __future__ import annotations

import datetime
import json
import re
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "pivotal" / "spend" / "prices.json"
LICENCE = OUT.with_name("LICENSE.litellm")
TABLE = "litellm/model_prices_and_context_window_backup.json"

PROVIDERS = (
    "anthropic",  # Claude Code, and Claude through opencode, Cline, aider ...
    "openai",  # Codex CLI
    "gemini",  # Gemini CLI
    "dashscope",  # Qwen Code
    "moonshot",  # Kimi CLI
    "mistral",  # Mistral Vibe
    "deepseek",
    "xai",
    "zai",
)
"""Whose prices are kept, in the order a bare model name is looked for in them."""
MODES = ("chat", "responses")
BEDROCK_CLAUDE = re.compile(r"^anthropic\.claude-")
"""Claude models LiteLLM no longer lists for Anthropic's own API (claude-sonnet-4-20250514 ...)
are still listed through Bedrock, at the same list price: those entries (no region prefix) are
kept too, and a `claude-…` name is looked for there last."""
PRICE = re.compile(
    r"^(input_cost_per_token|output_cost_per_token|cache_read_input_token_cost|"
    r"cache_creation_input_token_cost|output_cost_per_reasoning_token)"
    r"(_above_\d+k?_tokens)?$"
)
TIER_FIELDS = (
    "input_cost_per_token",
    "output_cost_per_token",
    "cache_read_input_token_cost",
    "cache_creation_input_token_cost",
    "output_cost_per_reasoning_token",
)


def kept(entry: dict) -> dict | None:
    """The fields pivotal prices with, or None when the model has no per-token price."""
    out: dict = {"litellm_provider": entry["litellm_provider"]}
    for name, value in entry.items():
        if PRICE.match(name) and isinstance(value, int | float):
            out[name] = value
    tiers = entry.get("tiered_pricing")
    if isinstance(tiers, list):
        out["tiered_pricing"] = [
            {
                "range": tier["range"],
                **{f: tier[f] for f in TIER_FIELDS if isinstance(tier.get(f), int | float)},
            }
            for tier in tiers
            if isinstance(tier, dict) and isinstance(tier.get("range"), list)
        ]
    priced = "input_cost_per_token" in out or out.get("tiered_pricing")
    return out if priced else None


def main(wheel: Path) -> None:
    match = re.match(r"litellm-([^-]+)-", wheel.name)
    if not match:
        raise SystemExit(f"{wheel.name}: not a litellm wheel (litellm-VERSION-….whl)")
    with zipfile.ZipFile(wheel) as archive:
        table = json.loads(archive.read(TABLE))
        licences = [n for n in archive.namelist() if n.endswith("licenses/LICENSE")]
        licence = archive.read(licences[0]).decode() if licences else ""
    models = {}
    for name, entry in table.items():
        if not isinstance(entry, dict):
            continue
        provider = entry.get("litellm_provider")
        bedrock = provider == "bedrock_converse" and BEDROCK_CLAUDE.match(name)
        if provider not in PROVIDERS and not bedrock:
            continue
        if entry.get("mode") not in MODES:
            continue
        fields = kept(entry)
        if fields is not None:
            models[name] = fields
    data = {
        "about": (
            "A filtered copy of LiteLLM's model price table (MIT licence: LICENSE.litellm "
            "beside this file). Refresh with tools/update_prices.py; see PRICES.md."
        ),
        "source": f"litellm {match.group(1)} wheel, {TABLE}",
        "litellm_version": match.group(1),
        "taken": datetime.date.today().isoformat(),
        "providers": list(PROVIDERS),
        "also": "bedrock_converse entries named anthropic.claude-* (no region prefix)",
        "models": dict(sorted(models.items())),
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if licence:
        LICENCE.write_text(licence, encoding="utf-8")
    print(f"{OUT}: {len(models)} models from litellm {match.group(1)}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]))
