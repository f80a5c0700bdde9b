"""trigger-conformance: a property-based conformance suite for triggered abilities.

Data flows one way: scenario -> engine (through an adapter) -> trace -> invariants -> verdicts -> reports.
"""

from reference_engine import __version__

__all__ = ["__version__"]
