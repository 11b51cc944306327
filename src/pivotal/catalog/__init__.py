"""The user's sessions and what pivotal keeps about them, headless.

`discovery` (where each agent keeps its sessions, and the quick listing),
`workers` (reading many sessions for their counts in worker processes, the
ones a person is looking at first), `index` (the cache of turn and pivot
counts behind `pivotal sessions`), `reach` (which sub-agents' files a session that
is not read reaches, from that index), `cache_db` (how both indexes open, stamp,
rebuild and set aside their SQLite files),
`search_text`, `search_index`, `search_query` (the full-text index behind
`pivotal search`, filled by the same reads as the counts, and its look-ups),
`search_writer` (the pass's texts written by a thread of its own), `search_live` (a
followed session indexed as it grows), `search_scan` (the same search without an index),
`notes` (marks and notes, a small SQLite store in the data folder), `resume`
(the command that resumes a session in its agent), `stats` (pivot patterns
across sessions).

May import the model, readers, detector and `pivotal.text`; never Textual, Rich,
the command line or the replayer.
"""
