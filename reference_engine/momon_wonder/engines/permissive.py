"""Momon Wonder 1.0.0, permissive: the reference Game with every order it settles by reading 11.2 left to an oracle.

Branch points (``kind``; answer 0 is the reference engine's reading):

* ``group-order``: the order in which one event's trigger group enters its queue (11.2.3, Section 11.3);
* ``group-placement``: the order in which the waiting groups of one completion are placed (11.2.3, 11.2.5);
* ``sbc-after-action``: whether State-Based Conditions follow a player's action (a scripted action: 11.2.2 names
  only a turn-based action or an Ability) before its triggers are placed, asked where it can matter (an object
  marked for defeat); answer 1 leaves the marks to the next check;
* ``sbc-timing``: State-Based Conditions before the waiting groups are placed, or after them (11.2.2), when an
  object is marked for defeat;
* ``leaves-looks-back``: whether the abilities of an object leaving play in an event see that event (11.2.1 says
  only that an event satisfying an ability's condition triggers it), where it matters;
* ``group-position``: a trigger group placed after the work already pending in its queue, or ahead of it (11.2.5)
  (not a restored trigger's own group: ``remedy-placement`` places it);
* ``sbc-defeat-order``: the order of the defeat events of several objects defeated by one State-Based Conditions
  pass (11.2.2, 11.2.5: their groups keep "chronological order", and the text gives the events none; option
  ``sbc_defeat_order`` names the readings, and answer 0 is the order it gives);
* ``queue-next``: which item of the Trigger Queue, or of a package's processing queue, is taken next (11.2.4);
* ``remedy-placement``: a trigger restored by the Missed Trigger Remedy appended, or put at the front (11.2.4), asked
  as bookkeeping (``choose(..., bookkeeping=True)``) where no other work would be ahead of it if appended (pending
  in its queue, or an earlier group waiting to be placed): there the front and the end of its queue are one place;
* ``reading:<option>``: every documented reading of the text 11.2 leaves silent, decided once per play where it
  can matter (:class:`~reference_engine.common.permissive.Readings`): ``package_contents`` when a package is
  created, ``snatch_check_triggers`` when a trigger arises during a Snatch Check (as bookkeeping with nothing in
  the Trigger Queue for it to wait behind), ``failed_summon_event`` when a
  Summon fails, ``optional_choice`` when an optional ability triggers or resolves (only in a play where a player may
  decline one: an ability used either way resolves at the same place), ``sbc_events`` when a marked
  object is still in play at a State-Based Conditions check, ``intervening_recheck`` when an ability resolves
  whose intervening condition no longer holds. (``same_event_order``, ``sanctioned_play`` and ``sbc_defeat_order``
  are covered by the more general ``group-order``, ``remedy-placement`` and ``sbc-defeat-order``.)
"""

from __future__ import annotations

from typing import Any

from reference_engine.common.vocabulary import IN_PLAY, LEAVING_EVENTS, condition_holds
from reference_engine.momon_wonder.engines.reference import Game
from reference_engine.common.permissive import Oracle, Readings, permuted
from reference_engine.kernel.branching import choose
from reference_engine.kernel.choices import ScenarioChooser

# The readings the reference engine can play for each option whose text is silent (reference_engine/<ruleset>/judge/
# momon_wonder/options.py names them; tests/test_editors_analysis.py checks that they agree).
READINGS = {
    "package_contents": ("all-summon-event-triggers", "summoned-object-triggers"),
    "snatch_check_triggers": ("post-snatch", "deferred"),
    "failed_summon_event": ("ordinary-event", "no-event"),
    "optional_choice": ("on-resolution", "on-trigger"),
    "sbc_events": (True, False),
    "intervening_recheck": (True, False),
}


class PermissiveGame(Game):
    # The general branch kinds that stand for an option with no ``reading:`` branch of its own (the editors' diff aims
    # its scenarios at them).
    option_branches = {"same_event_order": ("group-order",), "sanctioned_play": ("remedy-placement",),
                       "sbc_defeat_order": ("sbc-defeat-order",)}

    def __init__(self, scenario: dict[str, Any], chooser, oracle: Oracle):
        super().__init__(scenario, chooser)
        self.oracle = oracle
        self.options = Readings(self.options, oracle, READINGS, on_read=(
            "package_contents", "snatch_check_triggers", "failed_summon_event", "optional_choice"))
        if not self._may_decline():
            # Every optional ability is used: asked as it triggers or as it resolves, it resolves at the same place
            # (the choice itself is no outcome), so the reading of optional_choice cannot matter in this play.
            self.options.decided.add("optional_choice")
        self._placing = False
        self._ahead: list[str] = []  # triggers of the group being placed ahead of pending work
        self._ahead_placed = 0

    def _may_decline(self) -> bool:
        """Whether a player may decline an optional ability in this play: with the scenario's answers, only where
        they decline one; a chooser that branches on the players' answers may decline any."""
        if not isinstance(self.chooser, ScenarioChooser):
            return True
        optional = {ab["id"] for obj in self.scenario["objects"] for ab in obj.get("abilities", ()) if ab.get("optional")}
        return any(not self.chooser.optional(None, {"ability": ability}) for ability in optional)

    def collect_triggers(self, occurrences):
        judged = []
        for event, before in occurrences:
            subject = event.get("subject")
            if before and event["type"] in LEAVING_EVENTS:
                back = set(self._satisfied(event, before))
                if back != set(self._satisfied(event, {})) and not choose(
                        self.oracle, "leaves-looks-back", (True, False), f"abilities of {subject}, which leaves in "
                        f"{event['id']}: they see that event (look back), or not"):
                    before = {}
            judged.append((event, before))
        return super().collect_triggers(judged)

    def _satisfied(self, event, before):
        return ((source, ability["id"]) for source, ability
                in self.record.zones.satisfied_abilities(event, self.scenario, before))

    def order_group(self, group: list[str]) -> list[str]:
        preferred = super().order_group(group)
        names = ", ".join(group)
        ordered = permuted(self.oracle, "group-order", f"order of one event's trigger group {names}", group, preferred)
        if self._placing and ordered and not self._restored(ordered) and self.current_queue()[1] and choose(
                self.oracle, "group-position", (False, True), f"trigger group {names} after the pending work, or "
                "ahead of it"):
            self._ahead, self._ahead_placed = list(ordered), 0
        return ordered

    def current_queue(self):
        package = self.package
        if package is not None and package.phase == "snatch_check" and "snatch_check_triggers" not in \
                self.options.decided:
            # Its triggers resolve in post-Snatch processing, or after the work in the Trigger Queue: with nothing
            # there, both resolve them next, and only what they cause may part, seldom (a package it creates goes to
            # the Trigger Queue either way): asked as bookkeeping, which the aimed sample does not count as met.
            self.options.decide("snatch_check_triggers", "a trigger arises during a Snatch Check",
                                bookkeeping=not self.trigger_queue)
        return super().current_queue()

    def _restored(self, group: list[str]) -> bool:
        """A restored trigger's own group: where it goes is remedy-placement's question, not group-position's."""
        return all(self.instances[t].get("remedy") for t in group)

    def enqueue(self, trigger: str, front: bool = False) -> None:
        if trigger not in self._ahead or front:
            super().enqueue(trigger, front)
            return
        name, queue = self.current_queue()
        queue.insert(self._ahead_placed, trigger if queue is not self.trigger_queue else ("trigger", trigger))
        self._ahead_placed += 1
        self.record.add("enqueue", trigger=trigger, queue=name, placement="front")

    def place_waiting_groups(self) -> None:
        self._placing = True
        try:
            self._place_waiting_groups()
        finally:
            self._placing, self._ahead = False, []

    def _place_waiting_groups(self) -> None:
        if len(self.waiting) > 1:
            labels = [event["id"] if event else "remedy" for event, _ in self.waiting]
            order = permuted(self.oracle, "group-placement", f"placement order of the groups of {', '.join(labels)}",
                             list(range(len(self.waiting))))
            self.waiting = [self.waiting[k] for k in order]
        super().place_waiting_groups()

    def after_completion(self) -> None:
        if self.marked_for_defeat and self.record.entries[-1]["kind"] == "action_end" and not choose(
                self.oracle, "sbc-after-action", (True, False), f"State-Based Conditions after a player's action "
                f"(not a turn-based action, not an Ability) with {', '.join(self.marked_for_defeat)} marked for "
                "defeat: performed before its triggers are placed, or not (the marks wait for the next check)"):
            self.place_waiting_groups()
            return
        if self.marked_for_defeat and choose(
                self.oracle, "sbc-timing", (False, True), f"State-Based Conditions for "
                f"{', '.join(self.marked_for_defeat)} before or after placing the waiting groups"):
            self.place_waiting_groups()
            self.perform_state_based_conditions()
            self.place_waiting_groups()
            return
        super().after_completion()

    def _take(self, queue, name: str):
        k = 0
        if len(queue) > 1:
            k = choose(self.oracle, "queue-next", range(len(queue)), f"which of the {len(queue)} items of {name} "
                       "goes next")
        item = queue[k]
        del queue[k]
        return item

    def process_pending_work(self) -> None:
        while self.trigger_queue:
            kind, item = self._take(self.trigger_queue, "the Trigger Queue")
            if kind == "trigger":
                self.resolve(item)
            else:
                self.process_package(item)

    def process_package_queue(self, package) -> None:
        while package.queue:
            self.resolve(self._take(package.queue, f"the processing queue of {package.id}"))

    def restore_missed_trigger(self, source: str, ability: str) -> None:
        before = len(self.waiting), len(self.restored_for_front)
        ahead = self._work_ahead(before[0])
        super().restore_missed_trigger(source, ability)
        after = len(self.waiting), len(self.restored_for_front)
        if before == after:
            return  # declined at once
        front = after[1] > before[1]
        # With nothing ahead of it, the front of its queue is its end: the answer is bookkeeping no player sees.
        if choose(self.oracle, "remedy-placement", (False, True), f"restored trigger of {source}/{ability}: "
                  f"{'front' if front else 'appended'} or {'appended' if front else 'front'}", bookkeeping=not ahead):
            if front:
                trigger = self.restored_for_front.pop()
                self.waiting.append((None, [trigger]))
            else:
                _, [trigger] = self.waiting.pop()
                self.restored_for_front.append(trigger)

    def _work_ahead(self, earlier: int) -> bool:
        """Whether anything would be ahead of a trigger restored now if it were appended: a trigger or package
        pending in the queue it enters, one of the ``earlier`` waiting groups (placed before it), or a trigger restored
        for the front. Otherwise the front and the end of its queue are one place, and the reading of sanctioned_play
        cannot matter (a group of a later event is placed after it either way)."""
        if self.restored_for_front or any(group or (event is not None and event["type"] == "summon")
                                          for event, group in self.waiting[:earlier]):
            return True
        package = self.package
        if package is not None and package.phase == "snatch_check" and \
                "snatch_check_triggers" not in self.options.decided:
            return bool(package.queue or self.trigger_queue)  # either queue: the reading is not asked from here
        return bool(self.current_queue()[1])

    def perform_state_based_conditions(self) -> None:
        marked = [obj for obj in self.marked_for_defeat if self.zones.get(obj) == IN_PLAY]
        if marked:
            self.options.decide("sbc_events", f"{', '.join(marked)} marked for defeat")
        super().perform_state_based_conditions()

    def defeat_order(self, marked: list[str]) -> list[str]:
        preferred = super().defeat_order(marked)
        if len(marked) < 2:
            return preferred
        # Several objects defeated by one pass: 11.2.5's "chronological order" gives their events none.
        return permuted(self.oracle, "sbc-defeat-order", f"order of the defeats of {', '.join(marked)} in one "
                        "State-Based Conditions pass", marked, preferred)

    def resolve(self, trigger_id: str) -> None:
        trigger = self.instances[trigger_id]
        ability = next(a for a in self.objects[trigger["source"]]["abilities"] if a["id"] == trigger["ability"])
        if ability.get("intervening_if") and not condition_holds(ability["intervening_if"], self.zones,
                                                                 trigger["source"]):
            self.options.decide("intervening_recheck", f"the condition of {trigger_id} no longer holds")
        super().resolve(trigger_id)
