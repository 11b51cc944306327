"""What a listed message's items are, in words: "a 4-step plan" or "a list of 12 items".

The `plan laid out` signal counts list items whatever they are; a list of files, findings
or options said as "a 65-step plan" told the person something the agent never proposed.
These texts are written for the test, in the shapes agents write.
"""

from __future__ import annotations

import pytest

from pivotal.detect.listing import listed_words, what_is_listed
from pivotal.detect.view import TurnView
from pivotal.model import Role, TurnFlag


def view(text: str) -> TurnView:
    return TurnView(0, Role.ASSISTANT, TurnFlag(0), text, full_len=len(text))


STEPS = {
    "numbered verbs": (
        "To fix the flaky upload test:\n1. Add a retry wrapper around the presign call\n"
        "2. Move the timeout into `settings.py`\n3. Write a test that hits the limit\n",
        "a 3-step plan",
    ),
    "bulleted verbs": (
        "- Rename `load_cfg` to `load_config` everywhere\n- Drop the unused compat shim\n"
        "- Update the changelog\n- Tag the release",
        "a 4-step plan",
    ),
    "verb with an object": (
        "1. Rework the session loader\n2. Tighten the cache bounds\n3. Test the eviction path",
        "a 3-step plan",
    ),
    "phases of noun bullets": (
        "**Phase 1: groundwork**\n- schema migration\n- a feature flag\n\n"
        "**Phase 2: rollout**\n- canary on one region\n- full traffic",
        "a 4-step plan",
    ),
    "files under a named plan": (
        "Here's the plan:\n- `api/limits.py`: a token bucket per key\n"
        "- `api/app.py`: the middleware\n- `tests/test_limits.py`: one test at the limit",
        "a 3-step plan",
    ),
    "nouns after we need to": (
        "We need to:\n- the cache key (it ignores the locale)\n- the eviction order",
        "a 2-step plan",
    ),
    "numbered, other script": (
        "修复方案：\n1. 调整连接池大小\n2. 给重试加上退避\n3. 补充压测脚本",
        "a 3-step plan",
    ),
}

ITEMS = {
    "bulleted files": (
        "These still import the old client:\n- src/billing/invoice.py\n- src/billing/tax.py\n"
        "- src/jobs/nightly.py\n- src/jobs/report.py\n- tests/conftest.py\n\n"
        "Shall I switch them to the new one?",
        "a list of 5 items",
    ),
    "numbered findings with labels": (
        "Review findings:\n1. **Race in the cache** — two writers can interleave\n"
        "2. **Unbounded retry** — a dead host spins forever\n"
        "3. **Stale docs** — the README still names the old flag\n",
        "a list of 3 items",
    ),
    "numbered report of work done": (
        "Done so far:\n1. Added the retry wrapper\n2. Moved the timeout into settings\n"
        "3. Wrote two tests for the limit\n4. Built the wheel",
        "a list of 4 items",
    ),
    "options as nouns": (
        "For the cache there are three candidates:\n- Redis\n- Memcached\n"
        "- an in-process LRU\n\nWhich one do you prefer: the first or the last?",
        "a list of 3 items",
    ),
    "files asked for, announced with I'll": (
        "I'll need these files added to the chat first:\n1. `web/app.tsx`\n2. `web/logo.svg`\n"
        "3. `web/theme.css`",
        "a list of 3 items",
    ),
    "done marks": (
        "Status:\n- ✅ migrations applied\n- ✅ seed data loaded\n- ✅ smoke test green",
        "a list of 3 items",
    ),
}


@pytest.mark.parametrize(("text", "words"), STEPS.values(), ids=STEPS.keys())
def test_a_list_of_steps_reads_as_a_plan(text: str, words: str) -> None:
    assert what_is_listed(view(text)) == words
    assert listed_words(view(text)) == words.split()[1].replace("-step", " steps")


@pytest.mark.parametrize(("text", "words"), ITEMS.values(), ids=ITEMS.keys())
def test_a_list_of_things_reads_as_items(text: str, words: str) -> None:
    assert what_is_listed(view(text)) == words
    assert listed_words(view(text)) == " ".join(words.split()[-2:])


def test_questions_and_a_single_item_keep_their_words() -> None:
    asked = view("1. Which region should it run in?\n2. Should old rows be kept?\n3. Who owns it?")
    assert what_is_listed(asked) == "3 questions"
    assert what_is_listed(view("Shall I add the index on `orders.created_at`?")) == "a plan"
