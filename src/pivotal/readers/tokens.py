"""How many tokens a response generated, whichever way its format counts reasoning.

The model's `Usage.output` counts every generated token, reasoning included
(OpenAI's and Anthropic's way). Gemini's `candidatesTokenCount` leaves the
thoughts out and counts them beside it; tools that translate one API into
another (Qwen Code, opencode) do either, depending on the provider. When the
record has its own total, the total says which: if it holds the reasoning on
top of every other count, the reasoning was beside the output.
"""

from __future__ import annotations


def generated(output: int, reasoning: int, total: int | None, others: int, beside: bool) -> int:
    """`output` with the reasoning added when it was counted beside it.

    `others`: the record's other counts that its total includes (the prompt, the cache);
    `beside`: what the format does when the record has no total.
    """
    if reasoning <= 0:
        return output
    if total is not None and total > 0:
        beside = total >= others + output + reasoning
    return output + reasoning if beside else output
