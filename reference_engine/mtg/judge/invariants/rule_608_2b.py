"""MTG 608.2b with 405.1, 405.5 and 608.2 (issue 12, item 1g): spells as objects on the stack. A card cast (a
``cast`` event, from a hand to the stack) is the topmost object of the stack; abilities triggering on its casting go
on above it and resolve first. A spell resolves only when it is the top object and every player has passed
priority; if its target is no longer legal it does not resolve (``spell_removed``, reason ``illegal_target``) and
goes to its owner's graveyard, and otherwise it does what its effect says, in order, then goes to its owner's
graveyard (a permanent spell onto the battlefield). A countered spell (a ``countered`` event) leaves the stack for
its owner's graveyard and never resolves. A step ends only with no spell left on the stack.

The judge keeps its own stack of trigger instances and spells, from the trace's pushes, casts and departures."""

from __future__ import annotations

from typing import Any

from reference_engine.kernel.invariant import invariant
from reference_engine.kernel.traceview import TraceView, streamed
from reference_engine.mtg.judge.invariants.rule_608_2 import _actual_groups, _compare, _zone_change, expected_groups
from reference_engine.mtg.judge.model import FIELD
from reference_engine.mtg.judge.observations import PASSES, catalog, ended_before, replay

STACK = "stack"


def _spell(view: TraceView, card: str) -> dict[str, Any] | None:
    return (catalog(view).objects.get(card) or {}).get("spell")


def _final_group(board, card: str, spell: dict[str, Any], groups: list[list[dict[str, Any]]]) -> list[dict]:
    """The spell's last step (608.2n as modelled): to its owner's graveyard, or onto the battlefield if a permanent
    spell, unless its own effect already moved it off the stack."""
    after = board.clone()
    for group in groups:
        for event in group:
            after.step(event)
    if after.where.get(card) != STACK:
        return []
    return [_zone_change(after, card, FIELD if spell.get("permanent") else "graveyard")]


@streamed("stack_push", "resolve_end", "removed", "resolve_begin", "event", "spell_resolve_begin", "spell_removed",
          "step_advance")
def _spells(view: TraceView):
    """(violations, spells judged): the judge's own stack of trigger instances and spells, walked in the shared pass
    (streamed)."""
    found: list[str] = []
    judged = 0
    stack: list[tuple[str, str]] = []  # ("trigger", id) or ("spell", card), bottom first
    cast: dict[str, dict[str, Any]] = {}  # card -> its cast event

    def see(i: int, entry: dict[str, Any]) -> None:
        nonlocal judged, found
        kind = entry["kind"]
        if kind == "stack_push":
            stack.append(("trigger", entry["trigger"]))
        elif kind in ("resolve_end", "removed"):
            if ("trigger", entry["trigger"]) in stack:
                stack.remove(("trigger", entry["trigger"]))
        elif kind == "resolve_begin":
            mine = ("trigger", entry["trigger"])
            if mine in stack and any(k == "spell" for k, _ in stack[stack.index(mine) + 1:]):
                above = [c for k, c in stack[stack.index(mine) + 1:] if k == "spell"]
                found.append(f"trigger {entry['trigger']} started resolving at entry {i} under spell(s) {above} put "
                             "on the stack after it (405.5: last in, first out)")
        elif kind == "event":
            card = entry.get("subject")
            if entry["type"] == "cast":
                stack.append(("spell", card))
                cast[card] = entry
            elif entry.get("from") == STACK and ("spell", card) in stack:
                stack.remove(("spell", card))
        elif kind in ("spell_resolve_begin", "spell_removed"):
            card = entry["spell"]
            judged += 1
            if ("spell", card) not in stack:
                found.append(f"spell {card} started resolving at entry {i} but was not on the stack")
                return
            if stack[-1] != ("spell", card):
                found.append(f"spell {card} started resolving at entry {i} but was not on top ({stack[-1][1]} was)")
            if i == 0 or view.entries[i - 1]["kind"] != "priority":
                found.append(f"spell {card} started resolving at entry {i} without every player having passed "
                             "priority")
            spell, board = _spell(view, card), replay(view).at.get(i)
            if spell is None or board is None:
                return
            target = cast[card].get("target")
            legal = "target" not in spell or catalog(view).target_is_legal(spell, target, board)
            if kind == "spell_resolve_begin" and not legal:
                found.append(f"spell {card} resolved at entry {i} although its target {target} was no longer legal "
                             "(608.2b: it does not resolve)")
            elif kind == "spell_removed" and legal:
                found.append(f"spell {card} was removed at entry {i} for an illegal target, but its target "
                             f"{target} was legal")
            if kind == "spell_resolve_begin":
                zone = (spell.get("target") or {}).get("zone", FIELD) if "target" in spell else None
                want = expected_groups(catalog(view), board, spell.get("effect") or [], card, cast[card].get("player"),
                                       target, zone)
                if want is not None:
                    want = want + [_final_group(board, card, spell, want)]
                    want = [g for g in want if g]
                    found += _compare(f"spell {card} resolved (entry {i})", want,
                                      _actual_groups(view, "spell", card))
            else:
                found += _compare(f"spell {card} removed for an illegal target (entry {i})",
                                  [[_zone_change(board, card, "graveyard")]], _actual_groups(view, "spell", card))
        elif kind == "step_advance":
            left = [c for k, c in stack if k == "spell"]
            if left and not ended_before(view, i):
                found.append(f"the step ended at entry {i} with spell(s) {left} still on the stack")

    return see, lambda: (found, judged)


@invariant(
    passes=PASSES + (_spells,),
    key="mtg.spell-resolution",
    ruleset="mtg",
    rules={"2026-02-27": "608.2b", "2021-02-24": "608.2b"},
    summary="A spell cast goes on top of the stack and resolves only as its top object, after the abilities that "
    "triggered on its casting; with an illegal target it does not resolve and goes to the graveyard; otherwise it "
    "does what its effect says, then goes to the graveyard (a permanent onto the battlefield); a countered spell "
    "never resolves.",
    exercised=lambda view: _spells(view)[1],
)
def spell_resolution(view: TraceView) -> list[str]:
    return list(_spells(view)[0])
