"""The reference engine: one small, readable rules engine per ruleset, and the rules as executable invariants.

Each ruleset is a folder (``reference_engine/<ruleset>/``) that reads top to bottom: its options (the documented
assumptions where the rule text is silent), its engine (each step citing the rule it implements) and its
invariants (one module per numbered rule).
"""

__version__ = "0.1.0"  # of the suite and of its bundled engines (conformance.__version__ is this one)
