"""MTG CR 603, permissive: the reference Game with the orders it settles by reading 603.3b and 704.3 left to an
oracle.

Branch points (``kind``; answer 0 is the reference engine's reading, for the scenario's edition):

* ``batch-order``: the order in which the waiting triggered abilities of one batch go on the stack (603.3b: APNAP,
  each player's own in their chosen order; in the 2026-02-27 edition, in two passes);
* ``sba-timing``: with triggered abilities waiting and a state-based action applicable, the abilities go on the
  stack first, or the state-based actions are performed first (704.3, 117.5);
* ``state-trigger-new-object``: a state trigger whose object changed zones (a new object, 400.7) while an instance
  of it waits: it may trigger again, or not (603.8 says only "the same" ability does not);
* ``from-anywhere-looks-back``: an ability about a card put into a zone "from anywhere" judged, for a permanent
  leaving the battlefield, on the game after the event (603.6c: not a leaves-the-battlefield ability) or before it
  (as 603.10a's look-back abilities are), asked where the two give different abilities;
* ``intervening-you``: "you" in an intervening "if" checked again on resolution (603.4) is the ability's
  controller as it triggered (603.3a), or its source's controller now, asked where its source changed control
  and the two answer differently;
* ``departed-waiting``: the abilities of a player who leaves the game that triggered and wait to go on the stack
  cease with the player, or still go on the stack (after every present player's); 800.4a speaks only of the
  objects on the stack;
* ``reading:<option>``: every documented reading of text CR 603 leaves open, decided once per play where it can
  matter (:class:`~reference_engine.common.permissive.Readings`): ``pass_two_membership`` when a batch holds an
  ability the two readings put in different passes, ``departed_delayed`` when a player leaves the game,
  ``leaves_intervening_if`` when an intervening "if" of an ability judged by looking back holds on one side of its
  event and not on the other, ``once_each_turn_taken`` when a "do this only once each turn" ability begins
  resolving, ``controller_off_battlefield`` when a "you control" / "an opponent controls" filter meets an object
  off the battlefield whose owner, last controller and no one give different answers.
"""

from __future__ import annotations

from typing import Any

from reference_engine.mtg.engines.reference import Game
from reference_engine.mtg.engines.rules import BATTLEFIELD, looks_back_at
from reference_engine.common.permissive import Oracle, Readings, permuted
from reference_engine.kernel.branching import choose

# The readings the reference engine can play for each option (reference_engine/mtg/judge/options.py).
READINGS = {
    "pass_two_membership": ("triggering-only", "triggering-or-stacking"),
    "departed_delayed": ("cease", "persist"),
    "leaves_intervening_if": ("look-back", "after-event"),
    "once_each_turn_taken": ("unless-declined", "on-resolution", "when-performed"),
    "controller_off_battlefield": ("owner", "last-known", "none"),
}


def _anywhere_looks_back(trigger: dict[str, Any], event: dict[str, Any]) -> bool:
    """:func:`looks_back_at`, except that an ability about a card put into a zone "from anywhere" (a ``to`` without a
    ``from``) looks back for a permanent leaving the battlefield too (the reading 603.6c rules out)."""
    if trigger["event"] in ("zone_change", "move") and "to" in trigger and "from" not in trigger and \
            event.get("from") == BATTLEFIELD and event.get("to") != BATTLEFIELD:
        return True
    return looks_back_at(trigger, event)


class PermissiveGame(Game):
    def __init__(self, scenario: dict[str, Any], chooser, oracle: Oracle):
        super().__init__(scenario, chooser)
        self.oracle = oracle
        self.options = Readings({name: values[0] for name, values in READINGS.items()} | dict(self.options), oracle,
                                READINGS, on_read=("departed_delayed", "leaves_intervening_if", "once_each_turn_taken",
                                                   "controller_off_battlefield"))
        self.catalog.options = self.options
        self._new_object: dict[str, bool] = {}  # waiting state trigger -> whether its new object triggers again

    def state_trigger_ready(self, key: tuple[str, str]) -> bool:
        if super().state_trigger_ready(key):
            return True
        # 603.8 keeps a state trigger from triggering again while an instance waits; 400.7 makes an object that
        # changed zones a new object: whether its ability is then "the same" state trigger the text does not say.
        waiting = self.live_state[key]
        seen = self.state_seen.get(waiting)
        source = key[0]
        if seen is None or seen.zones.get(source) == self.state.zones.get(source):
            return False
        if waiting not in self._new_object:  # asked once per waiting instance, not at every check of state
            self._new_object[waiting] = choose(
                self.oracle, "state-trigger-new-object", (False, True), f"state trigger {source}/{key[1]}: its "
                f"object changed zones while {waiting} waits: it triggers again, or not")
        return self._new_object[waiting]

    def triggered_by(self, group: list[dict[str, Any]], before):
        found = list(super().triggered_by(group, before))
        if not any(e.get("from") == BATTLEFIELD and e.get("to") != BATTLEFIELD for e in group):
            return found
        # 603.10a lists the abilities that look back; one about a card put into a graveyard "from anywhere" is not
        # a leaves-the-battlefield ability (603.6c), which a reader may miss: asked only where the readings differ.
        variant = list(self.catalog.triggered_abilities(group, before, self.state, look_back=_anywhere_looks_back,
                                                        condition_looks_back=self.condition_looks_back))
        if variant != found and choose(self.oracle, "from-anywhere-looks-back", (False, True), "abilities about a "
                                       "card put into a zone from anywhere, for a permanent leaving the battlefield: "
                                       "they look forward, or back in time"):
            return variant
        return found

    def intervening_if_holds_on_resolution(self, trigger: str) -> bool:
        held = super().intervening_if_holds_on_resolution(trigger)
        entry, condition = self.instances[trigger], self.specs[trigger].get("intervening_if")
        now = self.state.controllers.get(entry["source"])
        if condition is None or now in (None, entry["controller"]):
            return held
        # 603.4 checks the condition again on resolution; whether its "you" is still the ability's controller
        # (603.3a) or now its source's new controller, it does not say: asked where the two answer differently.
        other = self.catalog.holds(condition, self.state, entry["source"], now)
        if other != held and choose(self.oracle, "intervening-you", (False, True), f"the intervening 'if' of "
                                    f"{trigger} on resolution: 'you' is {entry['controller']}, its controller as it "
                                    f"triggered, or {now}, its source's controller now"):
            return other
        return held

    def before_priority(self) -> None:
        while True:
            dying, losing = self.catalog.applicable_sbas(self.state)
            if self.waiting and (dying or losing) and choose(
                    self.oracle, "sba-timing", (False, True), f"triggered abilities {', '.join(self.waiting)} on the "
                    "stack before the state-based actions, or after"):
                self.put_triggers_on_stack()
                continue
            if self.perform_state_based_actions():
                continue
            if not self.waiting:
                return
            self.put_triggers_on_stack()

    def put_triggers_on_stack(self) -> None:
        if self.two_pass and any(len({self.catalog.in_second_pass(self.specs[t], v)
                                      for v in READINGS["pass_two_membership"]}) > 1 for t in self.waiting):
            self.membership = self.options.decide("pass_two_membership", "an ability of this batch goes in the "
                                                  "first pass under one reading, the second under the other")
        waiting, self.waiting = self.waiting, []
        preferred: list[str] = []
        notes: dict[str, list[dict[str, Any]]] = {}  # first trigger of a player's group -> its choice entries
        for in_pass in self.passes():
            for player in self.apnap():
                mine = [t for t in waiting if self.instances[t]["controller"] == player and in_pass(t)]
                written = len(self.record.entries)
                ordered = self.push_order(player, mine)
                if ordered:
                    notes[ordered[0]] = self.record.entries[written:]
                    del self.record.entries[written:]
                preferred.extend(ordered)
        # Abilities of a player who left that were kept waiting (``departed-waiting``, answer 1) follow every present
        # player's: APNAP order (101.4) skips the departed.
        preferred.extend(t for t in waiting if t not in preferred)
        batch = permuted(self.oracle, "batch-order", f"order of the batch {', '.join(waiting)} going on the stack",
                         waiting, preferred)
        pending = dict(notes)
        for trigger in batch:
            # Each player's order choice is written where the reference writes it: before their first push.
            owner = next((first for first in pending if self.instances[first]["controller"]
                          == self.instances[trigger]["controller"]), None)
            if owner is not None and (owner == trigger or trigger in preferred[preferred.index(owner):]):
                self.record.entries.extend(pending.pop(owner))
            self.push(trigger)
        for entries in pending.values():
            self.record.entries.extend(entries)

    def cease(self, player: str) -> None:
        theirs = [t for t in self.waiting if self.instances[t]["controller"] == player]
        # 800.4a makes the departed player's objects on the stack cease to exist; of their abilities that triggered
        # and wait to go on the stack it says nothing.
        if theirs and choose(self.oracle, "departed-waiting", (False, True), f"{player} left the game with "
                             f"{', '.join(theirs)} waiting to go on the stack: they cease to exist, or still go there"):
            self.waiting = [t for t in self.waiting if t not in theirs]
            super().cease(player)
            self.waiting.extend(theirs)
            return
        super().cease(player)
