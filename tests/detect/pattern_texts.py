"""Agent prose and tool output that the detector's patterns are tried on in the pattern tests
(failures, milestones, status sections, questions, figures): one corpus, so every rewrite of a
pattern is held to its plain form on the same text."""

from __future__ import annotations

PROSE = [
    "Experiment 1A FAILED: NCCL error during CUDA graph capture. Traceback (most recent call",
    "It works! All 12 tests pass now and the server is up: 82.1 tok/s vs 54.1 tok/s.",
    "Process exited with code 1\nValueError: bad input\nerror: could not open file",
    "Waiting for rollout... deployment successfully rolled out. Not ready yet? ready.",
    "## Goal\nShip it.\n\n**Discoveries**: none of them worked; I ran out of ideas.\n",
    "Should I go ahead, or would you like to review the plan first? Let me know.",
    "The build passes, 0 failures, CI is green; speed-up of 2.3x faster than before.",
    "timed out after 23 polls (8m) - no response, unclear whether it crashed or hangs",
]
