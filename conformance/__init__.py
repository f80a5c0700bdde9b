"""trigger-conformance: a property-based conformance suite for triggered abilities.

Data flows one way: scenario -> engine (through an adapter) -> trace -> invariants -> verdicts -> reports.
"""

__version__ = "0.1.0"
