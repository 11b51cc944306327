"""Codex plan mode (2026): the plan is the agent's text, the mode switch is not the person.

A plan turn writes its plan only as a `response_item` assistant message wrapped in
`<proposed_plan>` (beside an `item_completed` event of type Plan; no `agent_message`).
"Implement the plan." then approves it, after a developer message that switches
`collaboration_mode` back to Default. Text written for the test.
"""

from __future__ import annotations

from pathlib import Path

from pivotal.model import Role
from pivotal.readers import find_sessions, read_session

from .codex_builders import Rollout

UUID = "019cfa7c-0000-7000-8000-00000000p1a0"
PLAN = "# Move the config to .kitrc\n\n## Summary\n- read .kitrc first\n- drop config.toml"


def test_the_plan_is_the_agents_and_the_approval_the_persons(tmp_path: Path) -> None:
    rollout = Rollout(session_id=UUID)
    rollout.meta(version="0.115.0")
    mode = "<collaboration_mode># Plan Mode (Conversational)\n\nChat your way to a plan."
    rollout.message("developer", [{"type": "input_text", "text": mode}])
    rollout.both("plan the move of the config to .kitrc")
    turn = {"thread_id": UUID, "turn_id": "019cfa81-0001"}
    item = {"type": "Plan", "id": "019cfa81-0001-plan", "text": PLAN}
    rollout.add("event_msg", {"type": "item_completed", **turn, "item": item})
    rollout.message(
        "assistant", [{"type": "output_text", "text": f"<proposed_plan>\n{PLAN}\n</proposed_plan>"}]
    )
    rollout.tokens()
    rollout.add("event_msg", {"type": "task_complete", "turn_id": "019cfa81-0001"})
    default = "<collaboration_mode># Collaboration Mode: Default\n\nYou are now in Default mode."
    rollout.message("developer", [{"type": "input_text", "text": default}])
    rollout.turn_context()
    rollout.both("Implement the plan.")
    rollout.reply("Moved; config.toml is gone.")
    session = read_session(find_sessions([rollout.write(tmp_path)]).refs[0])
    assert [t.text for t in session.human_turns()] == [
        "plan the move of the config to .kitrc",
        "Implement the plan.",
    ]
    approval = next(t for t in session.turns if t.text == "Implement the plan.")
    before = [t for t in session.turns[: approval.index] if t.role is Role.ASSISTANT]
    assert PLAN in before[-1].text
    switch = session.turns[approval.index - 1]
    assert switch.role is Role.SYSTEM and switch.is_synthetic and "Default mode" in switch.text
