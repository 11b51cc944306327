"""Generator of pivotal's sample sessions (not part of the installed package)."""
