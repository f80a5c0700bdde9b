"""Run profiles (``--profile ci|nightly``), time budgets (``--time-budget DURATION``) and shards (``--shard i/n``),
shared by the ``trigger-conformance run`` command and the pytest plugin.

A profile fills in only the settings not given on the command line:

=========  ==============  ======  ==============  ===========
profile    max examples    seed    shrink seconds  time budget
=========  ==============  ======  ==============  ===========
ci         100             0       10              10 minutes
nightly    20000           random  60              5 hours
=========  ==============  ======  ==============  ===========

With a time budget, exploration starts no scenario after 80% of the budget has gone; each rule is then concluded
from what was explored, every shrink getting at most what is left of the budget (at least one second), so every
verdict and report is still written.
"""

from __future__ import annotations

import re
from typing import Any

from reference_engine.kernel.errors import ConformanceError

PROFILES: dict[str, dict[str, Any]] = {
    "ci": {"max_examples": 100, "seed": "0", "shrink_seconds": 10.0, "time_budget": 600.0},
    "nightly": {"max_examples": 20_000, "seed": "random", "shrink_seconds": 60.0, "time_budget": 5 * 3600.0},
}
DEFAULTS: dict[str, Any] = {"max_examples": 100, "seed": "0", "shrink_seconds": 30.0, "time_budget": None}
EXPLORATION_SHARE = 0.8  # of the time budget; the rest is for concluding each rule

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str, option: str = "--time-budget") -> float:
    """``90``, ``90s``, ``10m``, ``1h30m``, ``2.5h`` -> seconds. Raises ConformanceError (naming ``option``, the
    command's or the pytest plugin's) otherwise."""
    text = text.strip().lower()
    if text.startswith("-") and re.fullmatch(r"-(\d+(\.\d+)?[smhd]?)+", text):  # a negative duration
        raise ConformanceError(f"{option}: give a positive duration")
    if re.fullmatch(r"\d+(\.\d+)?", text):
        seconds = float(text)
    else:
        parts = re.findall(r"(\d+(?:\.\d+)?)([smhd])", text)
        if not parts or "".join(n + u for n, u in parts) != text:
            raise ConformanceError(f"{option}: {text!r} is not a duration (e.g. 90s, 10m, 1h30m)")
        seconds = sum(float(n) * _UNITS[u] for n, u in parts)
    if not seconds > 0:
        raise ConformanceError(f"{option}: give a positive duration")
    return seconds


def joined_negative_durations(argv: list[str], options: tuple[str, ...] = ("--time-budget",)) -> list[str]:
    """``--time-budget -5s`` as ``--time-budget=-5s`` (for each of ``options``): argparse takes a value starting
    with ``-`` (not a plain number) for an option and says "expected one argument"; joined, it reaches the
    duration's own message (:func:`parse_duration`)."""
    joined: list[str] = []
    for arg in argv:
        if joined and joined[-1] in options and re.match(r"-[\d.]", arg):
            joined[-1] = f"{joined[-1]}={arg}"
        else:
            joined.append(arg)
    return joined


def parse_shard(text: str) -> tuple[int, int]:
    """``2/4`` -> (2, 4). Raises ConformanceError unless 1 <= i <= n."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise ConformanceError(f"--shard: {text!r}: give i/n with 1 <= i <= n, e.g. 1/4")
    return int(match[1]), int(match[2])


def empty_shard(session, rules_option: str) -> str | None:
    """The line that says the shard of ``session`` (a :class:`~conformance.running.session.Session`) holds nothing to check
    (none of the chosen rules, no fixture, no audit), or None. An empty shard is a clean result (exit 0): a CI matrix
    sharding a short rule list has such jobs."""
    shard = session.spec.shard
    if shard is None or session.rule_keys() or session.fixtures() or session.audits():
        return None
    rules = session.spec.rules
    chosen = f"none of the {len(rules)} rule(s) chosen with {rules_option}" if rules else "no rule"
    return (f"shard {shard[0]}/{shard[1]} is empty: it holds {chosen} and no fixture, so this job checks nothing "
            f"(the other shards check them)")


def settings(profile: str | None, given: dict[str, Any]) -> dict[str, Any]:
    """The run's settings: what was ``given`` (None meaning not given), else the profile's, else the defaults."""
    if profile is not None and profile not in PROFILES:
        raise ConformanceError(f"--profile: unknown profile {profile!r} (known: {', '.join(PROFILES)})")
    chosen = PROFILES.get(profile or "", DEFAULTS)
    return {name: given.get(name) if given.get(name) is not None else chosen.get(name, DEFAULTS[name])
            for name in DEFAULTS}
