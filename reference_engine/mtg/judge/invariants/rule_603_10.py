"""MTG 603.10a (with 603.6c): some zone-change triggers look back in time: for a permanent leaving the battlefield, a
card leaving a graveyard, or an object all players see going into a hand or a library, whether an ability of that
kind (a leaves-the-battlefield ability, one triggering on a card leaving a graveyard, one triggering on an object put
into a hand or a library) triggers, and its intervening "if" (603.4), is judged on the game just before the event,
so permanents leaving the battlefield together see each other leave. An ability triggering on a card put into a zone
"from anywhere" is none of those (603.6c): it is judged just after the event, so it does not see the card it watches
if it leaves with it. This rule judges every event of those kinds, for every ability it may trigger."""

from __future__ import annotations

from reference_engine.kernel.invariant import invariant
from reference_engine.mtg.judge.observations import catalog, compare_triggers, expected_triggers, replay
from reference_engine.mtg.judge.model import looks_back, working_zones
from reference_engine.mtg.judge.observations import PASSES
from reference_engine.kernel.traceview import TraceView


def _leave_events(view: TraceView) -> list[str]:
    return [e["id"] for g in replay(view).groups for e in g.events
            if looks_back(e) and not e.get("prevented")]


def _looked_back(view: TraceView) -> int:
    """Expected leaves-the-battlefield triggers whose source was gone just after the event."""
    cat, groups = catalog(view), replay(view).group_of
    count = 0
    for event_id in _leave_events(view):
        after = groups[event_id].after
        for source, ability in expected_triggers(view).get(event_id, ()):
            if after.where.get(source) not in working_zones(cat.printed[(source, ability)]):
                count += 1
    return count


@invariant(
    passes=PASSES,
    key="mtg.look-back",
    ruleset="mtg",
    rules={"2026-02-27": "603.10a", "2021-02-24": "603.10a"},
    summary="A permanent leaving the battlefield (or a card leaving a graveyard) triggers the leaves-the-battlefield "
    "(leaves-a-graveyard) abilities of everything as it was just before the event, including objects leaving at the "
    "same time; an ability triggering on a card put into a zone 'from anywhere' is judged just after it.",
    exercised=_looked_back,
)
def look_back(view: TraceView) -> list[str]:
    return compare_triggers(view, _leave_events(view))
