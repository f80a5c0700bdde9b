"""The reference engine: one small, readable rules engine per ruleset, and the rules as executable invariants.

Each ruleset is a folder (``reference_engine/<ruleset>/``) that reads top to bottom: its options (the documented
assumptions where the rule text is silent), its engine (each step citing the rule it implements) and its
invariants (one module per numbered rule).
"""
