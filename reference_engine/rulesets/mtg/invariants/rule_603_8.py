"""MTG 603.8: a state trigger triggers as soon as its game state holds, and does not trigger again until that
instance has left the stack (resolved, been countered or removed); then, if its source is still where it works and
the state still holds, it triggers again."""

from __future__ import annotations

from reference_engine.core.invariant import invariant
from reference_engine.rulesets.mtg.observations import PROGRESS_KINDS, catalog, replay
from reference_engine.rulesets.mtg.model import State
from reference_engine.core.traceview import TraceView, memoized


@memoized
def _state_walk(view: TraceView) -> tuple[list[str], int]:
    """Replay state triggers: (violations, occasions where a live instance kept the state from triggering again)."""
    cat = catalog(view)
    abilities = {(s, a["id"]): a for s, a in cat.state_abilities}
    if not abilities:
        return [], 0
    found: list[str] = []
    held_back = 0
    groups = {g.first: g for g in replay(view).groups}
    live: dict[tuple[str, str], str] = {}
    expect: set[tuple[str, str]] = set()

    def check_point(state: State) -> None:
        nonlocal held_back, expect
        expect = set()
        for key, ability in abilities.items():
            if cat.state_trigger_holds(key[0], ability, state):
                if key in live:
                    held_back += 1
                else:
                    expect.add(key)

    def flush(i: int) -> None:
        for source, ability in sorted(expect):
            found.append(f"the state of ability {ability} of {source} held (checked before entry {i}) and no instance "
                         f"of it was waiting or on the stack, yet it did not trigger")
        expect.clear()

    state = State.initial(view.scenario)
    check_point(state)
    entries = view.entries
    i = 0
    while i < len(entries):
        entry = entries[i]
        kind = entry["kind"]
        if kind in PROGRESS_KINDS:
            flush(i)
        if kind == "event" and i in groups:
            state = groups[i].after
            check_point(state)
            i = groups[i].last + 1
            continue
        if kind == "trigger":
            key = (entry["source"], entry["ability"])
            if key in abilities and "delayed" not in entry:
                if key in expect:
                    expect.discard(key)
                elif key in live:
                    found.append(f"{entry['id']} (state trigger {key[1]} of {key[0]}) triggered at entry {i} while "
                                 f"{live[key]} had not yet left the stack")
                else:
                    found.append(f"{entry['id']} (state trigger {key[1]} of {key[0]}) triggered at entry {i} though its "
                                 f"state did not hold or its source was not where the ability works")
                live[key] = entry["id"]
        elif kind in ("resolve_end", "removed"):
            t = entry["trigger"]
            trig = view.triggers.get(t)
            key = (trig["source"], trig["ability"]) if trig else None
            if key in live and live[key] == t:
                del live[key]
                check_point(state)
        i += 1
    flush(len(entries))
    return found, held_back


@invariant(
    key="mtg.state-trigger",
    ruleset="mtg",
    rules={"2026-02-27": "603.8", "2021-02-24": "603.8"},
    summary="A state trigger triggers as soon as its state holds, and not again until that instance has left the stack.",
    exercised=lambda view: _state_walk(view)[1],
)
def state_trigger(view: TraceView) -> list[str]:
    return list(_state_walk(view)[0])
