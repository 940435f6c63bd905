"""Agreement among raters: Fleiss' κ, among the statistics.

The statistic itself lives in :mod:`causalgraph.agreement`, below the engine:
the run scorer computes agreement across epochs with it, and the engine
sits below the statistics.
"""

from __future__ import annotations

from ..agreement import fleiss_kappa

__all__ = ["fleiss_kappa"]
