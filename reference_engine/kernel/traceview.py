"""An indexed, read-only view of one (scenario, trace) pair, shared by every invariant of a check.

Indexes are built once per trace, in the constructor's pass; the observations the invariants read entry by entry
(:func:`streamed`) are then computed together in one more pass, :meth:`TraceView.walk`, which hands each entry only
to the observations that declared interest in its kind. Positions ``i`` below are indexes into ``entries``. The
view never trusts the engine: :meth:`TraceView.structure_problems` lists dangling references, duplicate ids and
out-of-order positions, and the harness reports a trace with such problems as garbage before any invariant sees it
(it skips that check only for the bundled reference engines' own traces, see ``conformance.running.checking.trusts``).
"""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property
from typing import Any, Iterable

from reference_engine.kernel.references import EntryReferences, Reference, entry_references


class TraceView:
    """``scenario`` and ``trace`` are the validated documents; ``options`` the resolved ruleset options."""

    def __init__(self, scenario: dict[str, Any], trace: dict[str, Any], options: dict[str, Any]):
        self.scenario = scenario
        self.trace = trace
        self.options = options
        self.edition: str = scenario["edition"]
        self.entries: list[dict[str, Any]] = trace["entries"]
        self.players: list[str] = scenario["players"]
        self.active_player: str = scenario["active_player"]

        self.events: dict[str, dict] = {}
        self.event_index: dict[str, int] = {}
        self.triggers: dict[str, dict] = {}
        self.trigger_index: dict[str, int] = {}
        self.resolve_begin: dict[str, int] = {}
        self.resolve_end: dict[str, int] = {}
        self.unresolved: dict[str, int] = {}  # trigger -> its first entry of a kind marked x-unresolved (see below)
        self.step_advances: list[int] = []
        self.by_kind: dict[str, list[int]] = defaultdict(list)
        self.memo: dict[str, Any] = {}  # per-ruleset observations, computed once per trace (see memoized)
        self.unfinished: dict[str, Any] = {}  # streamed observations walked but not finished yet (see walk)
        self._duplicates: list[tuple[int, str]] = []  # (entry index, problem) of an event or trigger id used again
        self.repeated: list[tuple[str, str, int]] = []  # (kind, trigger id, entry index) of a second resolve_* or
        # x-unresolved entry of one instance
        by_kind = self.by_kind
        for i, entry in enumerate(self.entries):  # one pass sorts the entries by kind; each kind is indexed below
            by_kind[entry["kind"]].append(i)
        entries = self.entries
        for i in by_kind.get("event", ()):
            self._remember(self.events, self.event_index, entries[i], i)
        for i in by_kind.get("trigger", ()):
            self._remember(self.triggers, self.trigger_index, entries[i], i)
        ending = [(kind, field, self.unresolved) for kind, field in self._references.unresolved.items()]
        for kind, field, table in [("resolve_begin", "trigger", self.resolve_begin),
                                   ("resolve_end", "trigger", self.resolve_end)] + ending:
            for i in by_kind.get(kind, ()):
                self._first(table, entries[i][field], i, kind)
        self._duplicates.sort()  # in trace order, whatever their kinds
        self.repeated.sort(key=lambda found: found[2])
        self.step_advances = list(by_kind.get("step_advance", ()))

    def _remember(self, table: dict, index: dict, entry: dict, i: int) -> None:
        if entry["id"] in table:
            self._duplicates.append((i, f"entry {i}: {entry['kind']} id {entry['id']} is used twice"))
            return
        table[entry["id"]] = entry
        index[entry["id"]] = i

    def _first(self, table: dict, key: str, i: int, kind: str) -> None:
        if key in table:
            self.repeated.append((kind, key, i))  # resolving twice is a rule violation, not an unreadable trace
            return
        table[key] = i

    # -- Structure -------------------------------------------------------------------------------------------

    def structure_problems(self, against_scenario: bool = True) -> list[str]:
        """Referential problems that make the trace unreadable as a record (not rule violations); with
        ``against_scenario``, also where it contradicts its scenario (:meth:`scenario_problems`)."""
        found = [problem for _, problem in self._duplicates]
        earlier = self._references.earlier  # the fields naming an entry that must come before (x-earlier)
        defined: dict[str, dict[str, int]] = {}  # sort -> id -> index of its defining entry, built when first needed
        last_position = None
        for i, entry in enumerate(self.entries):
            kind = entry["kind"]
            if kind == "event":
                if last_position is not None and entry["position"] <= last_position:
                    found.append(f"entry {i}: event {entry['id']} has position {entry['position']}, not after {last_position}")
                last_position = entry["position"]
            elif kind == "trigger":
                if entry["event"] is not None and self.event_index.get(entry["event"], -1) > i:
                    found.append(f"entry {i}: trigger {entry['id']} comes before its event {entry['event']}")
            elif kind in earlier:
                for ref in earlier[kind]:
                    value = ref.value(entry)
                    if ref.what not in defined:
                        defined[ref.what] = self._defined_at(ref.what)
                    if isinstance(value, str) and defined[ref.what].get(value, -1) > i:
                        found.append(f"entry {i}: {kind} of {ref.what} {value} comes before the {ref.what} itself")
        for trigger, end in self.resolve_end.items():
            begin = self.resolve_begin.get(trigger)
            if begin is None or begin > end:
                found.append(f"entry {end}: resolve_end of trigger {trigger} without an earlier resolve_begin")
        found += self._dangling_references() + self._choice_problems(against_scenario)
        return found + (self.scenario_problems() if against_scenario else [])

    def _choice_problems(self, against_scenario: bool) -> list[str]:
        """A ``choice`` entry whose ``among`` names what the trace or the scenario does not have, or whose ``chosen``
        is not among them: the kernel's ``order`` (trigger ids, chosen in some order) and ``optional`` (one trigger
        id, chosen a yes or no), and a unit's own decisions (their :class:`ChoiceKind`'s ``among``)."""
        from reference_engine.kernel.choices import unit_choice_kinds

        found = []
        for i in self.by_kind.get("choice", ()):
            entry = self.entries[i]
            decision, among, chosen = entry["decision"], entry.get("among"), entry["chosen"]
            if decision in ("order", "optional"):
                what = "trigger"
            else:
                kind = unit_choice_kinds(self.scenario.get("ruleset")).get(decision)
                what = kind.among if kind is not None else None
            named = list(among or ()) + (chosen if decision == "order" and isinstance(chosen, list) else [])
            for field, value in [("among", v) for v in among or ()] + [("chosen", v) for v in named[len(among or ()):]]:
                if not self._names(what, value, i, against_scenario):
                    found.append(f"entry {i}: choice ({decision}) names unknown {what} {value} in its {field}")
            picked = chosen if isinstance(chosen, list) else [chosen]
            if decision == "optional" and not isinstance(chosen, bool):
                found.append(f"entry {i}: choice (optional) chose {chosen}, not a yes or no (true or false)")
            elif among is None:  # optional in the schema (an engine may leave it out): nothing to hold chosen to
                continue
            elif decision == "order" and sorted(map(str, picked)) != sorted(map(str, among)):
                found.append(f"entry {i}: choice (order) chose {chosen}, which is not an order of its among {among}")
            elif decision != "order" and decision != "optional" and any(value not in among for value in picked):
                found.append(f"entry {i}: choice ({decision}) chose {chosen}, which is not among {among}")
        return found

    def _names(self, what: str | None, value: Any, i: int, against_scenario: bool) -> bool:
        """Whether ``value`` names a ``what`` of the trace (defined by some entry) or of the scenario."""
        if what == "trigger":  # anywhere in the trace: a choice written too early is a rule's to judge
            return value in self.trigger_index
        if what == "event":
            return value in self.event_index
        if what in ("object", "player", "object or player"):
            return not against_scenario or (what != "player" and value in self.objects) or \
                (what != "object" and value in self.players)
        return what is None or value in self._defined_at(what)

    def _defined_at(self, what: str) -> dict[str, int]:
        """Id -> index of the first entry defining it, for ids of sort ``what`` (``x-defines``)."""
        if what == "trigger":
            return self.trigger_index
        if what == "event":
            return self.event_index
        found: dict[str, int] = {}
        for kind, fields in self._references.defines.items():
            for field, sort in fields:
                if sort == what:
                    for i in self.by_kind.get(kind, ()):
                        found.setdefault(self.entries[i].get(field), i)
        return found

    @cached_property
    def _references(self) -> EntryReferences:
        """The ruleset's reference fields (its composed trace schema's ``x-refers-to``; every unit's for a trace
        judged without a known ruleset)."""
        try:
            return entry_references(self.scenario.get("ruleset"))
        except KeyError:
            return entry_references(None)

    def _referring(self, refers: dict[str, tuple[Reference, ...]]):
        """(entry index, entry, reference, value) of every field of ``refers`` (per entry kind: the references of
        one group, :attr:`EntryReferences.in_trace` or ``in_scenario``), in trace order."""
        for i, entry in enumerate(self.entries):
            refs = refers.get(entry["kind"])
            if refs is None:
                continue
            for ref in refs:
                value = ref.value(entry)
                if value is not None and not (ref.also and isinstance(value, str) and value in ref.also):
                    yield i, entry, ref, value

    @staticmethod
    def _label(entry: dict[str, Any]) -> str:
        return f"{entry['kind']} {entry['id']}" if isinstance(entry.get("id"), str) else entry["kind"]

    def scenario_problems(self) -> list[str]:
        """Where the trace contradicts its scenario: a player, an object, an ability, a script step or action
        (every field the ruleset's trace schema marks as naming one, see :mod:`reference_engine.kernel.references`)
        that the scenario does not have; an ability counts when it is printed on the object the entry names with it
        or created by an effect of the scenario."""
        objects, players, created = self.objects, set(self.players), self._created_abilities
        script = self.scenario.get("script", ())
        found = []
        for i, entry, ref, value in self._referring(self._references.in_scenario):
            what = ref.what
            if what in ("object", "player", "object or player"):
                if not isinstance(value, str) or (what != "player" and value in objects) or \
                        (what != "object" and value in players):
                    continue
                found.append(f"entry {i}: {entry['kind']} names {what if what != 'object or player' else 'an object or player'}"
                             f" {value} in its {ref.field}, which the scenario does not have")
            elif what == "ability":
                anchor = entry.get(ref.ability_of) if ref.ability_of else None
                if anchor is not None and anchor not in objects:
                    continue  # the object itself is reported
                if value in created or (anchor, value) in self.abilities or \
                        (anchor is None and any(ability == value for _, ability in self.abilities)):
                    continue
                of = f" of {anchor}" if anchor is not None else ""
                found.append(f"entry {i}: {self._label(entry)} names ability {value}{of}, which neither has it printed "
                             f"nor gets it from an effect")
            elif what == "step" and not (isinstance(value, int) and 0 <= value < len(script)):
                found.append(f"entry {i}: {entry['kind']} names script step {value} in its {ref.field}, which the "
                             f"scenario's script (of {len(script)} steps) does not have")
            elif what == "action" and not (isinstance(value, list) and len(value) == 2 and 0 <= value[0] < len(script)
                                           and 0 <= value[1] < len(script[value[0]].get("actions", ()))):
                found.append(f"entry {i}: {entry['kind']} names script action {value} in its {ref.field}, which the "
                             f"scenario's script does not have")
        return found

    @cached_property
    def _created_abilities(self) -> set[str]:
        """Ids of the abilities an effect of the scenario creates (``ability`` objects inside its actions)."""
        found: set[str] = set()
        pending: list[Any] = [self.scenario.get("objects", ()), self.scenario.get("script", ())]
        while pending:
            value = pending.pop()
            if isinstance(value, dict):
                if isinstance(value.get("ability"), dict) and isinstance(value["ability"].get("id"), str):
                    found.add(value["ability"]["id"])
                pending.extend(value.values())
            elif isinstance(value, list):
                pending.extend(value)
        return found

    def _dangling_references(self) -> list[str]:
        """Every field the ruleset's trace schema marks as naming an id of the trace (an event, a trigger, or a sort
        of id its own entry kinds define) that no entry of the trace defines."""
        known: dict[str, set] = defaultdict(set)
        defines = self._references.defines
        for entry in self.entries:
            for field, what in defines.get(entry["kind"], ()):
                known[what].add(entry.get(field))
        return [f"entry {i}: {self._label(entry)} names unknown {ref.what} {value} in its {ref.field}"
                for i, entry, ref, value in self._referring(self._references.in_trace)
                if not isinstance(value, str) or value not in known[ref.what]]

    # -- Lookups ---------------------------------------------------------------------------------------------

    @cached_property
    def objects(self) -> dict[str, dict]:
        return {obj["id"]: obj for obj in self.scenario["objects"]}

    @cached_property
    def abilities(self) -> dict[tuple[str, str], dict]:
        """(source id, ability id) -> ability."""
        return {(obj["id"], ab["id"]): ab for obj in self.scenario["objects"] for ab in obj.get("abilities", ())}

    @cached_property
    def object_order(self) -> dict[str, int]:
        return {obj["id"]: n for n, obj in enumerate(self.scenario["objects"])}

    def ability_of(self, trigger_id: str) -> dict | None:
        """The scenario ability a trigger instance stands for (None if the trace names no such ability); raises
        KeyError for an id that is no trigger of the trace."""
        return self._abilities_of[trigger_id]

    @cached_property
    def _abilities_of(self) -> dict[str, dict | None]:
        """Trigger id -> :meth:`ability_of`, for every trigger of the trace (rules ask for it per entry)."""
        abilities = self.abilities
        return {t: abilities.get((trig["source"], trig["ability"])) for t, trig in self.triggers.items()}

    def position_of(self, trigger_id: str) -> int | None:
        """Chronological position of the event a trigger instance came from (None for one with no event)."""
        event = self.triggers[trigger_id]["event"]
        return None if event is None else self.events[event]["position"]

    def left_at(self, trigger_id: str) -> int | None:
        """Index of the entry where the instance left its queue: its resolve_begin or the entry that ended it unresolved
        (:attr:`unresolved`), the earlier of the two (None if neither)."""
        return self._left.get(trigger_id)

    @cached_property
    def _left(self) -> dict[str, int]:
        """Trigger id -> :meth:`left_at`, for every instance that left its queue (the earlier of the two entries)."""
        left = dict(self.unresolved)
        for trigger, begin in self.resolve_begin.items():
            ended = left.get(trigger)
            if ended is None or begin < ended:
                left[trigger] = begin
        return left

    @cached_property
    def events_by_cause(self) -> dict[tuple[str, Any], list[dict]]:
        """(cause kind, cause value) -> events, e.g. ("resolution", "T3") or ("action", (0, 1))."""
        table: dict[tuple[str, Any], list[dict]] = defaultdict(list)
        for i in self.by_kind["event"]:
            event = self.entries[i]
            ((kind, value),) = event["cause"].items()
            table[(kind, tuple(value) if isinstance(value, list) else value)].append(event)
        return table

    @cached_property
    def triggers_by_event(self) -> dict[str | None, list[str]]:
        table: dict[str | None, list[str]] = defaultdict(list)
        for i in self.by_kind["trigger"]:
            entry = self.entries[i]
            table[entry["event"]].append(entry["id"])
        return table

    @cached_property
    def resolution_spans(self) -> list[tuple[str, int, int]]:
        """(trigger id, begin index, end index) of every completed resolution, in trace order."""
        spans = [(t, b, self.resolve_end[t]) for t, b in self.resolve_begin.items() if t in self.resolve_end]
        return sorted(spans, key=lambda span: span[1])

    def describe_trigger(self, trigger_id: str) -> str:
        """Human form of a trigger instance: ``T7 (ability A2 of O3, from event E4 at position 4)``."""
        t = self.triggers.get(trigger_id)
        if t is None:
            return trigger_id
        if t["event"] is None:
            origin = self._references.null_means.get(("trigger", "event"), "triggered by no event")
        else:
            origin = f"from event {t['event']} at position {self.events[t['event']]['position']}"
        return f"{trigger_id} (ability {t['ability']} of {t['source']}, {origin})"

    def describe_event(self, event_id: str) -> str:
        e = self.events[event_id]
        what = e["type"] + (f" {e['name']}" if e.get("name") else "") + (f" of {e['subject']}" if e.get("subject") else "")
        return f"event {event_id} ({what}, position {e['position']})"

    def indexes_of(self, *kinds: str) -> list[int]:
        """Indexes of the entries of any of ``kinds``, ascending (from the index built in the constructor's pass)."""
        if len(kinds) == 1:
            return self.by_kind.get(kinds[0], [])
        return sorted(i for kind in kinds for i in self.by_kind.get(kind, ()))

    # -- The shared pass ------------------------------------------------------------------------------------------

    def walk(self, passes: "Iterable[Streamed]") -> None:
        """Compute every :func:`streamed` observation of ``passes`` not computed yet, in one pass over ``entries``.

        Each entry is handed, in trace order, only to the observations that declared interest in its kind. Results go
        to :attr:`memo`, where the observations find them; one observation's ``finish`` may read another computed in
        the same pass (it is finished first, on demand), while ``see`` must not read another one's partial state. If
        one raises, nothing more is stored: each observation left is then computed on its own when asked, so that the
        error is charged to the rules that need it and to them alone.
        """
        todo = list({p.key: p for p in passes if p.key not in self.memo}.values())
        if not todo:
            return
        started = [(p, p.factory(self)) for p in todo]
        every = [see for p, (see, _) in started if p.kinds is None]
        dispatch: dict[str, list] = {}
        for p, (see, _) in started:
            for kind in p.kinds or ():
                dispatch.setdefault(kind, []).append(see)
        if every:
            for kind, seers in dispatch.items():
                dispatch[kind] = every + seers
        get = dispatch.get
        empty = every  # an entry of a kind no one named still goes to the passes that want every entry
        for i, entry in enumerate(self.entries):
            for see in get(entry["kind"], empty):
                see(i, entry)
        pending = {p.key: finish for p, (_, finish) in started}
        outer, self.unfinished = self.unfinished, pending  # a finish may start a walk of its own: restored after
        try:
            for p, _ in started:
                finish = pending.pop(p.key, None)
                if finish is not None:  # else it was finished on demand by another one's finish
                    self.memo[p.key] = finish()
        finally:
            self.unfinished = outer


class Streamed:
    """An observation computed in the shared pass over a trace (see :func:`streamed`); call it with a view."""

    def __init__(self, factory, kinds: frozenset[str] | None):
        self.factory = factory
        self.kinds = kinds
        self.key = f"{factory.__module__}.{factory.__qualname__}"
        self.__doc__ = factory.__doc__
        self.__name__ = factory.__name__
        self.__module__ = factory.__module__
        self.__qualname__ = factory.__qualname__

    def __call__(self, view: TraceView):
        if self.key not in view.memo:
            finish = view.unfinished.pop(self.key, None)
            if finish is not None:
                view.memo[self.key] = finish()
            else:
                view.walk((self,))
        return view.memo[self.key]

    def __repr__(self) -> str:
        return f"<streamed observation {self.key}>"


def streamed(*kinds: str):
    """Decorator for an observation computed one entry at a time, in the pass over the trace that every rule shares.

    The decorated ``factory(view)`` returns ``(see, finish)``: ``see(i, entry)`` is called, in trace order, for each
    entry whose ``kind`` is one of ``kinds`` (every entry when no kind is named), and ``finish()`` returns the
    observation. The result is a :class:`Streamed`: calling it on a view returns the observation, memoized on the view
    like :func:`memoized`; :meth:`TraceView.walk` computes several of them in a single pass, and an invariant lists
    the ones it reads in its ``passes`` so that the judge (:func:`reference_engine.kernel.invariant.judge`) walks the
    trace once for all the rules of an edition.
    """

    def wrap(factory) -> Streamed:
        return Streamed(factory, frozenset(kinds) if kinds else None)

    return wrap


_UNKNOWN = object()  # not computed yet (None is a value an observation may have)


def memoized(function):
    """Cache a ``function(view)`` result on the view, so that invariants sharing an observation compute it once."""
    name = f"{function.__module__}.{function.__qualname__}"

    def wrapper(view: TraceView):
        value = view.memo.get(name, _UNKNOWN)  # asked up to thousands of times per trace: one lookup when known
        if value is _UNKNOWN:
            value = view.memo[name] = function(view)
        return value

    wrapper.__doc__ = function.__doc__
    wrapper.__name__ = function.__name__
    return wrapper


def trace_structure_problems(entries: list[dict[str, Any]]) -> list[str]:
    """:meth:`TraceView.structure_problems` of a schema-valid trace on its own, without its scenario."""
    stub = {"edition": "", "players": [], "active_player": "", "objects": []}
    return TraceView(stub, {"entries": entries}, {}).structure_problems(against_scenario=False)
