"""Files the real agent clients wrote (committed fixtures, copied from /work/shared/realclients)."""

from pathlib import Path

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"
CLAUDE_SHORT = (
    REAL
    / "claude-short/.claude/projects/-home-dev-work-claude-short"
    / "9bff2a97-be17-49dd-82a0-730bb832af0b.jsonl"
)
