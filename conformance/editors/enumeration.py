"""All legal traces of a small scenario: a depth-first walk over every branch of a permissive engine.

The permissive engine of the scenario's ruleset (``reference_engine.common.permissive``) asks an oracle at every
order the reference engine settles by its reading of the rules, and (with ``player_choices="branch"``) at every
player choice. :func:`enumerate_traces` replays the scenario once per leaf of that tree: each run follows a forced
prefix of answers, answers 0 beyond it, and records every branch point it met; the next run takes the deepest
branch point with an untried answer. Each complete trace is judged by the invariants; at each new branch point the
trace so far is judged by the ruleset's prefix-safe invariants (the unit's ``prefix_safe`` keys: a violation of theirs in a
prefix stays in every completion), and a violated prefix is not extended (pruning). Nothing here knows an
ordering rule: legality is the judge's alone.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Iterable

from reference_engine.kernel.engine import Chooser
from reference_engine.kernel.errors import ConformanceError
from reference_engine.kernel.choices import ScenarioChooser
from reference_engine.kernel.invariant import Invariant
from reference_engine.kernel.traceview import TraceView
from reference_engine.kernel.registry import game_factory, prefix_safe
from reference_engine.common.permissive import BranchingChooser, permuted

# Prefix-safe invariants (each ruleset unit's ``prefix_safe``): those whose violation in a trace prefix, cut at a branch point of the permissive engine, persists in every
# completion of it (so a violating prefix may be cut). Each judges only an order among things already done: which
# trigger left a queue or went on the stack or took its turn before which, and at the permissive engines' branch
# points no queue placement, stack batch or activation batch is half done. Keys left out flag prefixes for what has
# not happened yet (a pending trigger not yet resolved, an effect not yet carried out, the stack not yet empty).
# (MTG decides a whole batch's order before its first push, because mtg.apnap-order judges a run only once it is
# complete: a half-pushed run would read as one missing abilities. So MTG prunes a wrong batch at the next branch
# point after it; Momon Wonder and Redemption ask before each queue item or activation and prune at once.)
# tests/test_editors_enumeration.py checks, on every fixture and on small generated scenarios of each ruleset, that
# a violation of these keys on a prefix is still there in the complete trace, and that pruning loses no legal trace.


@dataclass(frozen=True)
class Decision:
    """One branch point met by a run: its ``kind``, what it decided in words, how many answers it had, the answer
    taken, and the player for a player's choice (None for an order the rules settle)."""

    kind: str
    label: str
    count: int
    chosen: int
    player: str | None = None
    at: int = 0  # how many trace entries were written when it was decided


@dataclass
class Leaf:
    """One complete trace: the decisions that produced it, the trace, and the violated rule keys with messages."""

    decisions: tuple[Decision, ...]
    trace: dict[str, Any]
    violations: dict[str, list[str]]

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def player_decisions(self) -> tuple[tuple[str, int], ...]:
        return tuple((d.label, d.chosen) for d in self.decisions if d.player is not None)

    @property
    def rule_decisions(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.player is None)

    @property
    def reading(self) -> tuple[int, ...]:
        """The answers of its rule branch points, in order: a reading ``enumerate_traces(rules=...)`` can follow."""
        return tuple(d.chosen for d in self.rule_decisions)


@dataclass
class Enumeration:
    """Every leaf explored for one prepared scenario. ``runs`` counts plays of the scenario (complete leaves plus
    pruned prefixes), ``pruned`` the prefixes cut, ``complete`` is False when ``max_runs`` stopped the walk.
    ``met``: the kinds of the rule branch points any play met, a pruned or unfinished one too (a scenario whose
    every play was cut still met the branch points where it was cut)."""

    scenario: dict[str, Any]
    keys: tuple[str, ...]
    leaves: list[Leaf] = field(default_factory=list)
    runs: int = 0
    pruned: int = 0
    unfinished: int = 0
    complete: bool = True
    seconds: float = 0.0
    met: set[str] = field(default_factory=set)

    @property
    def legal(self) -> list[Leaf]:
        return [leaf for leaf in self.leaves if leaf.legal]

    def outcomes(self, leaves: Iterable[Leaf] | None = None) -> dict[tuple[str, ...], Leaf]:
        """Distinct observable outcomes (:func:`signature` with ``observable=True``) of ``leaves`` (default: the
        legal ones), each with the first leaf that gave it."""
        found: dict[tuple[str, ...], Leaf] = {}
        for leaf in self.legal if leaves is None else leaves:
            found.setdefault(signature(leaf.trace, observable=True), leaf)
        return found


class _Pruned(Exception):
    pass


class _Diverged(Exception):
    """A play following a fixed reading met a branch point with fewer answers than the reading's."""


class _Walker:
    def __init__(self, prefix: list[int], prune, rules: str | tuple[int, ...] = "branch"):
        self.prefix = prefix
        self.made: list[Decision] = []
        self.prune = prune
        self.rules = rules
        self.game = None
        self.followed = 0  # rule branch points answered from a fixed reading (``rules`` a tuple)
        self.met: set[str] = set()  # the kinds of the rule branch points this play met (where it was cut too)

    def pick(self, kind: str, label: str, count: int, player: str | None = None) -> int:
        i = len(self.made)
        if count < 1:
            raise ValueError(f"branch point {kind} with no answer")
        if player is None and self.rules == "reference":
            return 0  # the reference engine's own reading: not a branch
        if player is None:
            self.met.add(kind)
        if player is None and isinstance(self.rules, tuple):
            n, self.followed = self.followed, self.followed + 1
            answer = self.rules[n] if n < len(self.rules) else 0
            if answer >= count:
                raise _Diverged()  # the players' answers changed this branch point: not the same reading
            return answer
        if i >= len(self.prefix) and self.prune is not None and self.game is not None and self.prune(self.game):
            raise _Pruned()
        chosen = self.prefix[i] if i < len(self.prefix) else 0
        at = len(self.game.record.entries) if self.game is not None else 0
        self.made.append(Decision(kind, label, count, chosen, player, at))
        return chosen


def _next_prefix(made: list[Decision]) -> list[int] | None:
    for i in range(len(made) - 1, -1, -1):
        if made[i].chosen + 1 < made[i].count:
            return [d.chosen for d in made[:i]] + [made[i].chosen + 1]
    return None


class TiesChooser:
    """A :class:`Chooser` that answers every choice as the scenario's chooser does, except where the scenario's
    choices leave the player's answer open: the order among triggers it ranks equal (``order_key`` ties: instances
    of one ability of one object, which ``choices.trigger_order``, keyed by ability, cannot tell apart). There each
    order is a branch of ``oracle`` (kind ``player-order``, with the player), answer 0 the scenario chooser's."""

    def __init__(self, oracle, fallback: ScenarioChooser):
        self.oracle = oracle
        self.fallback = fallback

    def order(self, player: str, triggers: list[dict[str, Any]]) -> list[int]:
        preferred = list(self.fallback.order(player, triggers))
        out: list[int] = []
        start = 0
        while start < len(preferred):
            key = self.fallback.order_key(triggers[preferred[start]])
            end = start + 1
            while end < len(preferred) and self.fallback.order_key(triggers[preferred[end]]) == key:
                end += 1
            tie = preferred[start:end]
            names = ", ".join(triggers[k].get("id", str(k)) for k in tie)
            out += permuted(self.oracle, "player-order", f"{player} orders {names}, ranked alike", tie, tie, player)
            start = end
        return out

    def optional(self, player: str, trigger: dict[str, Any]) -> bool:
        return self.fallback.optional(player, trigger)

    def choose(self, kind: str, player: str, context: dict[str, Any], candidates: list[Any]) -> int:
        return self.fallback.choose(kind, player, context, candidates)


class InvariantCrashed(ConformanceError):
    """An invariant's check raised while judging a complete trace: the invariant is broken, which is no verdict on
    the rules (it must never read as a violation, hence as a contradiction). ``key`` is the rule key, ``check`` the
    check as ``module:qualname``, ``error`` the exception; the message names all three, where the check raised
    (file:line) and the scenario."""

    def __init__(self, inv: Invariant, error: BaseException, scenario: dict[str, Any]):
        self.key = inv.key
        self.check = f"{getattr(inv.check, '__module__', '?')}:{getattr(inv.check, '__qualname__', '?')}"
        self.error = error
        frames = traceback.extract_tb(error.__traceback__)
        code = getattr(getattr(inv.check, "__code__", None), "co_filename", None)
        own = [f for f in frames if f.filename == code]  # the line of the invariant's own module, if it is there
        where = f" at {(own or frames)[-1].filename}:{(own or frames)[-1].lineno}" if frames else ""
        named = f"scenario {scenario['id']!r}" if scenario.get("id") else f"a {scenario.get('ruleset')} scenario"
        super().__init__(f"the invariant {inv.key} ({self.check}) raised {type(error).__name__}: {error}{where} "
                         f"while judging a trace of {named}; a check that crashes gives no verdict (it is not a "
                         "contradiction): fix the invariant")


def judge(scenario: dict[str, Any], trace: dict[str, Any], invariants: Iterable[Invariant]) -> dict[str, list[str]]:
    """Rule key -> messages for every invariant the trace violates. Raises :class:`InvariantCrashed` when a check
    raises: a broken invariant is reported as such, never as a violation (an editor must see it)."""
    view = TraceView(scenario, trace, scenario["options"])
    found: dict[str, list[str]] = {}
    for problem in view.structure_problems():
        found.setdefault("structure", []).append(problem)
    for inv in invariants:
        try:
            messages = inv.check(view)
        except Exception as exc:  # noqa: BLE001 - any exception of the check: reported, never hidden
            raise InvariantCrashed(inv, exc, scenario) from exc
        if messages:
            found[inv.key] = list(messages)
    return found


def enumerate_traces(scenario: dict[str, Any], invariants: Iterable[Invariant], *, player_choices: str = "branch",
                     prune: bool = True, max_runs: int = 20_000, rules: str | tuple[int, ...] = "branch",
                     max_entries: int = 2_000) -> Enumeration:
    """Every trace the permissive engine can play for the prepared ``scenario`` (options resolved), judged by
    ``invariants``.

    ``player_choices``: ``"branch"`` explores every answer to every player choice, ``"scenario"`` answers them
    from the scenario's ``choices``, ``"ties"`` from them too but explores what they leave open (:class:`TiesChooser`). ``rules``: ``"branch"`` explores every order the rules might leave open,
    ``"reference"`` keeps the reference engine's reading (then only player choices branch), a tuple of answers
    follows that reading (the rule decisions of a leaf, :attr:`Leaf.reading`: the n-th rule branch point met takes
    the n-th answer, 0 beyond them; a play where an answer is out of range is dropped, counted in ``pruned``). ``prune`` cuts a prefix that violates a prefix-safe invariant
    (the unit's ``prefix_safe`` keys) of those given. ``max_runs`` bounds the plays; reaching it sets ``complete`` False. A play
    longer than ``max_entries`` trace entries is abandoned as unfinished (a loop), counted in ``unfinished``.
    Raises KeyError for a ruleset without a permissive engine.
    """
    invariants = tuple(invariants)
    game_class = game_factory(scenario["ruleset"])
    safe = [inv for inv in invariants if inv.key in prefix_safe(scenario["ruleset"])]
    result = Enumeration(scenario, tuple(inv.key for inv in invariants))
    started = time.perf_counter()

    def prefix_violated(game) -> bool:
        trace = {"format": "trigger-conformance/trace/1", "entries": list(game.record.entries)}
        view = TraceView(scenario, trace, scenario["options"])
        for inv in safe:
            try:
                if inv.check(view):
                    return True
            except Exception:  # noqa: BLE001 - a prefix the check cannot read is simply not pruned
                continue
        return False

    prefix: list[int] | None = []
    while prefix is not None:
        if result.runs >= max_runs:
            result.complete = False
            break
        result.runs += 1
        walker = _Walker(prefix, prefix_violated if (prune and safe) else None, rules)
        base: Chooser = ScenarioChooser(scenario)
        chooser = (BranchingChooser(walker, base) if player_choices == "branch"
                   else TiesChooser(walker, base) if player_choices == "ties" else base)
        game = game_class(scenario, chooser, walker)
        game.record.max_entries = max_entries
        walker.game = game
        try:
            trace = game.play()
        except (_Pruned, _Diverged):
            result.pruned += 1
        except RuntimeError:  # this branch never finishes (a loop the branches made): no trace to judge
            result.unfinished += 1
        else:
            result.leaves.append(Leaf(tuple(walker.made), trace, judge(scenario, trace, invariants)))
        result.met |= walker.met
        prefix = _next_prefix(walker.made)
    result.seconds = time.perf_counter() - started
    return result


OBSERVABLE = ("event ", "resolve_begin ", "removed ", "package_open ", "activation_begin ", "delayed_end ")


def signature(trace: dict[str, Any], observable: bool = False, canonical: bool = False) -> tuple[str, ...]:
    """A trace's order, independent of ids: events (type, name, subject), trigger instances entering queues or the
    stack, resolving or removed (by source/ability and the event they came from), packages, state checks. Two
    traces with the same signature did the same things in the same order. ``observable=True`` keeps only what a
    player sees happen (events, resolutions, removals with their reason, packages opening, delayed triggered abilities
    ending with their reason): bookkeeping order
    (which of two queues was written first) is left out. ``canonical=True`` keeps everything but writes a placement
    that leaves the same queue as another the same way: a trigger put at the front of a queue holding nothing (no
    trigger waiting in it and no package waiting anywhere) is appended to it, for front and back of an empty queue
    are one position."""
    events: dict[str, str] = {}
    triggers: dict[str, str] = {}
    packages: dict[str, str] = {}
    delayed: dict[str, str] = {}
    waiting: dict[str, set[str]] = {}  # queue -> trigger ids in it (canonical)
    queued: dict[str, str] = {}  # trigger id -> its queue
    pending_packages: set[str] = set()
    lines: list[str] = []
    for entry in trace["entries"]:
        kind = entry["kind"]
        if kind == "event":
            what = entry["type"] + (f" {entry['name']}" if entry.get("name") else "") + (
                f" of {entry['subject']}" if entry.get("subject") else "")
            events[entry["id"]] = what
            lines.append(f"event {what}")
        elif kind == "trigger":
            origin = events.get(entry["event"], "remedy") if entry.get("event") else "remedy"
            triggers[entry["id"]] = f"{entry['source']}/{entry['ability']} [{origin}]"
        elif kind in ("enqueue", "stack_push", "resolve_begin", "removed"):
            extra = f" ({entry['reason']})" if kind == "removed" else ""
            where = ""
            if kind == "enqueue":
                front = entry.get("placement") == "front"
                if canonical:
                    if front and not waiting.get(entry.get("queue")) and not pending_packages:
                        front = False  # the front of an empty queue is its back
                    waiting.setdefault(entry.get("queue"), set()).add(entry["trigger"])
                    queued[entry["trigger"]] = entry.get("queue")
                where = f" -> {'front of ' if front else ''}{packages.get(entry.get('queue'), entry.get('queue'))}"
            elif canonical and entry["trigger"] in queued and kind in ("resolve_begin", "removed"):
                waiting[queued.pop(entry["trigger"])].discard(entry["trigger"])
            lines.append(f"{kind} {triggers.get(entry['trigger'], entry['trigger'])}{where}{extra}")
        elif kind == "package_create":
            packages[entry["package"]] = f"package of {events.get(entry['event'], entry['event'])}"
            pending_packages.add(entry["package"])
            lines.append(f"create {packages[entry['package']]}")
        elif kind in ("package_open", "package_close", "snatch_check_begin"):
            if kind == "package_open":
                pending_packages.discard(entry["package"])
            lines.append(f"{kind} {packages.get(entry['package'], entry['package'])}")
        elif kind in ("sbc_check", "sba_check") and lines and lines[-1] != kind:
            lines.append(kind)
        elif kind == "delayed_create":
            delayed[entry["id"]] = f"{entry.get('source', '')}/{entry.get('ability', '')}"
        elif kind == "delayed_end":
            lines.append(f"delayed_end {delayed.get(entry['delayed'], entry['delayed'])} ({entry.get('reason', '')})")
        elif kind in ("activation_begin",):
            lines.append(f"{kind} {entry.get('source', '')}/{entry.get('ability', '')}")
    if observable:
        return tuple(line for line in lines if line.startswith(OBSERVABLE))
    return tuple(lines)
