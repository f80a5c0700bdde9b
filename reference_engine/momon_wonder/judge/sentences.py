"""The source sentences the rule keys encode, by hash: rule number -> ``sentence_digest`` of its paragraph in
Momon Wonder CR 1.0.0, the rules numbered 11.2.1 to 11.2.6, as read when the keys were written.

When a paragraph of a rules editor's draft (``trigger-conformance lint-rules --rules-text FILE``) hashes
otherwise, every key citing that rule number is flagged stale. After re-reading each such key against the new text,
regenerate with ``conformance.editors.matrix.text_hashes(ruleset, text)``. The texts are not part of the package.
"""

from reference_engine.kernel.ruleset import numbered_paragraphs

SENTENCE_HASHES: dict[str, str] = {
    "11.2.1": "ac60a85933704930",
    "11.2.2": "7d4bf0e65f575bc7",
    "11.2.3": "10258f3590854dd9",
    "11.2.4": "465306a7ff265c26",
    "11.2.5": "7d3266ee889c98af",
    "11.2.6": "fbb2ef4d0a6f2351",
}


def paragraphs(text: str) -> dict[str, str]:
    """Rule number -> paragraph of a Momon Wonder 11.2 text: a paragraph starts with ``11.2.N `` and runs to the
    next numbered line, blank lines included."""
    return numbered_paragraphs(text, r"^(11\.2\.\d+) ", blank_ends=False)
