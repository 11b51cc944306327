"""What the agent's work cost: tokens and dollars per turn, per session, per autonomous run.

`prices` reads LiteLLM's published price table kept as data beside it (never
the network); `tally` sums usage over turns, each response once; `subagents`
reads the sub-sessions an agent ran and ties each to the call that ran it;
`run` measures what the agent did on its own after a pivot, until the person
typed again; `words` says all of it in a few words for the replayer, the
exports and the command line.

Imports the model and the readers (to read sub-sessions) and one word list of
the detector's (which tools edit files); nothing here knows about the UI.
"""
