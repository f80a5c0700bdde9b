"""Scenario generation: one deterministic builder per ruleset, fed by a source of choices.

The same builder runs on a fast seeded source while exploring (many scenarios per Hypothesis example, so the
per-example cost of Hypothesis is paid once per batch) and on Hypothesis draws while shrinking (so a failure
shrinks to a small scenario with simple choices). See :mod:`conformance.generation.source`.
"""
