"""The price list: read from the shipped data, found by the names agents record, priced right.

Rates are taken from the table's own file (plain json, not the code under test) and the
costs are worked out by hand from them.
"""

from __future__ import annotations

import json

import pytest

from pivotal.model import Usage
from pivotal.spend.prices import PRICES_FILE, PriceList, price_list

RAW = json.loads(PRICES_FILE.read_text(encoding="utf-8"))["models"]


def test_the_shipped_table_says_where_it_came_from_and_its_licence_is_beside_it() -> None:
    data = json.loads(PRICES_FILE.read_text(encoding="utf-8"))
    assert data["litellm_version"] and data["taken"]
    licence = PRICES_FILE.with_name("LICENSE.litellm").read_text(encoding="utf-8")
    assert "MIT License" in licence and "Berri AI" in licence
    assert PRICES_FILE.with_name("PRICES.md").is_file()
    # only per-token prices of chat models are kept, nothing else of LiteLLM's entries
    fields = {f for entry in RAW.values() for f in entry}
    assert "max_input_tokens" not in fields and "supports_vision" not in fields


def test_a_claude_response_costs_each_kind_of_token_at_its_own_rate() -> None:
    rates = RAW["claude-opus-4-8"]
    usage = Usage(input=1_000, output=200, cache_read=10_000, cache_write=2_000)
    expected = (
        1_000 * rates["input_cost_per_token"]
        + 200 * rates["output_cost_per_token"]
        + 10_000 * rates["cache_read_input_token_cost"]
        + 2_000 * rates["cache_creation_input_token_cost"]
    )
    price = price_list().find("claude-opus-4-8")
    assert price is not None
    assert price.cost(usage) == pytest.approx(expected)
    # cache reads are not priced as fresh input (a tenth of it for this model)
    fresh = price.cost(Usage(input=11_000, output=200, cache_write=2_000))
    assert fresh is not None and fresh > price.cost(usage)


@pytest.mark.parametrize(
    ("recorded", "table"),
    [
        ("gpt-5-codex", "gpt-5-codex"),
        ("gemini-3.8-flash", "gemini/gemini-3.8-flash"),  # Gemini CLI writes the bare name
        ("google/gemini-2.5-pro", "gemini/gemini-2.5-pro"),  # opencode's provider/model
        ("anthropic/claude-sonnet-4-5", "claude-sonnet-4-5"),
        ("kimi-k2.5", "moonshot/kimi-k2.5"),
        ("devstral-medium-latest", "mistral/devstral-medium-latest"),
        ("qwen3-coder-plus", "dashscope/qwen3-coder-plus"),
        ("glm-4.7", "zai/glm-4.7"),
        # retired from LiteLLM's Anthropic list, kept at the same price through Bedrock
        ("claude-sonnet-4-20250514", "anthropic.claude-sonnet-4-20250514-v1:0"),
    ],
)
def test_models_are_found_by_the_names_agents_record(recorded: str, table: str) -> None:
    price = price_list().find(recorded)
    assert price is not None and price.model == table


@pytest.mark.parametrize("name", ["mock-model", "openai/mock-model", "claude-opus-4-8x", "", None])
def test_an_unknown_model_has_no_price_never_a_near_miss(name: str | None) -> None:
    assert price_list().find(name) is None


def test_a_prompt_above_the_threshold_is_priced_at_the_higher_tier() -> None:
    rates = RAW["anthropic.claude-sonnet-4-20250514-v1:0"]
    price = price_list().find("claude-sonnet-4-20250514")
    assert price is not None
    small = Usage(input=150_000, output=1_000)
    big = Usage(input=250_000, output=1_000)
    assert price.cost(small) == pytest.approx(
        150_000 * rates["input_cost_per_token"] + 1_000 * rates["output_cost_per_token"]
    )
    assert price.cost(big) == pytest.approx(
        250_000 * rates["input_cost_per_token_above_200k_tokens"]
        + 1_000 * rates["output_cost_per_token_above_200k_tokens"]
    )


def test_tiered_pricing_ranges_pick_the_tier_of_the_whole_request() -> None:
    tiers = RAW["dashscope/qwen3-coder-plus"]["tiered_pricing"]
    second = next(t for t in tiers if t["range"][0] == 32000)
    price = price_list().find("qwen3-coder-plus")
    assert price is not None
    usage = Usage(input=30_000, cache_read=10_000, output=500)  # a 40 k prompt
    assert price.cost(usage) == pytest.approx(
        30_000 * second["input_cost_per_token"]
        + 10_000 * second["cache_read_input_token_cost"]
        + 500 * second["output_cost_per_token"]
    )


def test_a_kind_of_token_without_a_price_makes_the_response_unpriced() -> None:
    table = PriceList(
        {
            "providers": [],
            "models": {"m": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}},
        }
    )
    price = table.find("m")
    assert price is not None
    assert price.cost(Usage(input=10, output=10)) == pytest.approx(3e-5)
    assert price.cost(Usage(input=10, output=10, cache_read=5)) is None
    assert price.cost(Usage(input=10, output=10, cache_write=5)) is None


def test_reasoning_is_priced_apart_only_when_the_table_says_so() -> None:
    table = PriceList(
        {
            "providers": [],
            "models": {
                "plain": {"input_cost_per_token": 0.0, "output_cost_per_token": 1e-6},
                "apart": {
                    "input_cost_per_token": 0.0,
                    "output_cost_per_token": 1e-6,
                    "output_cost_per_reasoning_token": 3e-6,
                },
            },
        }
    )
    usage = Usage(output=100, reasoning=40)  # 40 of the 100 generated tokens were thinking
    assert table.find("plain").cost(usage) == pytest.approx(100e-6)  # type: ignore[union-attr]
    assert table.find("apart").cost(usage) == pytest.approx(60e-6 + 120e-6)  # type: ignore[union-attr]
