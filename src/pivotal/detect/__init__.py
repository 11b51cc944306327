"""The silent-pivot detector (spec: /work/shared/PIVOTS.md).

`detect_pivots(turns, config)` finds the moments where the person went
silent and the agent took over, with the evidence for each; `PivotTracker`
does the same incrementally for a live session. Pure: no I/O beyond the
turns' own lazy parts, and no UI imports.
"""

from pivotal.detect.config import PivotConfig
from pivotal.detect.tracker import PivotTracker, detect_pivots

__all__ = ["PivotConfig", "PivotTracker", "detect_pivots"]
