"""The sentences of Momon Wonder CR 1.0.0, section 11.2 (rules 11.2.1 to 11.2.6) that the rule keys encode (:data:`SENTENCES`), and the reader of that text.

The table's format, and how ``lint-rules --rules-text`` uses it, are in :mod:`reference_engine.kernel.ruletext`.
"""

from reference_engine.kernel.branching import BranchPoint, reading, table
from reference_engine.kernel.ruletext import numbered_paragraphs

NUMBERED = r"^(11\.2\.\d+) "


def paragraphs(text: str) -> dict[str, str]:
    """Rule number -> paragraph of a Momon Wonder section 11.2 text (plain, published page or re-wrapped draft): a
    rule starts with ``11.2.N `` and runs over its wrapped lines to a blank line or the next rule; the page's link
    line, headings and footer are not rule text (:func:`reference_engine.kernel.ruletext.numbered_paragraphs`)."""
    return numbered_paragraphs(text, NUMBERED)


SENTENCES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "11.2.1": (
        ("ac60a85933704930", ("mw.triggers-when-satisfied", "mw.no-interruption")),
    ),
    "11.2.2": (
        ("7d4bf0e65f575bc7", ("mw.sbc-after-completion", "mw.sbc-defeat-order")),
    ),
    "11.2.3": (
        ("9efbc75b1b56c035", ("mw.collect-every-trigger",)),
        ("68341fd08c3d4a93", ("mw.once-per-event",)),
        ("acd1118deff010d0", ("mw.group-position",)),
        ("e3a9626e62b85275", ("mw.summon-package",)),
        ("3a65aa61dab033bf", ("mw.same-event-order",)),
    ),
    "11.2.4": (
        ("30223cfcd9af6cd5", ("mw.queue-fifo",)),
        ("2e7d3d567a365ffc", ("mw.resolve-completely", "mw.removal-reason")),
        ("543962c071db0853", ("mw.package-position",)),
        ("9a473d455c40c665", ("mw.package-completes",)),
        ("832b5c45f349581d", ("mw.processing-queue-distinct", "mw.queue-fifo")),
        ("ab16429b9bbce2fa", ("mw.no-package-interrupts",)),
        ("b8b750fa505458fb", ("mw.remedy-front",)),
    ),
    "11.2.5": (
        ("83bf4436b4c8bb69", ("mw.append-after-pending", "mw.sbc-after-completion", "mw.no-interruption")),
        ("9d6282309f1917c3", ("mw.append-after-pending", "mw.group-position", "mw.sbc-defeat-order")),
        ("19897eda6f5017b7", ("mw.same-event-order",)),
        ("5a70daa7c8f3dbfc", ("mw.package-position",)),
        ("29457e8c096d03bb", ("mw.package-processing-queue", "mw.nested-package-deferred")),
        ("d7d32e089ad1ad84", ("mw.deferred-groups-stay-out",)),
    ),
    "11.2.6": (
        ("fbb2ef4d0a6f2351", ("mw.empty-before-advance",)),
    ),
}


# Every decision 11.2 leaves open, by the branch-point id the permissive engine asks it with
# (reference_engine.kernel.branching; tests/test_branch_points.py keeps the table and the engine in step).
BRANCH_POINTS = table(
    BranchPoint("group-order", ("11.2.3", "11.2.5"), "the order of one event's trigger group (Section 11.3, "
                "referred to and not given)", option="same_event_order"),
    BranchPoint("leaves-looks-back", ("11.2.1", "11.2.3"), "whether an ability of an object that leaves play in an "
                "event sees that event (looks back in time)"),
    BranchPoint("group-placement", ("11.2.3", "11.2.5"), "the order in which the waiting groups of one completed "
                "action or Ability are placed"),
    BranchPoint("group-position", ("11.2.3", "11.2.5"), "a trigger group placed after the pending work or ahead "
                "of it"),
    BranchPoint("sbc-timing", ("11.2.2", "11.2.5"), "State-Based Conditions before the waiting groups are placed, "
                "or after: whether events of that pass join the same collection"),
    BranchPoint("sbc-after-action", ("11.2.2",), "whether State-Based Conditions follow a player's action (not a "
                "turn-based action, not an Ability) before its triggers are collected"),
    BranchPoint("sbc-defeat-order", ("11.2.2", "11.2.5"), "the order of the defeats of several objects in one "
                "State-Based Conditions pass: 'chronological order' gives events caused at once none",
                option="sbc_defeat_order"),
    BranchPoint("queue-next", ("11.2.4", "11.2.6"), "which item of the Trigger Queue or of a package's "
                "processing Queue is taken next"),
    BranchPoint("remedy-placement", ("11.2.4",), "a trigger restored by the Missed Trigger Remedy put at the front "
                "or appended", option="sanctioned_play"),
    reading("package_contents", ("11.2.3", "11.2.4"), "which waiting triggers a successful Summon's package takes"),
    reading("snatch_check_triggers", ("11.2.4", "11.2.5"), "where triggers caused during a package's Snatch Check "
            "go"),
    reading("failed_summon_event", ("11.2.3",), "whether a failed Summon is an event that triggers anything"),
    reading("optional_choice", ("11.2.1", "11.2.4"), "when an optional trigger's choice is made, and whether a "
            "declined one leaves the Queue"),
    reading("sbc_events", ("11.2.2",), "whether State-Based Conditions defeat an object marked for defeat"),
    reading("intervening_recheck", ("11.2.1", "11.2.4"), "whether a condition written into a trigger is checked "
            "again when it resolves"),
)
