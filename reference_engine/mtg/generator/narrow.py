"""Narrower shapes: what the builder makes instead of a default shape when a profile excludes one of the finer
features of :data:`~reference_engine.mtg.generator.features.PROFILE_ONLY_FEATURES` (``optional_for_others``,
``hand_control_changes``, ``stray_targets``, ``scripted_delayed_triggers``)."""

from __future__ import annotations

from typing import Any


class NarrowShapes:
    """Narrower shapes of a :class:`~reference_engine.mtg.generator.builder.Builder` (a mixin)."""

    def about_others(self, obj: dict[str, Any], effect: list[dict[str, Any]]) -> bool:
        """Whether ``effect`` begins with an instruction about a player other than ``obj``'s owner (a card put from
        their hand, their life): "you may ..." cannot say it ("optional_for_others")."""
        first = effect[0] if effect else {}
        if first.get("do") == "move" and first.get("from") == "hand":
            return any(o["id"] == first["object"] and o["owner"] != obj["owner"] for o in self.objects)
        return first.get("do") == "life" and "player" in first and first["player"] != obj["owner"]

    def names_controller(self, obj: dict[str, Any]) -> bool:
        """Whether an ability of ``obj`` names a player through its controller ("you gain 1 life", "your graveyard",
        "each opponent"): once its source changed hands, such a text means another player than the scenario's."""
        for ability in obj.get("abilities", ()):
            if (ability.get("intervening_if") or {}).get("test") == "not_in_zone":
                return True
            actions = list(ability.get("effect", ()))
            while actions:
                action = actions.pop()
                if action.get("do") in ("life", "damage") and "player" in action \
                        or action.get("do") == "move" and action.get("from") == "hand":
                    return True
                if isinstance(action.get("ability"), dict):
                    actions += action["ability"].get("effect", ())
        return False

    def profile_siblings(self) -> None:
        """"stray_targets": an ability targeting a card in a hand (no legal target while it is there, 603.3d) gets
        no intervening "if", is not optional, and gets a second ability of its source on the same trigger ("you gain
        1 life"), so that both trigger at once and their controller is asked to order them.
        "scripted_delayed_triggers": an ability creating a delayed ability (which scripted deaths, exiles there, no
        longer trigger) gets a second ability of its source on the same trigger destroying another permanent, so
        that a death may follow the creation (when it resolves later) or precede it (603.7a)."""
        for obj, trigger in self.killers:
            field = [o["id"] for o in self.objects if o["zone"] == "field" and o is not obj]
            if field:
                obj["abilities"].append({"id": self.ability_id(), "trigger": dict(trigger), "effect": [
                    {"do": "move", "object": self.source.pick(field), "from": "field", "to": "graveyard"}]})
        for obj, ability in self.strays:
            ability.pop("intervening_if", None)
            if ability.pop("optional", None):
                self.optional_ids.remove(ability["id"])
            obj["abilities"].append({"id": self.ability_id(), "trigger": dict(ability["trigger"]),
                                     "effect": [{"do": "life", "player": obj["owner"], "amount": 1}]})

    def shelter_targets(self, steps: list[dict[str, Any]], doomed: list[str]) -> None:
        """"stray_targets": an ability targeting one permanent that something else in the scenario moves or damages
        (or that a leaving player takes away) targets instead one that nothing does, if there is one (each such
        permanent for one ability: its instruction removes or damages its target)."""
        named: set[str] = set()

        def note(actions: list[dict[str, Any]]) -> None:
            for action in actions:
                if action.get("do") != "gain_control":
                    named.update([action["object"]] if isinstance(action.get("object"), str) else [])
                    named.update(action.get("objects", ()))
                if isinstance(action.get("ability"), dict):
                    note(action["ability"].get("effect", []))

        for obj in self.objects:
            for ability in obj.get("abilities", ()):
                note(ability.get("effect", []))
        for step in steps:
            for action in step["actions"]:
                note(action["effect"])
        field = {o["id"]: o for o in self.objects if o["zone"] == "field" and o["owner"] not in doomed}
        aimed = [(obj, a) for obj in self.objects for a in obj.get("abilities", ())
                 if len((a.get("target") or {}).get("candidates") or ()) == 1
                 and a["target"]["candidates"][0] in field]
        taken = named | {a["target"]["candidates"][0] for _, a in aimed}
        for obj, ability in aimed:
            aim = ability["target"]["candidates"][0]
            if aim not in named and aim != obj["id"]:
                continue
            free = [c for c in field if c not in taken and c != obj["id"]]
            if free:
                ability["target"]["candidates"] = [self.source.pick(free)]
                taken.add(ability["target"]["candidates"][0])
