"""The source sentences the rule keys encode, by hash: rule number -> ``sentence_digest`` of its paragraph in
the REG glossary entry on triggered abilities, one paragraph per number (TA.1 to TA.6), as read when the keys
were written.

When a paragraph of a rules editor's draft (``trigger-conformance lint-rules --rules-text FILE``) hashes
otherwise, every key citing that rule number is flagged stale. After re-reading each such key against the new text,
regenerate with ``conformance.editors.matrix.text_hashes(ruleset, text)``. The texts are not part of the package.
"""

SENTENCE_HASHES: dict[str, str] = {
    "TA.1": "4f767f7fb908510b",
    "TA.2": "a20084ce1d9585c1",
    "TA.3": "3b98f3e903267e22",
    "TA.4": "8812751b76f743d8",
    "TA.5": "749bb94cf2faaab0",
    "TA.6": "f53f346a79d28340",
}


def paragraphs(text: str) -> dict[str, str]:
    """Paragraph number -> paragraph of the REG glossary's Triggered Ability entry: the entry's non-blank lines
    after its title line, numbered TA.1, TA.2..."""
    body = text.split("Triggered Ability\n", 2)[-1]
    lines = [line for line in body.splitlines() if line.strip()]
    return {f"TA.{n}": line for n, line in enumerate(lines, 1)}
