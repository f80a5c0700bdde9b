"""Redemption TA.1: a triggered ability is an ongoing ability held back until its situation or game action occurs;
when that happens, it activates."""

from __future__ import annotations

from collections import Counter

from reference_engine.kernel.invariant import invariant, listed
from reference_engine.kernel.script import script_problems
from reference_engine.kernel.vocabulary import IN_PLAY, ZoneTracker, movement_event
from reference_engine.redemption.judge.observations import PASSES, SPAN_OPEN, replay
from reference_engine.kernel.traceview import TraceView, streamed

RULESET = "redemption"
RULE = {"reg-glossary": "TA.1"}


def _events_that_trigger(view: TraceView) -> int:
    return sum(1 for triples in replay(view).expected.values() if triples)


@invariant(
    passes=PASSES,
    key="red.triggers-on-situation",
    ruleset=RULESET,
    rules=RULE,
    summary="Each event triggers, once each, exactly the triggered abilities whose situation it is (cards where the "
    "ability works), for the card's controller (for a card's own change of control, per option control_change_holder); "
    "nothing else triggers.",
    exercised=_events_that_trigger,
)
def triggers_on_situation(view: TraceView) -> list[str]:
    found = []
    for event_id, triples in replay(view).expected.items():
        instances = view.triggers_by_event.get(event_id, ())
        if not triples and not instances:
            continue  # nothing was due and nothing triggered: nothing to compare
        expected = Counter((source, ability) for source, ability, _ in triples)
        controller = {(source, ability): who for source, ability, who in triples}
        actual = Counter((view.triggers[t]["source"], view.triggers[t]["ability"]) for t in instances)
        if expected != actual:
            for source, ability in sorted(expected - actual):
                found.append(f"{view.describe_event(event_id)} is the situation of ability {ability} of {source}, but "
                             f"it did not trigger")
            for source, ability in sorted(actual - expected):
                why = "more often than once" if (source, ability) in expected else "which is not its situation"
                found.append(f"ability {ability} of {source} triggered from {view.describe_event(event_id)} {why}")
        for t in instances:
            trig = view.triggers[t]
            want = controller.get((trig["source"], trig["ability"]))
            if want is not None and trig["controller"] != want:
                found.append(f"{view.describe_trigger(t)} is held by {trig['controller']}, but {want} controlled "
                             f"{trig['source']} when it triggered")
    for t, trig in view.triggers.items():
        if trig["event"] is None:
            found.append(f"{view.describe_trigger(t)} triggered without any event; a triggered ability waits for its "
                         f"situation")
    return found


# -- The situation "Y" is carried out: what each action, activation and triggered ability does -------------------

def _noop(action: dict, zones: dict[str, str], controllers: dict[str, str]) -> bool:
    """Whether a primitive action changes nothing in this state, and so causes no event (reference_engine/redemption/docs.md:
    a move to the zone the card is in, playing a card that is not in hand, giving control to its controller)."""
    do = action["do"]
    if do == "move":
        return zones.get(action["object"]) in (None, action["to"])
    if do == "play":
        return zones.get(action["object"]) != "hand"
    if do == "gain_control":
        return controllers.get(action["object"]) == action["player"]
    return False


def _event_for(action: dict, zones: dict[str, str], source: str | None) -> dict:
    """The fields of the event a primitive action causes (those an event must carry to be that action's)."""
    do = action["do"]
    if do == "signal":
        return {"type": "signal", "name": action["name"], "subject": action.get("subject", source)}
    if do == "move":
        frm = zones[action["object"]]
        return {"type": movement_event(frm, action["to"]), "subject": action["object"], "from": frm, "to": action["to"]}
    if do == "play":
        return {"type": "play", "subject": action["object"], "from": "hand", "to": IN_PLAY}
    if do == "negate":
        return {"type": "negate", "subject": action["object"], "ability": action.get("ability")}
    if do == "gain_control":
        return {"type": "control", "subject": action["object"], "controller": action["player"]}
    return {"type": do}


def _describe_action(action: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in action.items())


@streamed("action_begin", "resolve_begin", "activation_begin", "action_end", "resolve_end", "activation_end", "event")
def _carried_out(view: TraceView):
    """(problems, number of effects followed). Replays zones and control along the trace and matches each event to
    the next primitive action of the effect that caused it (streamed)."""
    walk = _EffectWalk(view)
    return walk.see, walk.finish


class _EffectWalk:
    """One :func:`_carried_out` in progress: zones and control so far, and the effects being carried out."""

    def __init__(self, view: TraceView):
        self.view = view
        self.problems: list[str] = []
        self.tracker = ZoneTracker(view.scenario)
        self.controllers = {obj["id"]: obj.get("controller", obj["owner"]) for obj in view.scenario["objects"]}
        # {"cause": (kind, id), "effect", "k", "source", "what" (returns the span's name, for a message), "broken"}
        self.open_spans: list[dict] = []
        self.followed = 0

    def span_for(self, entry: dict) -> dict | None:
        view, kind = self.view, entry["kind"]
        if kind == "action_begin":
            step, number = (list(entry["action"]) + [None, None])[:2]
            try:
                effect = view.scenario["script"][step]["actions"][number]["effect"]
            except (IndexError, KeyError, TypeError):
                self.problems.append(f"entry for scripted action {entry['action']} names no action of the script")
                return None
            return {"cause": ("action", tuple(entry["action"])), "effect": effect, "source": None,
                    "what": lambda: f"scripted action {entry['action']}"}
        if kind == "resolve_begin":
            t = entry["trigger"]
            trig = view.triggers.get(t, {})
            ab = view.abilities.get((trig.get("source"), trig.get("ability")), {})
            return {"cause": ("resolution", t), "effect": ab.get("effect", []), "source": trig.get("source"),
                    "what": lambda: f"the resolution of {view.describe_trigger(t)}"}
        ab = view.abilities.get((entry["source"], entry["ability"]), {})
        return {"cause": ("activation", entry["id"]), "effect": ab.get("effect", []) if entry["condition_held"] else [],
                "source": entry["source"], "what": lambda: f"activation {entry['id']} of ability {entry['ability']}"}

    def skip_noops(self, span: dict) -> None:
        while span["k"] < len(span["effect"]) and _noop(span["effect"][span["k"]], self.tracker.zones,
                                                        self.controllers):
            span["k"] += 1

    def see(self, i: int, entry: dict) -> None:
        kind = entry["kind"]
        if kind in ("action_begin", "resolve_begin", "activation_begin"):
            span = self.span_for(entry)
            if span is not None:
                span.update(k=0, broken=False, closer=SPAN_OPEN[kind], begin=i)
                self.open_spans.append(span)
                self.followed += 1
        elif kind in ("action_end", "resolve_end", "activation_end"):
            self.close(i, entry)
        elif kind == "event":
            self.event(i, entry)

    def close(self, i: int, entry: dict) -> None:
        """The end of a span: its effect must be carried out by then (unless it already went wrong)."""
        key = entry.get("trigger") or entry.get("id") or tuple(entry.get("action") or ())
        for n in range(len(self.open_spans) - 1, -1, -1):
            span = self.open_spans[n]
            if span["closer"] == entry["kind"] and span["cause"][1] == key:
                self.skip_noops(span)
                if not span["broken"] and span["k"] < len(span["effect"]):
                    self.problems.append(f"{span['what']()} (entries {span['begin']} to {i}) did not carry out "
                                         f"{_describe_action(span['effect'][span['k']])}, which its effect calls for")
                del self.open_spans[n]
                break

    def event(self, i: int, entry: dict) -> None:
        """An event: the next action of the effect that caused it, which must cause exactly this event."""
        view = self.view
        ((cause_kind, value),) = entry["cause"].items()
        cause = (cause_kind, tuple(value) if isinstance(value, list) else value)
        span = next((s for s in reversed(self.open_spans) if s["cause"] == cause), None)
        if span is None:
            self.problems.append(f"{view.describe_event(entry['id'])} names {cause_kind} {value} as its cause, but "
                                 f"that was not being carried out at entry {i}")
        elif not span["broken"]:
            self.skip_noops(span)
            if span["k"] >= len(span["effect"]):
                self.problems.append(f"{view.describe_event(entry['id'])} at entry {i} is more than "
                                     f"{span['what']()} does: its effect is already carried out")
                span["broken"] = True
            else:
                action = span["effect"][span["k"]]
                want = _event_for(action, self.tracker.zones, span["source"])
                got = {k: entry.get(k) for k in want}
                if got != want:
                    self.problems.append(f"{view.describe_event(entry['id'])} at entry {i} is not what "
                                         f"{_describe_action(action)} of {span['what']()} does: "
                                         + ", ".join(f"{k} {got[k]!r} where {want[k]!r} was due"
                                                     for k in want if got[k] != want[k]))
                    span["broken"] = True
                span["k"] += 1
        self.tracker.apply(entry)
        if entry["type"] == "control" and entry.get("subject") in self.controllers and entry.get("controller"):
            self.controllers[entry["subject"]] = entry["controller"]

    def finish(self):
        return self.problems + _script_problems(self.view), self.followed


@streamed("step_begin", "action_begin", "event")
def _script_problems(view: TraceView):
    """Each phase performs its scripted actions in order, all of them unless an effect ended the phase early: then
    the actions after the one during (or after) which the phase was ended are skipped."""
    found = []
    script = view.scenario["script"]
    performed: dict[int, list[int]] = {}
    ended_after: dict[int, int] = {}  # step -> number of actions begun when an end_phase event happened
    step = None

    def see(i, entry):
        nonlocal step
        kind = entry["kind"]
        if kind == "step_begin":
            step = entry["step"]
            performed.setdefault(step, [])
        elif kind == "action_begin" and step is not None:
            performed[step].append(entry["action"][1] if isinstance(entry.get("action"), list)
                                   and len(entry["action"]) == 2 else None)
        elif kind == "event" and entry["type"] == "end_phase" and step is not None and step not in ended_after:
            ended_after[step] = len(performed[step])

    def finish():
        for n, phase in enumerate(script):
            if n not in performed:
                found.append(f"phase {n} ({phase['step']}) never began")
                continue
            due = len(phase["actions"])
            if n in ended_after:
                due = min(due, ended_after[n])
            if performed[n] != list(range(due)):
                found.append(f"phase {n} ({phase['step']}) performed scripted actions {listed(performed[n], 'none')}, "
                             f"where {listed(range(due))} were due"
                             + (" (an effect ended the phase)" if n in ended_after else ""))
        return found

    return see, finish


@invariant(
    passes=(*PASSES, _carried_out, _script_problems),
    key="red.effect-carried-out",
    ruleset=RULESET,
    rules=RULE,
    summary="When its situation occurs, a triggered ability's effect Y is carried out in full, as are the scripted "
    "actions and 'If X, Y' abilities that make situations occur: each causes exactly the events it calls for, in order.",
    exercised=lambda view: _carried_out(view)[1],
)
def effect_carried_out(view: TraceView) -> list[str]:
    # Every scripted action is carried out (the script played as written), except those of a step that an effect
    # ended early (the end_phase event: the phase ends once the action or ability performing it completes).
    ended = script_problems(view, ends_step=lambda entry: entry.get("type") == "end_phase", early_kinds=("event",))
    return ended + list(_carried_out(view)[0])
