"""Generation and profiles: what scenarios a run builds and for whom. The run's stream (:mod:`.stream`: scenario n
of a run from the run seed and n alone), an engine's generation profile (:mod:`.engine_profile`), run profiles, time
budgets and shards (:mod:`.profiles`), and the self-check of a ruleset's generator (:mod:`.generator_check`). The
public Hypothesis strategies are :mod:`conformance.strategies`.
"""
