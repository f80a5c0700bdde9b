"""The protocol's wire format (docs/protocol.md): one JSON message per line, parsed strictly, and the player choices
an engine asks. Shared by :class:`~conformance.adapters.process.ProcessEngine` and the reference server
(reference_engine/serve.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from reference_engine.kernel.engine import Chooser
from reference_engine.kernel.choices import unit_choice_kinds
from conformance.documents.json_io import MAX_INTEGER_DIGITS, bound_problems

try:  # an optional accelerator: the same JSON, three times faster
    import orjson
except ImportError:  # pragma: no cover - depends on the environment
    orjson = None


def encode_message(message: dict[str, Any]) -> bytes:
    if orjson is not None:
        try:
            return orjson.dumps(message) + b"\n"
        except TypeError:  # e.g. an integer beyond 64 bits: let the standard library say it
            pass
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # a lone surrogate: written as its escape, which the reader then refuses
        return json.dumps(message, separators=(",", ":")).encode("ascii") + b"\n"



class _Bounded:
    """What decode_line noticed while parsing: an integer literal too long to be one of the protocol's."""

    def __init__(self):
        self.too_long = 0

    def integer(self, literal: str) -> int:
        digits = len(literal.lstrip("-"))
        if digits > MAX_INTEGER_DIGITS:
            self.too_long = max(self.too_long, digits)
            return 0
        return int(literal)


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON (JSON has no NaN or infinite numbers)")


def decode_line(line: bytes) -> Any:
    """Parse one line; the standard library's semantics and error messages, orjson's speed when it agrees.

    Raises ValueError (``json.JSONDecodeError`` for text that is not JSON) for anything the protocol cannot carry,
    before it reaches any code that could choke on it: an integer of more than ``MAX_INTEGER_DIGITS`` digits (the
    standard library would parse up to 4,300 digits, then raise), NaN or Infinity, a lone surrogate in a string or
    key (text that cannot be written as UTF-8), nesting too deep to parse. RecursionError cannot escape.
    """
    if orjson is not None:
        try:
            message = orjson.loads(line)  # it refuses integers beyond 64 bits and NaN
        except orjson.JSONDecodeError:
            pass
        else:
            return _surrogate_free(line, message)
    bounded = _Bounded()
    try:
        message = json.loads(line, parse_int=bounded.integer, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deeply to be parsed") from None
    if bounded.too_long:
        raise ValueError(f"an integer of {bounded.too_long} digits; the protocol's integers have at most "
                         f"{MAX_INTEGER_DIGITS} digits")
    return _surrogate_free(line, message)


def _surrogate_free(line: bytes, message: Any) -> Any:
    # Lone surrogates come only from \\u escapes (raw ones are not UTF-8), so most lines need no walk. Depth needs
    # no bound here: the parser stops at the interpreter's recursion limit, the schema of a message is shallow, and
    # what takes free-form content (an errored context) is rendered without recursion limits (_context_text).
    if b"\\ud" in line or b"\\uD" in line:
        found = [p for p in bound_problems(message, limit=50) if "surrogate" in p[1]]
        if found:
            raise ValueError(f"at {found[0][0]}: {found[0][1]}")
    return message


def _index_into(field: str):
    def valid(answer: Any, question: dict[str, Any]) -> bool:
        return type(answer) is int and 0 <= answer < len(question[field])
    return valid


class _Decisions(Mapping):
    """Every player choice an engine can ask: decision -> (Chooser method, the fields of the question passed to it
    after the player, a check of the answer). The kernel's two (``order``, ``optional``: methods of their names), then
    every installed unit's own (its choice kinds: method ``choose``, asked ``choose(decision, player, context,
    candidates)``, the fields named by the kind). Shared by the harness and the reference server."""

    KERNEL: dict[str, tuple[str, tuple[str, ...], Any]] = {
        "order": ("order", ("triggers",),
                  lambda answer, q: isinstance(answer, list) and sorted(answer) == list(range(len(q["triggers"])))),
        "optional": ("optional", ("trigger",), lambda answer, q: isinstance(answer, bool)),
    }

    def __getitem__(self, decision: str) -> tuple[str, tuple[str, ...], Any]:
        if decision in self.KERNEL:
            return self.KERNEL[decision]
        kind = unit_choice_kinds()[decision]
        return ("choose", (kind.context, kind.candidates), _index_into(kind.candidates))

    def __iter__(self) -> Iterator[str]:
        return iter([*self.KERNEL, *unit_choice_kinds()])

    def __len__(self) -> int:
        return len(self.KERNEL) + len(unit_choice_kinds())


DECISIONS: Mapping[str, tuple[str, tuple[str, ...], Any]] = _Decisions()


def ask(chooser: Chooser, decision: str, player: str, *arguments: Any) -> Any:
    """``chooser``'s answer to ``decision`` for ``player``, ``arguments`` being the question's fields in
    DECISIONS' order. Raises KeyError for a decision no installed unit declares."""
    method = DECISIONS[decision][0]
    if method == "choose":
        return chooser.choose(decision, player, *arguments)
    return getattr(chooser, method)(player, *arguments)


def answer_choice(chooser: Chooser, question: dict[str, Any]) -> Any:
    """Ask ``chooser`` the ``choose`` message ``question``; raises ValueError if its answer does not fit."""
    _, fields, valid = DECISIONS[question["decision"]]
    answer = ask(chooser, question["decision"], question["player"], *(question[f] for f in fields))
    if question["decision"] == "optional":
        answer = bool(answer)
    elif question["decision"] == "order":
        answer = [int(k) for k in answer]
    if not valid(answer, question):
        raise ValueError(f"the chooser's answer {answer!r} does not fit a {question['decision']!r} choice")
    return answer



def excerpt(data: bytes | str, limit: int = 200) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return repr(text if len(text) <= limit else text[:limit] + "...")


def context_text(context: Any, indent: int | None = None) -> str:
    """An engine's free-form error context as JSON text, whatever its depth (it is the engine's, not ours)."""
    try:
        return json.dumps(context, indent=indent, ensure_ascii=False)
    except (ValueError, RecursionError):
        return excerpt(repr(context), 2000)



def made_choice_problem(chooser: Chooser, made: dict[str, Any]) -> str | None:
    """Why the choice ``made`` (an item of a version 2 result's ``choices``: the question's fields and the engine's
    ``answer``) is not the one ``chooser`` makes, or None when the answers agree."""
    question = {key: value for key, value in made.items() if key != "answer"}
    method, fields, valid = DECISIONS[question["decision"]]
    missing = [f for f in fields if f not in question]
    if missing:
        return f"a {question['decision']!r} choice without {', '.join(missing)}"
    if not valid(made["answer"], question):
        return f"the answer {made['answer']!r} does not fit a {question['decision']!r} choice"
    expected = answer_choice(chooser, question)
    if expected != made["answer"]:
        return f"the engine answered {made['answer']!r}; the scenario's choices answer {expected!r}"
    return None

