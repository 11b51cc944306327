"""Following a session file as it grows: notifications, tails, the newest session.

`tail` (read what was appended, through the same incremental readers, and
notice truncation, replacement and deletion), `inotify` (Linux notifications
without a thread; the kernel's flags and libc calls are `inotify_abi`),
`newest` (switch to the most recently active session of a folder; which one
to choose is `chooser`), `target` (what a follow watches). The command line's
`scan --follow` (`pivotal.scan.follow`) and the replayer's live mode both
build on it.

May import the model and readers; never the detector's callers, Textual or Rich.
"""
