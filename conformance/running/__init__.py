"""Running a check and concluding it: one stream of scenarios played on an engine and judged by every rule
(:mod:`.runner`, :mod:`.checking`), each rule concluded from it (:mod:`.concluding`: replay, shrink, explain), the
divergence audit (:mod:`.audit`), a run as data and its per-rule report entries (:mod:`.session`, :mod:`.entries`),
a failure's replay file (:mod:`.replay_files`), an interrupted run's partial verdicts (:mod:`.partial`,
:mod:`.interrupts`), the run's record (:mod:`.recorder`), an engine judged on golden fixtures (:mod:`.fixtures`), how
well a run's stream reaches each situation (:mod:`.coverage`), and the pytest plugin that runs it all as test items
(:mod:`.pytest_plugin`, :mod:`.suite`).
"""
