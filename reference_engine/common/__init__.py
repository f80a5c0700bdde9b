"""Pieces every ruleset shares: the meaning of the scenario vocabulary and the trace recorder."""
