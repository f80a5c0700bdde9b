"""The reference engine of this ruleset (engine.py)."""
