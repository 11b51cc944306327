"""pivotal: replay AI coding-agent sessions and stop at the silent pivots.

This module imports nothing so that `import pivotal.x` stays cheap for the
headless commands.
"""

__version__ = "0.1.0"
