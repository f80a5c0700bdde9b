"""Shrinking a failing scenario: the scenario-level reduction passes (:mod:`.reduction`), Hypothesis as the search
and the shrinker over a scenario's answer log (:mod:`.shrinker`), and the one place that relies on Hypothesis
internals (:mod:`.hypothesis_bridge`).
"""
