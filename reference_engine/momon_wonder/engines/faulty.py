"""Momon Wonder 1.0.0 mutants: the reference engine (reference_engine/momon_wonder/engines/reference.py) with one fault each."""

from __future__ import annotations

from dataclasses import replace

from reference_engine.momon_wonder.engines.reference import EDITIONS, RULESET, Game, MomonWonderEngine
from reference_engine.common.faulty import Mutant, mutant


class LastInFirstOutGame(Game):
    """Resolves the Trigger Queue last in, first out (a stack), against 11.2.4."""

    def process_pending_work(self) -> None:
        while self.trigger_queue:
            kind, item = self.trigger_queue.pop()
            self.resolve(item) if kind == "trigger" else self.process_package(item)

    def process_package_queue(self, package) -> None:
        while package.queue:
            self.resolve(package.queue.pop())


class PackageBehindTriggersGame(Game):
    """Places every Summon package behind all ordinary triggers, whenever they occurred (11.2.4 forbids it)."""

    def process_pending_work(self) -> None:
        while self.trigger_queue:
            triggers = [entry for entry in self.trigger_queue if entry[0] == "trigger"]
            kind, item = triggers[0] if triggers else self.trigger_queue[0]
            self.trigger_queue.remove((kind, item))
            self.resolve(item) if kind == "trigger" else self.process_package(item)


class NestedPackageJoinsGame(Game):
    """A Summon during a package's processing does not defer its package: its triggers join the current processing
    queue as ordinary triggers (11.2.5 keeps nested packages deferred)."""

    def create_package(self, event, group) -> None:
        if self.package is not None:
            for trigger in self.order_group(group):
                self.enqueue(trigger)
            return
        super().create_package(event, group)


class NoStateBasedConditionsGame(Game):
    """Skips State-Based Conditions after a resolved ability (11.2.2 requires them after each one)."""

    def resolve(self, trigger_id: str) -> None:
        original = self.perform_state_based_conditions
        self.perform_state_based_conditions = lambda: None
        try:
            super().resolve(trigger_id)
        finally:
            self.perform_state_based_conditions = original


class InterruptingTriggerGame(Game):
    """Resolves a trigger the moment it triggers during a resolution, interrupting it (11.2.1)."""

    def resolve(self, trigger_id: str) -> None:
        self._resolving = getattr(self, "_resolving", 0) + 1
        try:
            super().resolve(trigger_id)
        finally:
            self._resolving -= 1

    def happen(self, type_, cause, **fields):
        event = super().happen(type_, cause, **fields)
        if getattr(self, "_resolving", 0) and type_ == "signal":
            _, group = self.waiting.pop()
            for trigger in group:
                self.record.add("enqueue", trigger=trigger, queue="main")
                self.resolve(trigger)
        return event


class DoubleEnqueueGame(Game):
    """Puts a trigger from a signal event into the queue twice (11.2.3 allows once per event)."""

    def happen(self, type_, cause, **fields):
        event = super().happen(type_, cause, **fields)
        if type_ == "signal":
            self.doubled = getattr(self, "doubled", set()) | set(self.waiting[-1][1])
        return event

    def enqueue(self, trigger: str, front: bool = False) -> None:
        super().enqueue(trigger, front)
        if trigger in getattr(self, "doubled", ()):
            super().enqueue(trigger, front)


class LazyStateBasedConditionsGame(Game):
    """Lazy State-Based Conditions: a mark for defeat is acted on only by the check after the next one, so the
    defeated monster's triggers come after those of the next ability (11.2.2; caught by mw.sbc-after-completion)."""

    def perform_state_based_conditions(self) -> None:
        fresh, self.marked_for_defeat = self.marked_for_defeat, getattr(self, "_held", [])
        self._held = fresh
        super().perform_state_based_conditions()


class NoStateBasedConditionsAfterSnatchGame(Game):
    """Skips the State-Based Conditions after a package's Snatch Check and goes straight to post-Snatch processing
    (11.2.2, 11.2.4; caught by mw.sbc-after-completion)."""

    def after_completion(self) -> None:
        if self.package is not None and self.package.phase == "snatch_check":
            self.place_waiting_groups()
            return
        super().after_completion()


class OnSummonCutShortGame(Game):
    """On Summon processing cut short: the Summon event's waiting triggers are left to the main Trigger Queue, so the
    package's On Summon processing is empty (11.2.3; caught by mw.summon-package)."""

    def current_queue(self):
        if self.package is not None and self.package.phase == "on_summon":
            return "main", self.trigger_queue
        return super().current_queue()


class OnSummonChainDeferredGame(Game):
    """Triggers of events that happen while the package's On Summon abilities resolve are left to the main Trigger
    Queue instead of its processing queue (11.2.5; caught by mw.package-processing-queue)."""

    def enqueue(self, trigger: str, front: bool = False) -> None:
        package = self.package
        if package is not None and package.phase == "on_summon" and trigger not in package.on_summon:
            self.trigger_queue.append(("trigger", trigger))
            self.record.add("enqueue", trigger=trigger, queue="main")
            return
        super().enqueue(trigger, front)


class SnatchCheckBeforeDrainGame(Game):
    """Runs the Snatch Check as soon as the package's own On Summon triggers have resolved; what they caused waits
    for post-Snatch processing (11.2.4 completes On Summon processing first; caught by mw.package-completes)."""

    def process_package_queue(self, package) -> None:
        if package.phase != "on_summon":
            return super().process_package_queue(package)
        for _ in range(min(len(package.on_summon), len(package.queue))):
            self.resolve(package.queue.popleft())


class SnatchCheckSkippedGame(Game):
    """Marks the Snatch Check's boundaries but never performs its actions (11.2.4; caught by mw.package-completes)."""

    def perform(self, effect, cause, source, player) -> None:
        if "snatch_check" in cause:
            return
        super().perform(effect, cause, source, player)


class PackageAtFrontGame(Game):
    """Puts a new Summon package at the front of the Trigger Queue, ahead of triggers from earlier events that are
    still waiting (11.2.4: it keeps its Summon event's position; caught by mw.package-position)."""

    def create_package(self, event, group) -> None:
        before = len(self.trigger_queue)
        super().create_package(event, group)
        for k, (kind, item) in enumerate(list(self.trigger_queue)[before:]):
            if kind == "package":
                del self.trigger_queue[before + k]
                self.trigger_queue.appendleft((kind, item))
                break


class PackageDuringResolutionGame(Game):
    """Processes a Summon's package the moment the Summon happens, in the middle of the ability that summoned (even
    inside another package's processing), instead of after it (11.2.4: no package interrupts a resolving ability;
    caught by mw.no-package-interrupts)."""

    def summon(self, action, cause, player) -> None:
        waiting = len(self.waiting)
        super().summon(action, cause, player)
        if "resolution" not in cause or len(self.waiting) == waiting:
            return
        event, group = self.waiting[-1]
        if event is None or event["type"] != "summon":
            return
        self.waiting.pop()
        outer, self.package = self.package, None
        self.create_package(event, group)
        entry = next(e for e in reversed(self.trigger_queue) if e[0] == "package")
        self.trigger_queue.remove(entry)
        self.process_package(entry[1])
        self.package = outer


class DeferredGroupsJoinGame(Game):
    """When a package opens, moves the ordinary triggers waiting behind it in the Trigger Queue into its processing
    queue (11.2.5: deferred groups do not join it; caught by mw.deferred-groups-stay-out)."""

    def process_package(self, package) -> None:
        self._joining = [item for kind, item in self.trigger_queue if kind == "trigger"]
        for item in self._joining:
            self.trigger_queue.remove(("trigger", item))
        super().process_package(package)

    def process_package_queue(self, package) -> None:
        if package.phase == "on_summon" and getattr(self, "_joining", None):
            package.queue.extend(self._joining)
            self._joining = []
        super().process_package_queue(package)


class RemedyAlwaysFrontGame(Game):
    """Puts a trigger restored by the Missed Trigger Remedy at the front of the queue in casual play too (the front
    placement is a sanctioned-play exception, 11.2.4; caught by mw.remedy-front)."""

    def restore_missed_trigger(self, source: str, ability: str) -> None:
        self.options = {**self.options, "sanctioned_play": True}
        try:
            super().restore_missed_trigger(source, ability)
        finally:
            self.options = {**self.options, "sanctioned_play": self.scenario["options"]["sanctioned_play"]}


class RemedyNeverFrontGame(Game):
    """Appends a restored trigger even in sanctioned play, where the Missed Trigger Remedy puts it at the front
    (11.2.4; run with sanctioned_play=true; caught by mw.remedy-front)."""

    def restore_missed_trigger(self, source: str, ability: str) -> None:
        self.options = {**self.options, "sanctioned_play": False}
        try:
            super().restore_missed_trigger(source, ability)
        finally:
            self.options = {**self.options, "sanctioned_play": self.scenario["options"]["sanctioned_play"]}


class OptionalAskedOnTriggerGame(Game):
    """Asks whether to use an optional trigger as it triggers, and drops a declined one before it is queued,
    although the option in force says the choice is made as it would resolve (caught by mw.removal-reason)."""

    def collect_triggers(self, occurrences):
        self.options = {**self.options, "optional_choice": "on-trigger"}
        try:
            return super().collect_triggers(occurrences)
        finally:
            self.options = {**self.options, "optional_choice": self.scenario["options"]["optional_choice"]}


class InterveningNotRecheckedGame(Game):
    """Checks an intervening condition only when the event occurs, never again on resolution, although the option
    in force says it is checked again (caught by mw.removal-reason)."""

    def resolve(self, trigger_id: str) -> None:
        self.options = {**self.options, "intervening_recheck": False}
        try:
            super().resolve(trigger_id)
        finally:
            self.options = {**self.options, "intervening_recheck": self.scenario["options"]["intervening_recheck"]}


class SameEventReversedGame(Game):
    """Orders one event's triggers from the last player in turn order back to the active player: the non-active
    players' triggers first (Section 11.3 as option same_event_order reads it; caught by mw.same-event-order)."""

    def players_from_active(self) -> list[str]:
        return list(reversed(super().players_from_active()))


class SbcDefeatsReversedGame(Game):
    """Defeats the objects of one State-Based Conditions pass last marked first, whatever option sbc_defeat_order
    says (the 'defeated' events, and so their trigger groups, come in the wrong order; caught by
    mw.sbc-defeat-order)."""

    def defeat_order(self, marked: list[str]) -> list[str]:
        return list(reversed(super().defeat_order(marked)))


class RecollectOnOpenGame(Game):
    """Collects the Summon event's triggers a second time when its package opens, so each triggers twice for one
    event (11.2.3: once per event; caught by mw.once-per-event)."""

    def process_package(self, package) -> None:
        again = []
        for source, ability in self.record.zones.satisfied_abilities(package.event, self.scenario, {}):
            again.append(self.new_trigger(source, ability["id"], package.event["id"])["id"])
        package.on_summon = package.on_summon + self.order_group(again)
        super().process_package(package)


class AdvanceWithPackagePendingGame(Game):
    """After a step's last action, resolves the triggers waiting in the Trigger Queue but leaves pending Summon
    packages for later, and advances the step (11.2.6; caught by mw.empty-before-advance)."""

    def play(self):
        for step_index, step in enumerate(self.scenario["script"]):
            self.record.add("step_begin", step=step_index)
            for action_index, action in enumerate(step["actions"]):
                ref = [step_index, action_index]
                self.record.add("action_begin", action=ref)
                self.perform(action["effect"], cause={"action": ref}, source=None, player=action["by"])
                self.record.add("action_end", action=ref)
                self.after_completion()
                if action_index < len(step["actions"]) - 1:
                    self.process_pending_work()
                else:
                    packages = [entry for entry in self.trigger_queue if entry[0] == "package"]
                    for entry in packages:
                        self.trigger_queue.remove(entry)
                    self.process_pending_work()
                    self.trigger_queue.extend(packages)
            self.record.add("step_advance", **{"from": step_index})
        self.process_pending_work()
        return self.record.trace()


class DefeatNoLookBackGame(Game):
    """Judges whether a defeated monster's own abilities trigger on the state after the defeat, when it is no longer
    in play, instead of looking back (so "when defeated" never triggers; caught by mw.triggers-when-satisfied)."""

    def happen(self, type_, cause, **fields):
        if type_ != "defeated":
            return super().happen(type_, cause, **fields)
        event, _ = self.record.event(type_, cause, **fields)
        self.waiting.append((event, self.collect_triggers([(event, {})])))  # forgets where it came from
        return event


class LateDefeatTriggersGame(Game):
    """Performs State-Based Conditions on time but collects the triggers of the defeats they cause only after the
    next ability has resolved (11.2.3: collected once the work is complete; caught by mw.collect-every-trigger)."""

    def perform_state_based_conditions(self) -> None:
        held, self._held = getattr(self, "_held", []), []
        waiting = len(self.waiting)
        super().perform_state_based_conditions()
        self._held = self.waiting[waiting:]
        del self.waiting[waiting:]
        self.waiting.extend(held)


class SnatchTriggersDeferredGame(Game):
    """Sends the triggers of the Snatch Check's events to the back of the Trigger Queue, although the option in
    force (snatch_check_triggers=post-snatch) processes them in the package's post-Snatch processing (11.2.5; caught
    by mw.package-processing-queue)."""

    def current_queue(self):
        if self.package is not None and self.package.phase == "snatch_check":
            return "main", self.trigger_queue
        return super().current_queue()


class FailedSummonPackageGame(Game):
    """Creates a package for an Effect-Based Summon that failed, as if it had succeeded (11.2.3: only a successful
    one creates a package; caught by mw.summon-package)."""

    def happen(self, type_, cause, **fields):
        event = super().happen(type_, cause, **fields)
        if type_ == "summon_failed":
            self.waiting[-1] = ({**event, "type": "summon"}, self.waiting[-1][1])
        return event


class GroupsNewestFirstGame(Game):
    """Places the trigger groups gathered during one action or ability newest event first (11.2.3, 11.2.5: each
    keeps its event's chronological position; caught by mw.group-position)."""

    def place_waiting_groups(self) -> None:
        self.waiting.reverse()
        super().place_waiting_groups()


class StateBasedConditionsMidResolutionGame(Game):
    """Performs State-Based Conditions after every single action of an ability's effect, inside its resolution
    (11.2.2: once the ability has finished; caught by mw.no-interruption)."""

    def perform(self, effect, cause, source, player) -> None:
        if "resolution" not in cause or len(effect) < 2:
            return super().perform(effect, cause, source, player)
        for action in effect:
            super().perform([action], cause, source, player)
            if action is not effect[-1]:
                self.perform_state_based_conditions()


class SummonOneByOneGame(Game):
    """Summons the monsters of one Effect-Based Summon one after another, each its own Summon event with its own
    package (11.2.3: one successful Summon, one event, one package; caught by mw.summon-package)."""

    def happen_together(self, type_, cause, subjects, player):
        first = None
        for subject in subjects:
            event = self.happen(type_, cause, subject=subject, player=player, **{"from": self.zones[subject],
                                                                                 "to": "field"})
            first = first or event
            if event is not first:  # each later monster's event is a Summon of its own, without a Snatch Check
                self.summoned[event["id"]] = [subject]
        return first


class GroupJudgedInTurnGame(Game):
    """Judges the abilities of a Summon of several monsters occurrence by occurrence, each on the state right after
    its own monster arrived, so a monster summoned first does not see the later ones (caught by
    mw.triggers-when-satisfied)."""

    def happen_together(self, type_, cause, subjects, player):
        occurrences, triggered, seen = [], [], set()
        for subject in subjects:
            fields = {"subject": subject, "player": player, "from": self.zones[subject], "to": "field"}
            if occurrences:
                fields["group"] = occurrences[0]["id"]
            event, before = self.record.event(type_, cause, **fields)
            occurrences.append(event)
            for trigger in self.collect_triggers([(event, before)]):
                key = (self.instances[trigger]["source"], self.instances[trigger]["ability"])
                if key not in seen:
                    seen.add(key)
                    triggered.append(trigger)
        if len(occurrences) > 1:
            occurrences[0]["group"] = occurrences[0]["id"]
        self.waiting.append((occurrences[0], triggered))
        return occurrences[0]


class TriggerPerOccurrenceGame(Game):
    """Triggers an ability once for each monster of a Summon of several monsters that satisfies it, instead of once
    for the one event (11.2.3; caught by mw.once-per-event)."""

    def collect_triggers(self, occurrences):
        triggered = []
        for occurrence in occurrences:
            triggered += super().collect_triggers([occurrence])
        return triggered


class ScriptedFailedSummonSilentGame(Game):
    """A scripted Effect-Based Summon that fails causes no event, though failed_summon_event=ordinary-event makes
    it one (only the failed Summons of abilities' effects are events; caught by mw.resolve-completely)."""

    def summon(self, action, cause, player):
        if "action" in cause and not (action["succeeds"] and self.summonable(action)):
            return
        super().summon(action, cause, player)


class LastStepUnplayedGame(Game):
    """The script's last step is never played (an off-by-one in the step loop); caught by mw.resolve-completely,
    which asks for the script played as written."""

    def play(self):
        self.scenario = {**self.scenario, "script": self.scenario["script"][:-1]}
        return super().play()


def _mutant(name: str, game: type[Game], key: str, **options) -> Mutant:
    found = mutant(name, MomonWonderEngine, game, key, RULESET, EDITIONS)
    return replace(found, options=tuple(options.items())) if options else found


MUTANTS = (
    _mutant("mw-lifo", LastInFirstOutGame, "mw.queue-fifo"),
    _mutant("mw-package-behind-triggers", PackageBehindTriggersGame, "mw.package-position"),
    _mutant("mw-nested-package-joins", NestedPackageJoinsGame, "mw.nested-package-deferred"),
    _mutant("mw-no-sbc-after-ability", NoStateBasedConditionsGame, "mw.sbc-after-completion"),
    _mutant("mw-trigger-interrupts", InterruptingTriggerGame, "mw.no-interruption"),
    _mutant("mw-double-enqueue", DoubleEnqueueGame, "mw.once-per-event"),
    _mutant("mw-lazy-sbc", LazyStateBasedConditionsGame, "mw.sbc-after-completion"),
    _mutant("mw-no-sbc-after-snatch", NoStateBasedConditionsAfterSnatchGame, "mw.sbc-after-completion"),
    _mutant("mw-on-summon-cut-short", OnSummonCutShortGame, "mw.summon-package"),
    _mutant("mw-on-summon-chain-deferred", OnSummonChainDeferredGame, "mw.package-processing-queue"),
    _mutant("mw-snatch-before-drain", SnatchCheckBeforeDrainGame, "mw.package-completes"),
    _mutant("mw-snatch-check-skipped", SnatchCheckSkippedGame, "mw.package-completes"),
    _mutant("mw-package-at-front", PackageAtFrontGame, "mw.package-position"),
    _mutant("mw-package-during-resolution", PackageDuringResolutionGame, "mw.no-package-interrupts"),
    _mutant("mw-deferred-groups-join", DeferredGroupsJoinGame, "mw.deferred-groups-stay-out"),
    _mutant("mw-remedy-front-casual", RemedyAlwaysFrontGame, "mw.remedy-front"),
    _mutant("mw-remedy-back-sanctioned", RemedyNeverFrontGame, "mw.remedy-front", sanctioned_play=True),
    _mutant("mw-optional-asked-on-trigger", OptionalAskedOnTriggerGame, "mw.removal-reason"),
    _mutant("mw-intervening-not-rechecked", InterveningNotRecheckedGame, "mw.removal-reason"),
    _mutant("mw-same-event-reversed", SameEventReversedGame, "mw.same-event-order"),
    _mutant("mw-sbc-defeats-reversed", SbcDefeatsReversedGame, "mw.sbc-defeat-order"),
    _mutant("mw-recollect-on-open", RecollectOnOpenGame, "mw.once-per-event"),
    _mutant("mw-advance-with-package-pending", AdvanceWithPackagePendingGame, "mw.empty-before-advance"),
    _mutant("mw-defeat-no-look-back", DefeatNoLookBackGame, "mw.triggers-when-satisfied"),
    _mutant("mw-late-defeat-triggers", LateDefeatTriggersGame, "mw.collect-every-trigger"),
    _mutant("mw-snatch-triggers-deferred", SnatchTriggersDeferredGame, "mw.package-processing-queue"),
    _mutant("mw-failed-summon-package", FailedSummonPackageGame, "mw.summon-package"),
    _mutant("mw-groups-newest-first", GroupsNewestFirstGame, "mw.group-position"),
    _mutant("mw-sbc-mid-resolution", StateBasedConditionsMidResolutionGame, "mw.no-interruption"),
    _mutant("mw-summon-one-by-one", SummonOneByOneGame, "mw.summon-package"),
    _mutant("mw-group-judged-in-turn", GroupJudgedInTurnGame, "mw.triggers-when-satisfied"),
    _mutant("mw-trigger-per-occurrence", TriggerPerOccurrenceGame, "mw.once-per-event"),
    _mutant("mw-scripted-failed-summon-silent", ScriptedFailedSummonSilentGame, "mw.resolve-completely"),
    _mutant("mw-last-step-unplayed", LastStepUnplayedGame, "mw.resolve-completely"),
)
