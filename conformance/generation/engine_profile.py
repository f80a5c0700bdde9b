"""An engine's generation profile (``Engine.generation_profile``; a process engine's ``profiles`` in its handshake):
checked once, when the engine is first asked what it is, and kept to by every scenario the run plays, those that
shrinking and the scenario-level reductions make included.

:func:`check_profile` says what is wrong with a profile in one line (with a did-you-mean for a misspelt feature);
:func:`profile_guard` is the predicate a reduction's candidates must pass: a candidate may use no kind of trigger,
action, zone or field that the scenario it starts from (built within the profile: as found, or as Hypothesis shrank
it) did not use, so that a rewrite (a trigger made another kind of trigger, an object moved to another zone) never
hands a partial engine a scenario it declared it cannot play.
"""

from __future__ import annotations

from typing import Any, Callable

from conformance.adapters.registry import did_you_mean

Document = dict[str, Any]
PROFILE_KEYS = ("exclude",)


class ProfileError(ValueError):
    """An engine's generation profile that its ruleset's builder cannot use; the message says why, in one line."""


def check_profile(ruleset: str, profile: Any) -> dict[str, Any] | None:
    """``profile`` as the builder of ``ruleset`` takes it (None: every scenario). Raises :class:`ProfileError` when
    it is not ``{"exclude": [feature, ...]}`` with features of that builder (the message names the ruleset's
    features, or the closest to a misspelt one)."""
    from reference_engine.kernel.registry import builder_for, loaded
    from reference_engine.kernel.source import SeededSource

    if profile is None:
        return None
    if not isinstance(profile, dict):
        raise ProfileError(f"it is {_kind(profile)}, not an object like {{\"exclude\": [feature, ...]}}")
    for key in profile:
        if key not in PROFILE_KEYS:
            raise ProfileError(f"unknown key {key!r}{did_you_mean(str(key), PROFILE_KEYS)}; a profile is "
                               f"{{\"exclude\": [feature, ...]}}")
    exclude = profile.get("exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(f, str) for f in exclude):
        raise ProfileError(f"'exclude' is {_kind(exclude)}, not a list of feature names")
    known = loaded(ruleset).profile_features
    unknown = []
    for feature in exclude:
        if feature in known:
            continue
        try:  # a feature the builder takes beyond the ones it lists (MTG's finer, profile-only features)
            builder_for(ruleset, {"exclude": [feature]})(SeededSource(0), loaded(ruleset).ruleset.default_edition)
        except ValueError:
            unknown.append(feature)
    if unknown:
        hints = "".join(did_you_mean(f, known) for f in unknown)
        raise ProfileError(f"unknown {ruleset} feature{'s' if len(unknown) > 1 else ''} "
                           f"{', '.join(repr(f) for f in unknown)}{hints} (known: {', '.join(sorted(known))})")
    return {"exclude": list(exclude)}


def _kind(value: Any) -> str:
    name = {list: "a list", str: "a string", int: "a number", float: "a number", bool: "a boolean",
            dict: "an object", type(None): "null"}.get(type(value), type(value).__name__)
    return f"{name} ({_short(value)})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def restricts(profile: dict[str, Any] | None) -> bool:
    """Whether ``profile`` leaves anything out."""
    return bool(isinstance(profile, dict) and profile.get("exclude"))


# Fields whose values name a kind of thing (an action, a trigger event, a zone): a new value is a new feature.
_KIND_FIELDS = ("do", "event", "zone", "type", "kind")
_NOT_FEATURES = ("options", "choices", "life", "players", "active_player", "ruleset", "edition", "format")


def kinds(document: Document) -> frozenset[tuple]:
    """The kinds of things ``document`` uses: every field name at any depth, every value of :data:`_KIND_FIELDS`,
    and every boolean value with its field (a Summon that fails, say). Names and numbers are left out."""
    found: set[tuple] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                found.add((key,))
                if key in _KIND_FIELDS and isinstance(item, str) or isinstance(item, bool):
                    found.add((key, item))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk({k: v for k, v in document.items() if k not in _NOT_FEATURES})
    return frozenset(found)


def profile_guard(profile: dict[str, Any] | None, generated: Document,
                  valid: Callable[[Document], bool]) -> Callable[[Document], bool]:
    """``valid``, and, for an engine whose ``profile`` leaves something out, a candidate uses no kind of thing
    (:func:`kinds`) that ``generated`` (a scenario built within the profile) does not: what shrinking plays never
    leaves the profile. ``valid`` itself when the profile leaves nothing out."""
    if not restricts(profile):
        return valid
    allowed = kinds(generated)

    def within(document: Document) -> bool:
        return kinds(document) <= allowed and valid(document)

    return within


__all__ = ["ProfileError", "check_profile", "kinds", "profile_guard", "profile_problem", "restricts"]


def profile_problem(exc: Exception) -> str:
    """What an engine's generation profile that raised (or cannot be used) makes of every scenario, in one line."""
    if isinstance(exc, ProfileError):
        return f"the engine's generation profile cannot be used: {exc}"
    return f"the engine's generation_profile raised {type(exc).__name__}: {exc}"


def handshake_problem(engine, ruleset: str, process: bool) -> dict[str, str] | None:
    """What is wrong with ``engine``'s generation profile for ``ruleset`` (``{"outcome", "message", "stderr"}``:
    ``garbage`` for a ``process`` engine's handshake declaring it, ``errored`` for an in-process engine's
    generation_profile), or None when the builder can use it."""
    try:
        check_profile(ruleset, engine.generation_profile(ruleset))
    except Exception as exc:
        message = profile_problem(exc)
        if process:
            message = message.replace("the engine's generation profile",
                                      f"the profile the engine's handshake declares for {ruleset}", 1)
        return {"outcome": "garbage" if process else "errored", "message": message, "stderr": ""}
    return None
