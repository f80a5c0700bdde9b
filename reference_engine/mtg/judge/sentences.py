"""The sentences of the MTG Comprehensive Rules effective 2026-02-27 (chapter 603 and the rules its keys cite) that the rule keys encode (:data:`SENTENCES`), and the reader of that text.

The table's format, and how ``lint-rules --rules-text`` uses it, are in :mod:`reference_engine.kernel.ruletext`.
"""

import re

from reference_engine.kernel.branching import BranchPoint, reading, table
from reference_engine.kernel.ruletext import numbered_paragraphs

NUMBERED = r"^(\d{3}\.\d+[a-z]?)\.? "
_CHAPTER = re.compile(r"^\s*(\d{3})\. ([A-Z][^.]*?)\s*$", re.M)


def paragraphs(text: str) -> dict[str, str]:
    """Rule number -> paragraph of an MTG Comprehensive Rules text: a rule starts with ``NNN.Nx`` (and an optional
    dot) and runs over its wrapped lines and examples to a blank line or the next numbered line. Page furniture is
    not rule text (:func:`reference_engine.kernel.ruletext.numbered_paragraphs`), and on a chapter's index page,
    whose lines repeat the chapter's title before each rule's first words, the title is not part of the rule (a line
    cut short with an ellipsis stays cut short: the lint judges only the sentences it has in full)."""
    found = numbered_paragraphs(text, NUMBERED, continues=lambda line: not _CHAPTER.match(line))
    titles = {number: title for number, title in _CHAPTER.findall(text)}
    for number, paragraph in found.items():
        title = titles.get(number.split(".")[0])
        if title and paragraph.startswith(title + " "):
            found[number] = paragraph[len(title) + 1:]
    return found


SENTENCES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "113.7a": (
        ("c4be744fc40c6f0e", ("mtg.independent-of-source",)),
        ("dd077deaac7c9437", ("mtg.independent-of-source",)),
        ("c19332250c88c86a", ("mtg.independent-of-source",)),
        ("de478f2d51cc1bfa", ("mtg.independent-of-source",)),
        ("a02d5aa9f0554150", ("mtg.independent-of-source",)),
        ("3d725e2207716db6", ("mtg.independent-of-source",)),
        ("474d9e348151c267", ("mtg.independent-of-source",)),
    ),
    "405.5": (
        ("7dd1d595163cabc4", ("mtg.stack-lifo",)),
        ("ab3b6aed29ca4f37", ("mtg.stack-lifo",)),
    ),
    "603.1": (
        ("a308c3fbc22c7258", ()),
        ("57aea331db256d57", ()),
    ),
    "603.1a": (
        ("7cd644c441cf54ae", ()),
        ("1f33d8f548f2ed3b", ()),
        ("814a20caac2fb60d", ()),
    ),
    "603.1b": (
        ("3130ea10ded898ed", ()),
        ("af6002549b7007c4", ()),
    ),
    "603.2": (
        ("e3fa14ad09520b58", ("mtg.triggers-when-satisfied", "mtg.prevented-no-trigger")),
        ("ec5bc76714afa482", ("mtg.stack-at-priority", "mtg.prevented-no-trigger")),
    ),
    "603.2a": (
        ("f1849be62d624b2a", ()),
        ("b68ff84770097ee6", ()),
    ),
    "603.2b": (
        ("0dde4b2efe2d2af8", ()),
    ),
    "603.2c": (
        ("ccc783c7fda34226", ("mtg.triggers-when-satisfied",)),
        ("bdbf93f29375229d", ("mtg.triggers-when-satisfied",)),
        ("11c1f33dd1c66a6c", ("mtg.triggers-when-satisfied",)),
        ("ca45ca36a0a6fa42", ("mtg.triggers-when-satisfied",)),
    ),
    "603.2d": (
        ("b2ba16625eb86676", ("mtg.triggers-when-satisfied",)),
        ("34059685e9229104", ("mtg.triggers-when-satisfied",)),
        ("f4d879c2ce6069a1", ("mtg.triggers-when-satisfied",)),
        ("e8009637966ee5d6", ("mtg.triggers-when-satisfied",)),
    ),
    "603.2e": (
        ("92a321c984826533", ()),
        ("eb2a7f70a52b2140", ()),
        ("fef4f1a4b62bd1f6", ()),
        ("e48887bd9e0769d6", ()),
    ),
    "603.2f": (
        ("161ed04ec0bec112", ()),
    ),
    "603.2g": (
        ("cbd467658402ffe4", ("mtg.prevented-no-trigger",)),
        ("6d04b82274d56426", ("mtg.prevented-no-trigger",)),
        ("2c6125e5b17fde8c", ("mtg.prevented-no-trigger",)),
    ),
    "603.2h": (
        ("a257372a9bf87ced", ("mtg.triggers-when-satisfied",)),
        ("9512078fec75c151", ("mtg.triggers-when-satisfied",)),
    ),
    "603.3": (
        ("6e3ca5b8d3caa098", ("mtg.stack-at-priority",)),
        ("b69ad9336fc91245", ("mtg.stack-at-priority",)),
        ("659898e40269ab18", ("mtg.stack-at-priority",)),
        ("fd7303efcb8fcbeb", ("mtg.stack-at-priority",)),
        ("5fcf7723062018f0", ("mtg.stack-at-priority",)),
    ),
    "603.3a": (
        ("16552762b3464799", ("mtg.trigger-controller",)),
        ("0584f1b91894893a", ("mtg.trigger-controller",)),
    ),
    "603.3b": (
        ("766694ca069a8efb", ("mtg.apnap-order",)),
        ("72fb92c1ecbe3f42", ("mtg.apnap-order", "mtg.trigger-on-trigger-last")),
        ("c95f93841862ca20", ("mtg.apnap-order",)),
        ("967e0b3cb510e2b1", ("mtg.trigger-on-trigger-last", "mtg.apnap-order")),
        ("918ba12e3658f366", ("mtg.apnap-order", "mtg.sba-loop")),
        ("3192b3c368e12f2d", ("mtg.apnap-order", "mtg.sba-loop")),
        ("13fe7082b39faaa3", ("mtg.apnap-order", "mtg.stack-at-priority")),
    ),
    "603.3c": (
        ("ff8cde266c1f277d", ()),
        ("01701a22fa80e144", ()),
        ("721db2e53b6407f6", ()),
        ("943ea4bbf2cd5f46", ()),
    ),
    "603.3d": (
        ("46a4c44bc0bdf7b3", ("mtg.no-legal-target",)),
        ("c7389a01148cccb7", ("mtg.no-legal-target",)),
    ),
    "603.4": (
        ("649680e1309683cd", ("mtg.intervening-if",)),
        ("80ce5dcbc651fcf5", ("mtg.intervening-if",)),
        ("57c04c3721a0303a", ("mtg.intervening-if",)),
        ("237a3c81bf992c4b", ("mtg.intervening-if",)),
        ("15c5050ec0c9bc3a", ("mtg.intervening-if",)),
        ("c862e6b5870fb69f", ("mtg.intervening-if",)),
        ("ea6c5582c3b65e1a", ("mtg.intervening-if",)),
        ("cb40f52f848c0728", ("mtg.intervening-if",)),
        ("157066b913c6df2f", ("mtg.intervening-if",)),
        ("5a19ea8bf9240025", ("mtg.intervening-if",)),
        ("e9cb9711c8d6aeb3", ("mtg.intervening-if",)),
        ("46a8b781e1089511", ("mtg.intervening-if",)),
        ("a94fe2aca5d561ee", ("mtg.intervening-if",)),
        ("db901eb09f21826c", ("mtg.intervening-if",)),
        ("a5817481a345c817", ("mtg.intervening-if",)),
    ),
    "603.5": (
        ("993c78f3cfadf810", ("mtg.optional-on-resolution",)),
        ("192292c8471c6003", ("mtg.optional-on-resolution",)),
        ("8b6c1110530f208c", ("mtg.optional-on-resolution",)),
        ("a6dd342f75cd42a9", ("mtg.optional-on-resolution",)),
    ),
    "603.6": (
        ("f1f07686cc1e81aa", ()),
        ("e8077164e18ce7d3", ()),
        ("11fda25f181c79cd", ()),
        ("f8c1809b7708c0f5", ()),
        ("7faf4ee48ba2fe1f", ()),
        ("4e514e7bbdff1dd4", ()),
        ("c7a0c613fed540a5", ()),
    ),
    "603.6a": (
        ("023bdb2f85315cf6", ("mtg.triggers-when-satisfied",)),
        ("dabb800bc7185585", ("mtg.triggers-when-satisfied",)),
    ),
    "603.6b": (
        ("c2778624312a9cf3", ()),
        ("eddfdd28d5196c7b", ()),
        ("b1daae85778a5ec6", ()),
        ("cbe76ec2c8f6d9e1", ()),
        ("790763fdbcb77a7c", ()),
    ),
    "603.6c": (
        ("54426b9b08826fee", ("mtg.look-back",)),
        ("24636afd6bd6eeea", ("mtg.look-back",)),
        ("7002fc47e469c4c9", ("mtg.look-back",)),
        ("fa5990d434b9b5da", ("mtg.look-back",)),
        ("9777f0f9340cf496", ("mtg.look-back",)),
    ),
    "603.6d": (
        ("5fd277b6bf907348", ()),
        ("096bf59e004c73c9", ()),
    ),
    "603.6e": (
        ("f9dede7b171b7398", ()),
        ("6f64f34c6e5fc196", ()),
        ("ac2be87e6ac6e4ca", ()),
    ),
    "603.7": (
        ("9f6640ff9df26806", ("mtg.delayed-trigger", "mtg.delayed-controller")),
        ("57cccb83be6f9143", ("mtg.delayed-trigger", "mtg.delayed-controller")),
    ),
    "603.7a": (
        ("f80f3e12164051c5", ()),
        ("5e96718f92946cb6", ()),
        ("a02c1e9ea12786c9", ()),
        ("c4584cabc2bba67c", ()),
        ("11b4f951a4ddae22", ()),
        ("7b030b58a71f8d60", ()),
    ),
    "603.7b": (
        ("91b5343c166847a1", ("mtg.delayed-trigger",)),
        ("f7faafd8282dca88", ("mtg.delayed-trigger",)),
    ),
    "603.7c": (
        ("51d1b4debd0b9ade", ()),
        ("74f5cf157173078c", ()),
        ("067999c73652166a", ()),
        ("74981415313beaa7", ()),
        ("d45e32c0b84fb250", ()),
    ),
    "603.7d": (
        ("06bf4441ef6549bc", ("mtg.delayed-controller", "mtg.delayed-trigger")),
        ("12cf482569ea9ca0", ("mtg.delayed-controller", "mtg.delayed-trigger")),
    ),
    "603.7e": (
        ("c44e16475686304f", ("mtg.delayed-controller",)),
        ("fe0fb8325154832e", ("mtg.delayed-controller",)),
    ),
    "603.7f": (
        ("adcd3db593a64728", ()),
        ("6e51d1ddfb7a2414", ()),
    ),
    "603.7g": (
        ("40ffb28c9af2f11d", ()),
        ("4f23bbdc3022da97", ()),
    ),
    "603.7h": (
        ("3c93555b0e22fb32", ()),
        ("30e5a43fb543c480", ()),
    ),
    "603.8": (
        ("08910f509d28adf0", ("mtg.state-trigger",)),
        ("208d0203f9c157ed", ("mtg.state-trigger",)),
        ("a1f6d765f20fbf97", ("mtg.state-trigger",)),
        ("5d42527e523e3088", ("mtg.state-trigger",)),
        ("ce6c97d463d091ff", ("mtg.state-trigger",)),
        ("491e99c60fc8d367", ("mtg.state-trigger",)),
        ("f2f320ef3ed0423f", ("mtg.state-trigger",)),
        ("5e19c2f4438f5fa0", ("mtg.state-trigger",)),
        ("f62e9a5c0996a8cd", ("mtg.state-trigger",)),
        ("4ca1e7a2067c720d", ("mtg.state-trigger",)),
    ),
    "603.9": (
        ("3facae2b5ab90f20", ()),
        ("180f91895dbf80fd", ()),
        ("338b9b389252aef2", ()),
    ),
    "603.10": (
        ("fee90eae777f3207", ("mtg.triggers-when-satisfied",)),
        ("2c001ed6890a482e", ()),
        ("a4f2f57e6785e7b2", ()),
    ),
    "603.10a": (
        ("038a02be2221b4f8", ("mtg.look-back",)),
        ("9ec3ba56de197666", ("mtg.look-back",)),
        ("41d406916b2c5c9d", ("mtg.look-back",)),
        ("7b5495b2eeb8933e", ("mtg.look-back",)),
        ("8518f733c5dd7612", ("mtg.look-back",)),
    ),
    "603.10b": (
        ("694b2897dcbf5e19", ()),
    ),
    "603.10c": (
        ("17489b2fbe3443fb", ()),
    ),
    "603.10d": (
        ("a4b20438404b8928", ()),
    ),
    "603.10e": (
        ("0cfbabc2b7bacc00", ()),
    ),
    "603.10f": (
        ("752ebedf9cb730d0", ()),
    ),
    "603.10g": (
        ("372bf32533ab2205", ()),
    ),
    "603.11": (
        ("cf2212989fae0ee0", ()),
        ("b6936824272a5a39", ()),
        ("6c3970db54eda45a", ()),
        ("da60df5fb96e26cf", ()),
        ("89a212a65a60b156", ()),
    ),
    "603.12": (
        ("be562ab970537fa1", ("mtg.reflexive",)),
        ("12d7880feb9f5834", ("mtg.reflexive",)),
        ("50e68951814ffb0b", ("mtg.reflexive",)),
        ("63e2085ad74dec95", ("mtg.reflexive",)),
    ),
    "603.12a": (
        ("6498d129eadd8172", ()),
        ("68e6a2ecde30cc8b", ()),
    ),
    "608.2": (
        ("b5ab8ee4fee2ceac", ("mtg.resolution-effect",)),
        ("f355ef99205c8cf2", ("mtg.resolution-effect",)),
        ("0f64c8822ce4739b", ("mtg.resolution-effect",)),
        ("98b34522e4c67a32", ("mtg.resolution-effect",)),
    ),
    "608.2b": (
        ("eeaad707f0565b31", ("mtg.spell-resolution",)),
        ("7f6fa950f2e917b3", ("mtg.spell-resolution",)),
        ("bd21007cabe2ea96", ("mtg.spell-resolution",)),
        ("29e99d554530ba88", ("mtg.spell-resolution",)),
        ("c72562bf51030c83", ("mtg.spell-resolution",)),
        ("c6aa1c17c7d5e269", ("mtg.spell-resolution",)),
        ("8dd4698e13598b38", ("mtg.spell-resolution",)),
        ("d0959a588582f1ac", ("mtg.spell-resolution",)),
        ("bc41db5311229e3d", ("mtg.spell-resolution",)),
        ("182d3e6614236e2b", ("mtg.spell-resolution",)),
        ("7fa92aa0b27a5a57", ("mtg.spell-resolution",)),
        ("0bbfdd3d1ddd0157", ("mtg.spell-resolution",)),
        ("25caf55d1f3abfb4", ("mtg.spell-resolution",)),
        ("617ef7604abdbbd3", ("mtg.spell-resolution",)),
        ("e4c46cdc0aa0a5e9", ("mtg.spell-resolution",)),
        ("06232db1cf6aacec", ("mtg.spell-resolution",)),
        ("03bd07e4b2f08f08", ("mtg.spell-resolution",)),
        ("803bf8155dcbaf18", ("mtg.spell-resolution",)),
        ("c225f94b5ac58595", ("mtg.spell-resolution",)),
        ("e1ddccdc916b9072", ("mtg.spell-resolution",)),
    ),
    "704.3": (
        ("db12037c2a94540b", ("mtg.sba-loop",)),
        ("08d37f359ac66805", ("mtg.sba-loop",)),
        ("e8ed3c5646a2c2f1", ("mtg.sba-loop",)),
        ("267b93c43ae27dc2", ("mtg.sba-loop",)),
    ),
    "704.4": (
        ("5afdfd0931491c68", ("mtg.sba-between-resolutions",)),
        ("077dd57bc50042f6", ("mtg.sba-between-resolutions",)),
        ("ab0e911be4d5b765", ("mtg.sba-between-resolutions",)),
        ("8edc36be83a7abb4", ("mtg.sba-between-resolutions",)),
        ("fed53efbafe494d9", ("mtg.sba-between-resolutions",)),
    ),
    "800.4a": (
        ("a0511e3320e9a597", ("mtg.player-leaves",)),
        ("7d9be5e091b793ae", ("mtg.player-leaves",)),
        ("3430418bdc9e8560", ("mtg.player-leaves",)),
        ("bf32e985e5f7a3dd", ("mtg.player-leaves",)),
        ("d540d5fc65548869", ("mtg.player-leaves",)),
        ("fca07aa6821e9fd5", ("mtg.player-leaves",)),
    ),
}


# Every decision CR 603 (with the rules its keys cite) leaves open to the permissive engine, by branch-point id
# (reference_engine.kernel.branching; tests/test_branch_points.py keeps the table and the engine in step).
BRANCH_POINTS = table(
    BranchPoint("batch-order", ("603.3b",), "the order in which one batch of waiting triggered abilities goes on "
                "the stack (APNAP, each player's own in their chosen order; two passes in the 2026-02-27 edition)"),
    BranchPoint("sba-timing", ("603.3", "704.3"), "with triggered abilities waiting and a state-based action "
                "applicable, which comes first"),
    BranchPoint("state-trigger-new-object", ("603.8",), "a state trigger whose object changed zones while an "
                "instance of it waits: a new object (400.7), so may it trigger again"),
    BranchPoint("from-anywhere-looks-back", ("603.6c", "603.10a"), "whether an ability about a card put into a zone "
                "'from anywhere' looks back in time for a permanent leaving the battlefield"),
    BranchPoint("intervening-you", ("603.4", "603.3a"), "'you' in an intervening 'if' checked again on resolution: "
                "the ability's controller as it triggered, or its source's controller now"),
    BranchPoint("departed-waiting", ("800.4a", "603.3"), "the triggered abilities of a player who left that wait to "
                "go on the stack: they cease with the player (as the objects on the stack do), or still go there"),
    reading("pass_two_membership", ("603.3b",), "which abilities go in the second pass"),
    reading("departed_delayed", ("800.4a", "603.7"), "the delayed triggered abilities of a player who left, not "
            "yet triggered"),
    reading("leaves_intervening_if", ("603.4", "603.10"), "whether the intervening 'if' of an ability that looks "
            "back in time is checked before its event or after it"),
    reading("once_each_turn_taken", ("603.2h",), "when a 'do this only once each turn' ability counts as used"),
    reading("controller_off_battlefield", ("603.10a", "113.7a"), "who controls an object off the battlefield "
            "for a 'you control' filter: its owner, its last controller, or no one"),
)
