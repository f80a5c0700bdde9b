"""The scenario's script, played as written: what every ruleset asks of the engine before any rule about triggers.

A scenario's ``script`` is a list of steps, each a list of scripted actions (the turn-based and player actions the
scenario starts from). Every ruleset's trace marks them the same way: ``step_begin`` (``step``), then for each
action ``action_begin`` and ``action_end`` (``action``: [step, action]), then ``step_advance`` (``from``). An engine
that leaves out an action or a whole step has not played the scenario it was given, so the triggers it reports say
nothing of it; each ruleset's "performed completely" rule reports it with :func:`script_problems`.

Where a ruleset lets the script stop early, it says so with ``ends_step`` and ``ends_game``: an entry after which
the current step's remaining actions are skipped (an effect ending the step early: the action or ability performing
it completes, the step then advances), or after which nothing more of the script happens (the game ends, e.g. in a
draw).
"""

from __future__ import annotations

from typing import Any, Callable

from reference_engine.kernel.traceview import TraceView

MARKS = ("step_begin", "action_begin", "action_end", "step_advance")


def script_problems(view: TraceView, ends_step: Callable[[dict[str, Any]], bool] | None = None,
                    ends_game: Callable[[dict[str, Any]], bool] | None = None,
                    early_kinds: tuple[str, ...] = ()) -> list[str]:
    """What the trace of ``view`` leaves out of, or adds to, the scenario's script (empty: played as written).

    ``ends_step(entry)`` / ``ends_game(entry)`` name the entries (of the kinds in ``early_kinds``) that end the current
    step early / the game; see the module docstring. Returns at most one message: the first place where the trace
    departs from the script, naming the entry and what was expected there.
    """
    script = view.scenario.get("script") or []
    wanted = _marks(script)
    indexes = sorted(i for kind in (*MARKS, *early_kinds) for i in view.by_kind.get(kind, ()))
    position, step_ended = 0, False
    for i in indexes:
        entry = view.entries[i]
        if entry["kind"] in early_kinds:
            if ends_game is not None and ends_game(entry):
                return []  # nothing more of the script is due
            if ends_step is not None and ends_step(entry):
                step_ended = True
            continue
        got = _mark(entry)
        if step_ended and position < len(wanted) and wanted[position][0] == "action_begin":
            # The step ended early: its remaining actions are skipped, the next mark due is its step_advance.
            step = wanted[position][1][0]
            while position < len(wanted) and wanted[position] != ("step_advance", step):
                position += 1
        if got[0] == "step_advance":
            step_ended = False
        if position >= len(wanted):
            return [f"entry {i} ({_say(got)}) is not in the script: every step of it was already played"]
        if got != wanted[position]:
            return [f"entry {i} is {_say(got)} where the script's next is {_say(wanted[position])}: the scenario's "
                    "script is played as written, every action of every step, in order"]
        position += 1
    if position < len(wanted):
        return [f"the trace ends before {_say(wanted[position])}: the scenario's script is played as written, every "
                "action of every step, in order"]
    return []


def _marks(script: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    marks: list[tuple[str, Any]] = []
    for s, step in enumerate(script):
        marks.append(("step_begin", s))
        for a, _ in enumerate(step.get("actions", ())):
            marks += [("action_begin", (s, a)), ("action_end", (s, a))]
        marks.append(("step_advance", s))
    return marks


def _mark(entry: dict[str, Any]) -> tuple[str, Any]:
    kind = entry["kind"]
    if kind == "step_begin":
        return kind, entry.get("step")
    if kind == "step_advance":
        return kind, entry.get("from")
    action = entry.get("action")
    return kind, tuple(action) if isinstance(action, list) else action


def _say(mark: tuple[str, Any]) -> str:
    kind, where = mark
    if kind in ("action_begin", "action_end"):
        where = list(where) if isinstance(where, tuple) else where
        return f"{kind} of scripted action {where}"
    return f"{kind} of step {where}"
