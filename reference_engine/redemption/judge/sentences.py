"""The sentences of the REG glossary entry on triggered abilities (its paragraphs, TA.1 to TA.6 in order) that the rule keys encode (:data:`SENTENCES`), and the reader of that text.

The table's format, and how ``lint-rules --rules-text`` uses it, are in :mod:`reference_engine.kernel.ruletext`.
"""

import re

from reference_engine.kernel.branching import BranchPoint, reading, table
from reference_engine.kernel.ruletext import clean_lines, join_wrapped, sentence_digest, split_sentences

_TITLE = re.compile(r"^\s*Triggered Ability\s*$", re.M)


def paragraphs(text: str) -> dict[str, str]:
    """Paragraph number -> paragraph of the REG glossary's Triggered Ability entry (plain, as published, or
    re-wrapped). The entry's paragraphs carry no numbers, so each sentence goes to the paragraph :data:`SENTENCES`
    knows it from. A sentence it does not know (new or edited) goes with its neighbours: to their paragraph when
    both are of one, else to a paragraph between theirs (one none of whose sentences is left), else to the paragraph that lacks a recorded sentence at that place, else (an insertion between
    two paragraphs) to the later one if the sentence starts a line and to the earlier one if not. So wrapping lines
    differently changes nothing. A text that shares less than half of its sentences with the table is read by its
    layout instead: each non-blank line after the title line is a paragraph, TA.1, TA.2..."""
    title = _TITLE.search(text)
    body = text[title.end():] if title else text
    lines = [" ".join(line.split()) for line in clean_lines(body) if line.strip()]
    by_layout = {f"TA.{n}": line for n, line in enumerate(lines, 1)}
    joined, line_starts = "", set()
    for line in lines:
        line_starts.add(len(joined) + (1 if joined and not re.search(r"\w-$", joined) else 0))
        joined = join_wrapped(joined, line) if joined else line
    sentences = split_sentences(joined)
    place = {digest: (number, k) for number, listed in SENTENCES.items() for k, (digest, _) in enumerate(listed)}
    known = [place.get(sentence_digest(s)) for s in sentences]
    if 2 * sum(k is not None for k in known) < len(sentences):
        return by_layout
    starts, at = [], 0
    for sentence in sentences:
        at = joined.find(sentence, at)
        starts.append(at in line_starts)
    found: dict[str, list[str]] = {}
    for n, sentence in enumerate(sentences):
        number = known[n][0] if known[n] else _home(known, n, starts)
        found.setdefault(number, []).append(sentence)
    return {number: " ".join(listed) for number, listed in sorted(found.items(), key=lambda i: int(i[0][3:]))}


def _home(known: list, n: int, starts: list[bool]) -> str:
    """The paragraph of an unknown sentence ``n`` between its nearest known neighbours (see :func:`paragraphs`).
    When several paragraphs between them lost every recorded sentence, the run of unknown sentences is shared out
    in order: each sentence that starts a line after the run's first starts the next of those paragraphs."""
    starts_line = starts[n]
    first = next((k + 1 for k in range(n - 1, -1, -1) if known[k]), 0)  # where the run of unknown ones begins
    before = next((known[k] for k in range(n - 1, -1, -1) if known[k]), None)
    after = next((known[k] for k in range(n + 1, len(known)) if known[k]), None)
    if before is None or after is None:
        return (before or after)[0]
    if before[0] == after[0]:
        return before[0]
    between = [f"TA.{k}" for k in range(int(before[0][3:]) + 1, int(after[0][3:]))]
    if between:  # whole paragraphs between them have no sentence of the table: this one is (part of) one of them
        return between[min(sum(starts[first + 1:n + 1]), len(between) - 1)]
    if after[1] > 0:  # the later paragraph lacks a recorded sentence before this one
        return after[0]
    if before[1] < len(SENTENCES[before[0]]) - 1:  # the earlier one lacks one after it
        return before[0]
    return after[0] if starts_line else before[0]


SENTENCES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "TA.1": (
        ("cab9fc18780e8382", ("red.triggers-on-situation",)),
        ("455f8b6a559e4ddc", ("red.triggers-on-situation", "red.effect-carried-out")),
        ("7373c2949a8cec87", ("red.triggers-on-situation",)),
        ("6f3dbebe8fba18fe", ("red.triggers-on-situation", "red.effect-carried-out")),
    ),
    "TA.2": (
        ("fcd2d22eb0cd5e82", ("red.if-x-y-never-waits",)),
        ("2bd0580fc7259a60", ("red.if-x-y-never-waits",)),
        ("a501a4af4ecbe02d", ("red.if-x-y-never-waits",)),
        ("3b9debb22e150911", ("red.if-x-y-checks-now",)),
        ("56110f9ccbc70dca", ("red.if-x-y-checks-now",)),
        ("794dfdbe4527c51e", ("red.if-x-y-never-waits",)),
    ),
    "TA.3": (
        ("b6394f450e14073d", ("red.mandatory-no-choice", "red.optional-choice")),
        ("7fce29dd90b550fe", ("red.mandatory-no-choice", "red.optional-choice")),
        ("af1d1365082915f9", ("red.optional-needs-card", "red.removal-reason")),
        ("03abb2fff8293b9a", ("red.mandatory-persists", "red.negation-ends", "red.mandatory-after-phase", "red.removal-reason")),
    ),
    "TA.4": (
        ("8812751b76f743d8", ("red.active-player-first", "red.mandatory-own-order")),
    ),
    "TA.5": (
        ("749bb94cf2faaab0", ("red.optional-active-player-first", "red.optional-own-order", "red.optional-choice")),
    ),
    "TA.6": (
        ("b76e6b81e5b922d1", ("red.no-cutting-in", "red.new-trigger-placement")),
        ("2a552c597ef87503", ("red.pending-then-activates", "red.new-trigger-placement")),
    ),
}


# Every decision the glossary entry leaves open to the permissive engine, by branch-point id
# (reference_engine.kernel.branching; tests/test_branch_points.py keeps the table and the engine in step).
BRANCH_POINTS = table(
    BranchPoint("batch-order", ("TA.4", "TA.5"), "which of the triggers free together activates next: mandatory "
                "and optional ones at once, three or more, turn order around the table"),
    BranchPoint("fresh-placement", ("TA.6",), "triggers that arose while a triggered ability resolved activate "
                "before or after those already pending", option="trigger_during_resolution"),
    BranchPoint("optional-choice-scope", ("TA.5",), "one choice for all of a player's optional triggers free "
                "together, or one per trigger"),
    BranchPoint("optional-choice-time", ("TA.5",), "when an optional trigger's holder chooses whether to use it: "
                "as the triggers arise, or as each one's turn comes"),
    BranchPoint("optional-after-phase", ("TA.3",), "an optional trigger still pending when its phase ends: keeps "
                "waiting or lapses ('at least until the end of the current phase' is said of mandatory ones only)"),
    reading("control_change_holder", ("TA.1", "TA.3"), "whose trigger it is when the situation is its card's own "
            "change of control"),
    reading("mandatory_after_phase", ("TA.3",), "a pending mandatory trigger whose card is gone, after its phase "
            "ends"),
)
