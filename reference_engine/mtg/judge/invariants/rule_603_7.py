"""MTG 603.7: a delayed triggered ability is created by a resolving spell or ability (603.7a) and can only trigger
on later events; without a stated duration it triggers once, on the next occurrence (603.7b), else on each
occurrence until the duration ends; it loses track of an object that left its zone (603.7c). A resolving ability
whose effect creates one must create it. Reading: its intervening "if" (603.4) is checked on each occurrence like
any triggered ability's; an occurrence on which it is false does not count, and a once-only ability waits on. Its source and
controller are those of the ability that created it, whatever happens to the source later (603.7e); of a delayed
ability a spell creates, that spell and the player who controlled it as it resolved (603.7d, judge/spells.py)."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter

from reference_engine.kernel.invariant import invariant, listed
from reference_engine.mtg.judge.observations import catalog, creations, first_after, replay, turns
from reference_engine.mtg.judge.model import Watch
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.mtg.judge.spells import spell_controller_problems, spell_creation_problems
from reference_engine.kernel.traceview import TraceView, memoized


def _ended_as_it_should(view: TraceView, delayed: str, duration: str | None, fired: list[dict],
                        ends_at: dict[str, tuple[int, str]]) -> list[str]:
    """603.7b: a delayed ability without a duration stops existing once it has triggered: its ``delayed_end``
    (reason triggered) comes right after its trigger, before the next event; one with a duration never ends for
    having triggered."""
    end = ends_at.get(delayed)
    if duration is not None:
        if end is not None and end[1] == "triggered":
            return [f"delayed ability {delayed} (duration {duration}) ended at entry {end[0]} for having triggered; it "
                    f"triggers on each occurrence until its duration ends"]
        return []
    if not fired:
        return [] if end is None or end[1] != "triggered" else [
            f"delayed ability {delayed} ended at entry {end[0]} for having triggered, but it never triggered"]
    first = view.trigger_index[fired[0]["id"]]
    following = next((i for i in view.by_kind["event"] if i > first), len(view.entries))
    if end is None or end[1] != "triggered" or not first < end[0] < following:
        where = "never" if end is None else f"at entry {end[0]} ({end[1]})"
        return [f"delayed ability {delayed} triggered once (entry {first}) and must then stop existing (603.7b), "
                f"before the next event; it ended {where}"]
    return []


def _window(view: TraceView, d: Watch, created: int) -> tuple[int | None, int | None]:
    """(the entry from which, the entry until which) a delayed ability created at entry ``created`` may trigger,
    None meaning no bound: "this step" ends with the step's ``step_advance``; "this turn" ('until end of turn') with
    that of the turn's last step; "next turn" lives from the next turn's first step to its end (never, when no step
    is scripted in it); "until your next turn" ends as the next turn of its controller begins (500.1, 603.7b)."""
    if d.duration == "step":
        return None, first_after(view.step_advances, created)
    if d.duration is None:
        return None, None
    plan = turns(view)
    now = plan.turn_at(created)
    if d.duration == "turn":
        return None, plan.ends.get(now)
    if d.duration == "next_turn":
        if now + 1 not in plan.begins:
            return len(view.entries), None  # no step in that turn: it never works
        return plan.begins[now + 1], plan.ends.get(now + 1)
    theirs = [t for t, player in plan.active.items() if t > now and player == d.controller]
    begin = plan.first_begin_from(min(theirs)) if theirs else None
    return None, (begin - 1 if begin is not None else None)


@memoized
def _delayed_walk(view: TraceView) -> tuple[list[str], int]:
    cat, rp = catalog(view), replay(view)
    firsts = [g.first for g in rp.groups]
    found: list[str] = []
    occasions = 0
    by_delayed: dict[str, list[dict]] = {}
    ends_at = {view.entries[i]["delayed"]: (i, view.entries[i]["reason"]) for i in view.by_kind["delayed_end"]}
    for trig in view.triggers.values():
        if "delayed" in trig:
            by_delayed.setdefault(trig["delayed"], []).append(trig)
    for c in view.by_kind["delayed_create"]:
        entry = view.entries[c]
        if entry.get("reflexive"):
            continue
        spec = cat.made.get(entry["ability"])
        if spec is None:
            found.append(f"delayed ability {entry['id']} names ability {entry['ability']}, which no effect creates")
            continue
        begin, end = view.resolve_begin.get(entry.get("created_by")), view.resolve_end.get(entry.get("created_by"))
        if "spell" in entry:
            pass  # created by a resolving spell (603.7d): judged by spell_creation_problems
        elif begin is None or not begin < c < (end if end is not None else len(view.entries)):
            found.append(f"delayed ability {entry['id']} was created at entry {c}, not during the resolution of "
                         f"{entry['created_by']} that created it (603.7a)")
        follows = cat.named_object(spec, entry["source"])
        d = Watch(entry["id"], spec, entry["source"], entry["controller"], entry.get("duration"), follows,
                  rp.at[c].where.get(follows))
        starts, ends = _window(view, d, c)
        expected: list[list[str]] = []
        for g in rp.groups[bisect_right(firsts, c):]:
            if (ends is not None and g.first > ends) or not g.after.present(d.controller):
                break
            matching = [e["id"] for e in d.occurrences(cat, g.events, g.before, g.after)]
            d.moved_on(g.after)
            if starts is not None and g.first < starts:
                continue  # "during your next turn": not yet
            if matching:
                expected.append(matching)
                if d.duration is None:
                    break
        occasions += bool(expected)
        actual = [t["event"] for t in by_delayed.get(entry["id"], ())]
        found += _ended_as_it_should(view, entry["id"], d.duration, by_delayed.get(entry["id"], ()), ends_at)
        if d.duration is None:
            if not expected and actual:
                found.append(f"delayed ability {entry['id']} triggered on {actual[0]}, which is not an occurrence of its "
                             f"trigger event after its creation (603.7a)")
            elif expected and (len(actual) != 1 or actual[0] not in expected[0]):
                found.append(f"delayed ability {entry['id']} should have triggered exactly once, on one of "
                             f"{listed(sorted(expected[0]), 'no event')} (its next trigger event), but triggered on {listed(actual)} (603.7b)")
        else:
            want = Counter(e for group in expected for e in group)
            got = Counter(actual)
            if want != got:
                found.append(f"delayed ability {entry['id']} (duration {d.duration}) should have triggered on "
                             f"{listed(sorted(want.elements()))} but triggered on {listed(sorted(got.elements()))}")
    by_spells, judged = spell_creation_problems(view)
    found += by_spells
    occasions += judged
    for t, begin, kind, wanted, got in creations(view):
        if kind != "create_delayed" or wanted == got:
            continue
        occasions += 1
        for ability, n in sorted((wanted - got).items()):
            found.append(f"{t} resolved (entry {begin}) without creating its delayed triggered ability {ability} "
                         f"({n} time(s) missing, 603.7a)")
        for ability, n in sorted((got - wanted).items()):
            found.append(f"{t} created delayed triggered ability {ability} {n} time(s) more than its effect says")
    return found, occasions


@invariant(
    passes=PASSES,
    key="mtg.delayed-trigger",
    ruleset="mtg",
    rules={"2026-02-27": "603.7b", "2021-02-24": "603.7b"},
    summary="A delayed triggered ability is created by the resolving ability or spell whose effect says so and triggers only "
    "on later events: once, on the next occurrence, unless it has a duration, then on each occurrence until that ends.",
    exercised=lambda view: _delayed_walk(view)[1],
)
def delayed_trigger(view: TraceView) -> list[str]:
    return list(_delayed_walk(view)[0])


@invariant(
    passes=PASSES,
    key="mtg.delayed-controller",
    ruleset="mtg",
    rules={"2026-02-27": "603.7e", "2021-02-24": "603.7e"},
    summary="A delayed or reflexive triggered ability has the source and controller of the ability that created it "
    "(of a spell: that spell, and the player who controlled it as it resolved, 603.7d), whoever controls that source "
    "later.",
    exercised=lambda view: sum(1 for t in view.triggers.values() if "delayed" in t),
)
def delayed_controller(view: TraceView) -> list[str]:
    found = []
    created = {}
    for c in view.by_kind["delayed_create"]:
        entry = view.entries[c]
        created[entry["id"]] = entry
        if "spell" in entry:
            found += spell_controller_problems(view, entry, c)
            continue
        creator = view.triggers.get(entry.get("created_by"))
        if creator is None:
            found.append(f"delayed ability {entry['id']} names {entry['created_by']}, which is no trigger instance")
            continue
        for field in ("source", "controller"):
            if entry[field] != creator[field]:
                found.append(f"delayed ability {entry['id']} has {field} {entry[field]}, but the ability that created "
                             f"it, {creator['id']}, has {field} {creator[field]}")
    for t, trig in view.triggers.items():
        d = created.get(trig.get("delayed"))
        if "delayed" in trig and d is None:
            found.append(f"{t} names delayed ability {trig['delayed']}, which was never created before it")
        elif d is not None and (trig["controller"] != d["controller"] or trig["source"] != d["source"]):
            found.append(f"{t} from delayed ability {d['id']} has source {trig['source']} and controller "
                         f"{trig['controller']}; the delayed ability has {d['source']} and {d['controller']}")
    return found
