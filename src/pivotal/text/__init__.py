"""Untrusted text made safe: session content shown as text, never as terminal control.

`safe` cleans text for every output (escapes made visible, JSON made inert)
with the tables of `unsafe` (which characters must never reach a terminal, and
what is shown instead); `sgr` keeps a tool's colours as data for the replayer.
Pure Python: imports nothing of pivotal but each other (`safe` and `sgr` use
`unsafe`, `sgr` uses `safe`), and no Rich or Textual.
"""
