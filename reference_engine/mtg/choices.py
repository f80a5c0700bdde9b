"""The player choices MTG asks beyond the kernel's ``order`` and ``optional``: its unit's ``choice_kinds``.

The engines ask them with ``Chooser.choose(kind, player, context, candidates)``; the harness's
:class:`reference_engine.kernel.choices.ScenarioChooser` answers them from the scenario ``choices`` key each names.
Imports the kernel only (the engines name the kinds by their strings, the judge reads the trace's ``choice`` entries).
"""

from reference_engine.kernel.choices import ChoiceKind, kind_table

CHOICE_KINDS = kind_table(
    ChoiceKind("target", key="targets", context="trigger", candidates="candidates",
               description="603.3d: which of the legal candidates (object or player ids) a triggered ability targets "
                           "as it is put on the stack; chosen is [its id]; the scenario's choices.targets[ability id] "
                           "lists the preferred ones.",
               label="{player} targets for {id}"),
    ChoiceKind("occurrence", key="occurrence", context="delayed", candidates="events", match="subject",
               description="603.7b: which of several simultaneous events (trace event entries) a once-only delayed "
                           "triggered ability (its delayed_create entry) triggers on; chosen is [event id]; the "
                           "scenario's choices.occurrence[ability id] lists the preferred event subjects.",
               label="{player} picks the occurrence for {id}"),
)

__all__ = ["CHOICE_KINDS"]
