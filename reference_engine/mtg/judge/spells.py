"""What the judge reads of spells creating delayed triggered abilities (MTG 603.7a, 603.7d): each resolution of a
spell, who controlled it as it resolved, and the delayed abilities it created, against those its effect says.

A spell's resolution runs from its ``spell_resolve_begin`` to its ``spell_resolve_end``; its controller is the
player who cast it (405.4: nothing in the vocabulary changes a spell's controller on the stack), read from the
latest ``cast`` event of its card before it began resolving."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from reference_engine.kernel.traceview import TraceView, memoized


@dataclass(frozen=True)
class SpellResolution:
    """One resolution of spell ``card``: entries ``begin`` to ``end`` (``end`` None: never ended), its
    ``controller`` (None: no cast of it is in the trace), the abilities its effect creates (``wanted``) and those
    the trace shows it created then (``got``), by ability id."""

    card: str
    begin: int
    end: int | None
    controller: str | None
    wanted: Counter
    got: Counter


def _effect(view: TraceView, card: str) -> list[dict[str, Any]]:
    spell = (view.objects.get(card) or {}).get("spell") or {}
    return list(spell.get("effect") or ())


@memoized
def spell_resolutions(view: TraceView) -> list[SpellResolution]:
    """Every spell resolution of the trace, in order (603.7a, 603.7d)."""
    caster: dict[str, str] = {}
    open_at: dict[str, int] = {}
    out: list[SpellResolution] = []
    made: dict[str, list[str]] = {}
    kinds = ("event", "spell_resolve_begin", "delayed_create", "spell_resolve_end")
    for i in sorted(i for k in kinds for i in view.by_kind.get(k, ())):  # no pass of its own over the trace
        entry = view.entries[i]
        kind = entry["kind"]
        if kind == "event" and entry.get("type") == "cast" and "player" in entry:
            caster[entry["subject"]] = entry["player"]
        elif kind == "spell_resolve_begin":
            open_at[entry["spell"]] = i
            made[entry["spell"]] = []
        elif kind == "delayed_create" and "spell" in entry and entry["spell"] in open_at:
            made[entry["spell"]].append(entry["ability"])
        elif kind == "spell_resolve_end" and entry["spell"] in open_at:
            card = entry["spell"]
            out.append(_resolution(view, card, open_at.pop(card), i, caster.get(card), made.pop(card)))
    for card, begin in open_at.items():
        out.append(_resolution(view, card, begin, None, caster.get(card), made[card]))
    return out


def _resolution(view: TraceView, card: str, begin: int, end: int | None, controller: str | None,
                made: list[str]) -> SpellResolution:
    wanted = Counter(a["ability"]["id"] for a in _effect(view, card) if a.get("do") == "create_delayed")
    return SpellResolution(card, begin, end, controller, wanted, Counter(made))


def _resolving_then(view: TraceView, card: str, at: int) -> SpellResolution | None:
    """The resolution of spell ``card`` under way at entry ``at``, if any."""
    return next((r for r in spell_resolutions(view)
                 if r.card == card and r.begin < at and (r.end is None or at < r.end)), None)


def spell_creation_problems(view: TraceView) -> tuple[list[str], int]:
    """603.7a, 603.7d both ways (mtg.delayed-trigger): (problems, resolutions judged). Each resolving spell creates
    the delayed abilities its effect says, each as often, during its resolution; no delayed ability names a spell
    that was not resolving then, and a spell creates no reflexive one."""
    found: list[str] = []
    resolutions = spell_resolutions(view)
    for r in resolutions:
        for ability, n in sorted((r.wanted - r.got).items()):
            found.append(f"spell {r.card} resolved (entry {r.begin}) without creating its delayed triggered ability "
                         f"{ability} ({n} time(s) missing, 603.7a, 603.7d)")
        for ability, n in sorted((r.got - r.wanted).items()):
            found.append(f"spell {r.card} created delayed triggered ability {ability} {n} time(s) more than its "
                         f"effect says")
    for c in view.by_kind["delayed_create"]:
        entry = view.entries[c]
        if "spell" not in entry:
            continue
        if _resolving_then(view, entry["spell"], c) is None:
            found.append(f"delayed ability {entry['id']} names spell {entry['spell']}, which was not resolving at "
                         f"entry {c} (603.7a)")
        elif entry.get("reflexive"):
            found.append(f"delayed ability {entry['id']} is reflexive, but spell {entry['spell']}'s effect creates "
                         f"only delayed ones")
    return found, sum(1 for r in resolutions if r.wanted)


def spell_controller_problems(view: TraceView, entry: dict[str, Any], at: int) -> list[str]:
    """603.7d (mtg.delayed-controller): the source of delayed ability ``entry`` (created at entry ``at`` by a
    spell) is that spell, its controller the player who controlled the spell as it resolved."""
    found = []
    if entry["source"] != entry["spell"]:
        found.append(f"delayed ability {entry['id']} created by spell {entry['spell']} has source {entry['source']}; "
                     f"its source is that spell (603.7d)")
    resolution = _resolving_then(view, entry["spell"], at)
    controller = resolution.controller if resolution is not None else None
    if controller is not None and entry["controller"] != controller:
        found.append(f"delayed ability {entry['id']} created by spell {entry['spell']} has controller "
                     f"{entry['controller']}; its controller is {controller}, who controlled the spell as it resolved "
                     f"(603.7d)")
    return found
