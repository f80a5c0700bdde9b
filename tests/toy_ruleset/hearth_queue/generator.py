"""Random Hearth Queue scenarios: two players, minions on the field with whenever-abilities on signals of a level and
on pings; a resolving ability signals a higher level only, so every scenario ends."""

from __future__ import annotations

PROFILE_FEATURES = frozenset({"ping"})
LEVELS = 3


def build_scenario(source, edition, profile=None):
    """A scenario document (without ``options``), a deterministic function of ``source``'s answers."""
    exclude = frozenset((profile or {}).get("exclude", ()))
    if exclude - PROFILE_FEATURES:
        raise ValueError(f"unknown Hearth Queue generation profile features: {sorted(exclude - PROFILE_FEATURES)}")
    pings = "ping" not in exclude and source.chance(60)
    players = ["P1", "P2"]
    objects = []
    for n in range(1, source.integer(2, 5) + 1):
        abilities = []
        for k in range(1, source.integer(1, 2) + 1):
            if pings and source.chance(30):
                trigger, level = {"event": "ping", "subject": source.pick(["self", "any"])}, 0
            else:
                level = 0 if (n, k) == (1, 1) else source.integer(0, LEVELS - 1)  # the scripted s0 is heard
                trigger = {"event": "signal", "name": f"s{level}"}
            effect = [{"do": "signal", "name": f"s{source.integer(level + 1, LEVELS)}"}
                      for _ in range(source.integer(0, 2)) if level + 1 <= LEVELS]
            abilities.append({"id": f"M{n}A{k}", "trigger": trigger, "effect": effect})
        objects.append({"id": f"M{n}", "owner": source.pick(players), "zone": "field", "abilities": abilities})
    script = []
    for s in range(source.integer(1, 2)):
        actions = []
        for _ in range(source.integer(1, 2)):
            if pings and source.chance(40):
                effect = [{"do": "ping", "object": source.pick([o["id"] for o in objects])}]
            else:
                effect = [{"do": "signal", "name": "s0"}]
            actions.append({"by": "P1", "effect": effect})
        script.append({"step": f"main{s}", "actions": actions})
    return {"format": "trigger-conformance/scenario/1", "ruleset": "hearth-queue", "edition": edition,
            "players": players, "active_player": "P1", "objects": objects, "script": script}
