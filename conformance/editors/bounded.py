"""Every scenario within a bound: the ruleset's own builder walked exhaustively instead of at random.

The random generator (:mod:`conformance.editors.small`, the runner's ``SeededSource``) and this module ask the same
builder (``reference_engine/<ruleset>/generator``) the same questions; only the answers differ. One description of
the space, two ways of walking it: a sample draws one answer per question, :func:`bounded_scenarios` tries every
answer, depth first, replaying the builder once per leaf of its question tree (as
:func:`conformance.editors.enumeration.enumerate_traces` replays an engine).

The builders ask many questions (every feature of the swarm, every "another one?"), each with up to a hundred
answers, so the whole tree is far too large to walk. Three things make it finite and small, each stated in the bound:

* **The question space is reduced without losing a scenario:** ``chance(p)`` has two answers (False, True) and not
  100, since the builder reads only the truth value; any other range is cut to its first ``values`` answers (object
  references are taken modulo the object count, so with ``objects <= values`` they lose nothing).
* **``depth``** bounds the distance from the builder's simplest scenario: the number of questions answered other
  than the simplest way (a builder's 0 is always its simplest answer: fewer objects, abilities, actions and players,
  features off). It is this walk's depth, as TLC's depth is the distance from the initial state.
* **players, objects, abilities, actions** bound the scenario built (more than that is left out, counted).

Symmetry reduction: scenarios that differ only by the names of players, objects or abilities are one
(:func:`canonical`). The walk is deterministic, so a bound always yields the same scenarios in the same order, which
``--shard I/N`` partitions.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Iterator, Sequence, TypeVar

from reference_engine.kernel.registry import builder_for
from reference_engine.kernel.source import ChoiceSource

T = TypeVar("T")


@dataclass(frozen=True)
class Bound:
    """The scope of an exhaustive run. ``players``, ``objects``, ``abilities`` (triggered abilities in all) and
    ``actions`` (effect actions in all: the script's and the abilities') bound the scenario; ``depth`` the questions
    of the builder answered other than the simplest way; ``values`` the answers tried per question."""

    players: int = 2
    objects: int = 2
    abilities: int = 2
    actions: int = 2
    depth: int = 3
    values: int = 4

    @classmethod
    def parse(cls, text: str | None) -> "Bound":
        """``players=2,objects=2,...`` (any subset; the rest keep their defaults). Raises ValueError naming an
        unknown dimension or a value that is not a whole number of at least 1 (0 for ``depth``)."""
        values = asdict(cls())
        for part in filter(None, (text or "").split(",")):
            name, sep, raw = part.strip().partition("=")
            if not sep or name not in values:
                raise ValueError(f"--bound: {part.strip()!r} is not DIMENSION=N with a dimension of "
                                 f"{', '.join(values)}")
            try:
                number = int(raw)
            except ValueError:
                raise ValueError(f"--bound {name}: {raw!r} is not a whole number") from None
            if number < (0 if name == "depth" else 1):
                raise ValueError(f"--bound {name}: {number} is too small (at least {0 if name == 'depth' else 1})")
            values[name] = number
        return cls(**values)

    def text(self) -> str:
        return ",".join(f"{k}={v}" for k, v in asdict(self).items())

    def exceeded(self, document: dict[str, Any]) -> str | None:
        """The first dimension ``document`` exceeds (None if within the bound)."""
        size = measure(document)
        return next((name for name in ("players", "objects", "abilities", "actions")
                     if size[name] > getattr(self, name)), None)


def measure(document: dict[str, Any]) -> dict[str, int]:
    """How many players, objects, triggered abilities and effect actions (the script's and the abilities', a Snatch
    Check's included) ``document`` has."""
    abilities = [ab for obj in document["objects"] for ab in obj.get("abilities", ())]
    effects = [action["effect"] for step in document["script"] for action in step["actions"]]
    effects += [ab.get("effect", []) for ab in abilities]
    return {"players": len(document["players"]), "objects": len(document["objects"]), "abilities": len(abilities),
            "actions": sum(_actions(effect) for effect in effects)}


def _actions(effect: list[dict[str, Any]]) -> int:
    return sum(1 + _actions(a.get("snatch_check", [])) for a in effect if isinstance(a, dict))


class WalkingSource(ChoiceSource):
    """Answers a builder from a forced prefix, 0 beyond it, and records each question's answer count (reduced: two
    for a chance, at most ``values`` for a range)."""

    def __init__(self, prefix: Sequence[int], values: int):
        self.prefix = prefix
        self.values = values
        self.asked: list[tuple[int, int]] = []  # (answers, chosen) per question

    def _answer(self, count: int) -> int:
        i = len(self.asked)
        chosen = self.prefix[i] if i < len(self.prefix) else 0
        self.asked.append((count, chosen))
        return chosen

    def integer(self, lo: int, hi: int) -> int:
        return lo + self._answer(min(hi - lo + 1, self.values))

    def chance(self, percent: int) -> bool:
        return bool(self._answer(2)) if 0 < percent < 100 else percent >= 100

    def pick(self, options: Sequence[T]) -> T:
        return options[self._answer(min(len(options), self.values))]


def _next_prefix(asked: list[tuple[int, int]], depth: int) -> list[int] | None:
    """The next leaf's forced answers: the deepest question with an untried answer within ``depth`` non-simplest
    answers."""
    used = sum(1 for _, chosen in asked if chosen)
    for i in range(len(asked) - 1, -1, -1):
        count, chosen = asked[i]
        before = used - (1 if chosen else 0)
        if chosen + 1 < count and before + 1 <= depth:
            return [c for _, c in asked[:i]] + [chosen + 1]
        used = before
    return None


@dataclass
class Walk:
    """What :func:`bounded_scenarios` met: ``builds`` (leaves of the question tree), ``outside`` (built but beyond
    the bound, per dimension), ``duplicates`` (the same as an earlier one up to renaming)."""

    builds: int = 0
    outside: dict[str, int] = field(default_factory=dict)
    duplicates: int = 0
    scenarios: int = 0
    stopped: bool = False  # the deadline passed before the bound was walked to its end


def bounded_scenarios(ruleset: str, edition: str, bound: Bound, walk: Walk | None = None,
                      deadline: float | None = None) -> Iterator[dict[str, Any]]:
    """Every scenario document (without ``options``) the builder of ``ruleset`` makes within ``bound``, one per
    class of renamings, in a fixed order. ``walk`` (a :class:`Walk`), if given, counts what was built and left
    out. ``deadline`` (a ``time.monotonic()``): no build is started after it (``walk.stopped`` is then set), so a
    bound whose builds mostly fall outside it still stops on time. Raises KeyError for a ruleset without a
    builder."""
    build = builder_for(ruleset)
    walk = walk if walk is not None else Walk()
    seen: set[str] = set()
    prefix: list[int] | None = []
    while prefix is not None:
        if deadline is not None and time.monotonic() > deadline:
            walk.stopped = True
            return
        source = WalkingSource(prefix, bound.values)
        document = build(source, edition)
        walk.builds += 1
        prefix = _next_prefix(source.asked, bound.depth)
        beyond = bound.exceeded(document)
        if beyond is not None:
            walk.outside[beyond] = walk.outside.get(beyond, 0) + 1
            continue
        key = canonical(document)
        if key in seen:
            walk.duplicates += 1
            continue
        seen.add(key)
        walk.scenarios += 1
        yield document


# -- Symmetry reduction -----------------------------------------------------------------------------------------------

def _names(document: dict[str, Any]) -> dict[str, str]:
    """Player, object and ability names -> canonical ones (P1.., O1.., A1..), by order of first appearance."""
    out: dict[str, str] = {}
    for n, player in enumerate(document["players"], 1):
        out[player] = f"P{n}"
    for n, obj in enumerate(document["objects"], 1):
        out[obj["id"]] = f"O{n}"
    abilities = [ab["id"] for obj in document["objects"] for ab in obj.get("abilities", ())]
    out.update({a: f"A{n}" for n, a in enumerate(abilities, 1)})
    return out


def _renamed(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    return value


def _shape(obj: dict[str, Any], names: dict[str, str]) -> str:
    """An object with every player, object and ability name blanked: the same for an object and its renaming."""
    return json.dumps(_renamed(obj, dict.fromkeys(names, "_")), sort_keys=True, separators=(",", ":"))


def _orders(objects: list[dict[str, Any]], names: dict[str, str]) -> Iterator[list[dict[str, Any]]]:
    """The orders of ``objects`` sorted by :func:`_shape`: only objects of one shape are permuted among themselves
    (the product of their groups' permutations), so the orders tried are the same for any renaming."""
    from itertools import groupby, permutations, product

    ranked = sorted(objects, key=lambda obj: _shape(obj, names))
    groups = [list(g) for _, g in groupby(ranked, key=lambda obj: _shape(obj, names))]
    for parts in product(*(permutations(g) for g in groups)):
        yield [obj for part in parts for obj in part]


def canonical(document: dict[str, Any]) -> str:
    """One string for every scenario equal to ``document`` up to renaming its players, objects and abilities: the
    least (as JSON) of the renamed document over every order of its players and every order of its objects sorted
    by their shape (objects of one shape permuted among themselves; abilities named by their object's order). Two
    documents with the same canonical string play alike. Costs the players' count factorial times the product of
    the factorials of the shape groups' sizes (small bounds: a few players and objects)."""
    from itertools import permutations

    best = None
    names = _names(document)
    for player_order in permutations(document["players"]):
        for object_order in _orders(document["objects"], names):
            shuffled = {**document, "players": list(player_order), "objects": object_order}
            text = json.dumps(_renamed(shuffled, _names(shuffled)), sort_keys=True, separators=(",", ":"))
            if best is None or text < best:
                best = text
    return best
