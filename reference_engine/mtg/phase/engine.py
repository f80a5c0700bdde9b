"""The engine: :class:`PhaseEngine`, phase.rs behind the suite's engine interface (the entry point ``phase`` of
``trigger_conformance.engines``). It renders a scenario's cards (:mod:`.render`), has phase parse them, and plays
the scenario (:mod:`.play`); its generation profile is :data:`reference_engine.mtg.phase.profile.PROFILE`."""

from __future__ import annotations

import json
from typing import Any

from reference_engine.kernel.engine import Chooser, Engine, EngineInfo, Skipped
from reference_engine.kernel.errors import EngineError
from reference_engine.mtg.phase.play import Play
from reference_engine.mtg.phase.profile import PROFILE
from reference_engine.mtg.phase.render import Names, card_name, check_scenario, mtgjson_face

PHASE_VERSION = "0.103.0"
INSTALL_HINT = "install the extra: pip install 'trigger-conformance[phase]'"
RULESET = "mtg"
EDITIONS = ["2026-02-27", "2021-02-24"]


def _import_phase():
    try:
        import phase  # noqa: PLC0415
    except ImportError:
        raise EngineError("unavailable", f"phase-python is not installed; {INSTALL_HINT}") from None
    return phase


# Cards phase parsed, by their MTGJSON face: shared by every PhaseEngine of the process (a run starts a fresh engine
# for each rule it concludes, and their shrinks play the same cards again); parsing is a pure function of the face.
_FACES: dict[str, Any] = {}
MAX_FACES = 4096


class PhaseEngine(Engine):
    """phase.rs behind the suite's adapter interface (MTG only; the subset of :data:`PROFILE`)."""

    def __init__(self) -> None:
        self._phase = _import_phase()

    @property
    def info(self) -> EngineInfo:
        return EngineInfo(name="phase.rs (phase-python)", version=PHASE_VERSION, rulesets={RULESET: list(EDITIONS)})

    def generation_profile(self, ruleset: str) -> dict[str, Any] | None:
        return PROFILE if ruleset == RULESET else None

    def face(self, obj: dict[str, Any], names: Names | None = None) -> Any:
        raw = mtgjson_face(obj, names)
        key = json.dumps(raw, sort_keys=True)
        if key not in _FACES:
            if len(_FACES) >= MAX_FACES:
                _FACES.clear()
            _FACES[key] = self._phase.build_oracle_face(raw, None)
        return _FACES[key]

    def run(self, scenario: dict[str, Any], chooser: Chooser) -> dict[str, Any]:
        if scenario.get("ruleset") != RULESET:
            raise Skipped(f"phase adapter: only the mtg ruleset (not {scenario.get('ruleset')!r})")
        names = check_scenario(scenario)
        _check_readings(scenario)
        faces = {}
        for obj in scenario["objects"]:
            face = self.face(obj, names)
            statics = [st for st in face["static_abilities"] if not (obj.get("additional_triggers") and
                                                                     "DoubleTriggers" in (st.get("mode") or {}))]
            if len(face["triggers"]) != len(obj.get("abilities", ())) \
                    or len(face["abilities"]) != len(names.pings.get(obj["id"], ())) \
                    or statics or face["replacements"] \
                    or bool(obj.get("additional_triggers")) != (len(face["static_abilities"]) == 1):
                raise Skipped(f"phase adapter: phase parsed {obj['id']}'s text into something else than its "
                              f"{len(obj.get('abilities', ()))} triggered abilities: {face['oracle_text']!r}")
            # an ability working from a graveyard (render.from_graveyard) must be phase's trigger zone Graveyard
            # alone, one working from the battlefield have the battlefield among its zones (phase gives a "when this
            # dies" ability the graveyard alone, for looking back: not checked)
            if any(ab.get("active_in") == ["graveyard"] and t.get("trigger_zones") != ["Graveyard"]
                   or ab.get("active_in", ["field"]) == ["field"] and "Battlefield" not in t.get("trigger_zones", ())
                   and not (ab["trigger"].get("event") == "leave" and ab["trigger"].get("subject", "any") == "self")
                   for ab, t in zip(obj.get("abilities", ()), face["triggers"])):
                raise Skipped(f"phase adapter: phase reads an ability of {obj['id']} working from a graveyard as "
                              f"working elsewhere: {face['oracle_text']!r}")
            faces[card_name(obj["id"]).lower()] = face
        return Play(self._phase, scenario, chooser, faces, names).play()


# The readings phase follows where the ruleset names an open one (docs/engines/phase.md, "Reading 3"), each with the
# scenario word it matters for: a scenario asking another reading of an ability with that word is skipped, as a
# process engine declines a configuration it cannot play, rather than judged against a reading phase never claimed.
READINGS = {"once_each_turn_taken": ("on-resolution", "once_each_turn")}


def _check_readings(scenario: dict[str, Any]) -> None:
    """Raises Skipped when ``scenario`` asks, for an ability it has, a reading of an option phase does not follow."""
    for option, (followed, word) in READINGS.items():
        asked = scenario.get("options", {}).get(option, followed)
        if asked != followed and any(a.get(word) for o in scenario["objects"] for a in o.get("abilities", ())):
            raise Skipped(f"phase adapter: phase reads {option} as {followed!r} (docs/engines/phase.md, reading 3); "
                          f"this scenario asks {asked!r}")

