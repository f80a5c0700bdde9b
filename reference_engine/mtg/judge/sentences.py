"""The source sentences the rule keys encode, by hash: rule number -> ``sentence_digest`` of its paragraph in
the MTG Comprehensive Rules effective 2026-02-27 (603 and the rules its keys cite: 113.7a, 405.5, 608.2, 608.2b, 704.3, 704.4, 800.4a), as read when the keys were written.

When a paragraph of a rules editor's draft (``trigger-conformance lint-rules --rules-text FILE``) hashes
otherwise, every key citing that rule number is flagged stale. After re-reading each such key against the new text,
regenerate with ``conformance.editors.matrix.text_hashes(ruleset, text)``. The texts are not part of the package.
"""

from reference_engine.kernel.ruleset import numbered_paragraphs

SENTENCE_HASHES: dict[str, str] = {
    "113.7a": "dcc5cee86ae5482f",
    "405.5": "24b264482d79be33",
    "603.10a": "081064eb85ef254c",
    "603.12": "181e1976523c70f3",
    "603.2": "334c5da040a0084e",
    "603.2c": "a77b3655b4586858",
    "603.2g": "80a67eace9024b5d",
    "603.3": "9d020e82ffb4b20f",
    "603.3a": "42ccba743a88febd",
    "603.3b": "2428e9ee2a9ba8c2",
    "603.3d": "c15931bc71387fe8",
    "603.4": "91174699e78972bd",
    "603.5": "add6ba67a96cef77",
    "603.7b": "10e78f9853a413a6",
    "603.7e": "ef23bcc43047f453",
    "603.8": "c654c901026620e0",
    "608.2": "c3ad495df46d2a40",
    "608.2b": "a0054ef701a3d7d7",
    "704.3": "a836b0ece8328ab6",
    "704.4": "f617bac4df9e9829",
    "800.4a": "8a58982df67430ab",
}


def paragraphs(text: str) -> dict[str, str]:
    """Rule number -> paragraph of an MTG Comprehensive Rules text: a paragraph starts with ``NNN.Nx`` and ends at a
    blank line or the next numbered line."""
    return numbered_paragraphs(text, r"^(\d{3}\.\d+[a-z]?)\.? ", blank_ends=True)
