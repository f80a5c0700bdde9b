"""MTG 603.12: a reflexive triggered ability, created by a resolving ability, is checked at once and triggers for
each matching event that happened earlier in that same resolution (603.12a), and for nothing else; like any
trigger it goes on the stack only after the resolution (mtg.stack-at-priority). A resolving ability whose effect
creates a reflexive ability must create it. Reading: an intervening "if" of a reflexive ability (603.4) is judged
as the ability is created and checked, on the game at that moment."""

from __future__ import annotations

from collections import Counter

from reference_engine.kernel.invariant import invariant, listed
from reference_engine.mtg.judge.observations import catalog, creations, replay
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView, memoized


@memoized
def _reflexive_walk(view: TraceView) -> tuple[list[str], int]:
    cat = catalog(view)
    found: list[str] = []
    occasions = 0
    by_delayed: dict[str, list[str]] = {}
    for t, trig in view.triggers.items():
        if "delayed" in trig:
            by_delayed.setdefault(trig["delayed"], []).append(t)
    for c in view.by_kind["delayed_create"]:
        entry = view.entries[c]
        if not entry.get("reflexive"):
            continue
        spec = cat.made.get(entry["ability"])
        begin, end = view.resolve_begin.get(entry.get("created_by")), view.resolve_end.get(entry.get("created_by"))
        if spec is None or begin is None or end is None or not begin < c < end:
            found.append(f"reflexive ability {entry['id']} (entry {c}) was not created during the resolution of "
                         f"{entry.get('created_by', 'a triggered ability')}")
            continue
        earlier = [view.entries[i] for i in view.by_kind["event"] if begin < i < c]
        if any(e["type"] == "player_leaves" and e.get("player") == entry["controller"]
               for e in (view.entries[i] for i in view.by_kind["event"] if i < c)):
            earlier = []  # 800.4a: its controller has left the game, and nothing triggers for them any more
        want = Counter(e["id"] for e in earlier if cat.fits(spec["trigger"], e, entry["source"])
                       and cat.true_on(spec.get("intervening_if"), replay(view).at[c], entry["source"],
                                       entry["controller"]))
        occasions += bool(want)
        mine = by_delayed.get(entry["id"], [])
        got = Counter(view.triggers[t]["event"] for t in mine)
        if want != got:
            found.append(f"reflexive ability {entry['id']} should have triggered once for each of "
                         f"{listed(sorted(want.elements()), 'no events')} (the matching events earlier in {entry['created_by']}'s "
                         f"resolution) but triggered for {listed(sorted(got.elements()), 'none')}")
        late = [t for t in mine if not c < view.trigger_index[t] < end]
        if late:
            found.append(f"reflexive trigger {late[0]} did not trigger as its ability was created, during "
                         f"{entry['created_by']}'s resolution")
    for t, begin, kind, wanted, got in creations(view):
        if kind != "reflexive" or wanted == got:
            continue
        occasions += 1
        for ability, n in sorted((wanted - got).items()):
            found.append(f"{t} resolved (entry {begin}) without creating its reflexive ability {ability} "
                         f"({n} time(s) missing)")
        for ability, n in sorted((got - wanted).items()):
            found.append(f"{t} created reflexive ability {ability} {n} time(s) more than its effect says")
    return found, occasions


@invariant(
    passes=PASSES,
    key="mtg.reflexive",
    ruleset="mtg",
    rules={"2026-02-27": "603.12", "2021-02-24": "603.12"},
    summary="A reflexive triggered ability is created by the resolving ability whose effect says so and triggers, as it "
    "is created, once for each matching event earlier in that resolution, and never for anything else.",
    exercised=lambda view: _reflexive_walk(view)[1],
)
def reflexive(view: TraceView) -> list[str]:
    return list(_reflexive_walk(view)[0])
