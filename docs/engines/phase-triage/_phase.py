"""Shared setup of the phase.rs triage scripts in this folder: drives phase-python (0.103.0) directly, without the
suite's adapter (the package reference_engine/mtg/phase/), so that each script shows phase's own behaviour.

A script builds a :class:`Table` from its synthetic cards and the seats holding them, places cards and sets life
totals through phase's debug actions, lets the players pass (answering what phase asks), and reads phase's events,
stack and players. The scripts import this module by name: Python puts the running script's folder first on the path.
"""
import json

import os

import phase

# every table of lands unless PHASE_TRIAGE_DEBUG_ENTRIES=1 (the debug entries the scripts used before issue 32)
LANDS = os.environ.get("PHASE_TRIAGE_DEBUG_ENTRIES") != "1"


def face(name, text, kind=None, toughness=1, land=False):
    """phase's oracle face of a synthetic creature card: mana cost {1}, power 1, ``toughness``, creature type ``kind``
    (no subtype when None) and rules text ``text`` (phase parses the text into abilities). ``land``: a land creature
    card with no mana cost instead, which its owner can play (PlayLand, a real game action)."""
    types = ["Land", "Creature"] if land else ["Creature"]
    return phase.build_oracle_face({"name": name, "manaCost": "" if land else "{1}", "manaValue": 0.0 if land else 1.0,
        "types": types, "supertypes": [], "subtypes": [kind] if kind else [], "text": text, "type": " ".join(types),
        "layout": "normal",
        "colors": [], "colorIdentity": [], "keywords": [], "legalities": {}, "identifiers": {}, "printings": [],
        "foreignData": [], "rulings": [], "power": "1", "toughness": str(toughness)}, None)


class Table:
    """A phase-python game of ``len(seats)`` players (FreeForAll, seed 1), every mulligan kept, debug actions allowed
    for every seat.

    ``cards`` maps a card name to ``(rules text, creature type)``; ``others`` lists more cards as MTGJSON faces;
    ``seats[i]`` lists the names of the cards in seat
    i's deck (all in its hand once the game starts; a name must be in one seat only); ``first_player`` is the active
    seat; ``toughness`` applies to every card. Attributes: ``game`` (phase's game), ``ids`` (card name to object id),
    ``names`` (object id to card name), ``owner`` (card name to seat)."""

    def __init__(self, cards, seats, first_player=0, toughness=1, lands=LANDS, others=None):
        faces = {name.lower(): face(name, text, kind, toughness, lands) for name, (text, kind) in cards.items()}
        for raw in others or ():  # other cards, as MTGJSON faces (e.g. a helper artifact)
            faces[raw["name"].lower()] = phase.build_oracle_face(raw, None)
        self.engine = phase.Engine.from_json(json.dumps(faces))
        extra = {"extra_players": [list(s) for s in seats[2:]]} if len(seats) > 2 else {}
        game = self.engine.new_game(player=list(seats[0]), opponent=list(seats[1]), seed=1, format="FreeForAll",
                                    first_player=first_player, **extra)
        while game.waiting_for()["type"] == "MulliganDecision":
            seat = game.waiting_for()["data"]["pending"][0]["player"]
            game.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
        state = game.state()
        state["state"]["debug_mode"] = True
        state["state"]["debug_permitted"] = list(range(len(seats)))
        if lands:  # the active player's main phase, with a land play for every card
            state["state"]["phase"] = "PreCombatMain"
            state["state"]["max_lands_per_turn"] = len(cards) + 1
        self.game = self.engine.load_game(state)
        self.lands = lands
        self.ids, self.owner = {}, {}
        for seat in range(len(seats)):
            for card in self.game.hand(seat):
                self.ids[card["name"]], self.owner[card["name"]] = card["id"], seat
        self.names = {v: k for k, v in self.ids.items()}

    def apply(self, seat, action):
        """Apply the GameAction ``action`` (a dict) for ``seat``; returns the events phase reports (list of dicts)."""
        return self.game.apply(seat, action).to_dict()["events"]

    def debug(self, seat, kind, data):
        """Apply phase's debug action ``kind`` with ``data`` for ``seat``; returns the events phase reports."""
        return self.apply(seat, {"type": "Debug", "data": {"type": kind, "data": data}})

    def move(self, name, zone="Battlefield", simulate=False, by=None):
        """Move card ``name`` to ``zone`` (debug MoveToZone; ``simulate`` true makes it an ordinary zone change that
        triggers abilities, false places it raw), acting as seat ``by`` (default: the card's owner). In a table of
        ``lands``, an ordinary entry (``simulate`` true) of a card in the hand of the player phase gives priority,
        the stack empty, is phase's own game action instead: the card played as a land (PlayLand)."""
        seat = self.owner[name] if by is None else by
        if self.lands and simulate and zone == "Battlefield" and not self.game.stack() \
                and self.game.waiting_for() == {"type": "Priority", "data": {"player": self.owner[name]}} \
                and any(c["id"] == self.ids[name] for c in self.game.hand(self.owner[name])):
            return self.play_land(name)
        return self.debug(seat, "MoveToZone", {"object_id": self.ids[name], "to_zone": zone, "simulate": simulate})

    def play_land(self, name):
        """Card ``name`` played from its owner's hand (PlayLand: the real game action; needs ``lands=True``)."""
        card = self.ids[name]
        return self.apply(self.owner[name], {"type": "PlayLand", "data": {"object_id": card, "card_id": card}})

    def set_life(self, player, life, by=None):
        """Set seat ``player``'s life total to ``life`` (debug SetLife), acting as seat ``by`` (default: ``player``)."""
        return self.debug(player if by is None else by, "SetLife", {"player_id": player, "life": life})

    def leave(self, seat, how, pinger, watcher):
        """Make ``seat`` leave the game, ``how``: "concede" (GameAction Concede) or "life" (debug SetLife 1 by seat 0,
        then ``pinger``, "When this creature enters, you lose 1 life.", enters and the players pass, at most 6 times,
        until ``watcher``'s ability is on the stack). Returns the events phase reports."""
        if how == "concede":
            return self.apply(seat, {"type": "Concede", "data": {"player_id": seat}})
        self.set_life(seat, 1, by=0)
        self.move(pinger, simulate=True)
        return self.play(until=lambda _: watcher in self.stack(), limit=6)

    def stack(self):
        """The names of the sources of phase's stack entries, bottom to top (None for a source not in the decks)."""
        return [self.names.get(s["source_id"]) for s in self.game.stack()]

    def keep_order(self, wait):
        """Answer an OrderTriggers wait with the order phase lists the triggers in; returns the events."""
        return self.apply(wait["data"]["player"], {"type": "OrderTriggers",
                                                   "data": {"order": list(range(len(wait["data"]["triggers"])))}})

    def play(self, until=None, limit=20, answers=None):
        """Let the players pass priority, at most ``limit`` times, and return the events phase reports on the way.

        At each step: a wait whose type is a key of ``answers`` is answered by that function (given phase's wait,
        returning the events); otherwise the play stops when ``until(events so far)`` is true, when phase waits for
        anything but priority, or when the stack is empty; else the player phase waits for passes priority."""
        events = []
        for _ in range(limit):
            wait = self.game.waiting_for()
            if answers and wait["type"] in answers:
                events += answers[wait["type"]](wait)
                continue
            if until is not None and until(events):
                break
            if wait["type"] != "Priority" or not self.game.stack():
                break
            events += self.apply(wait["data"]["player"], {"type": "PassPriority"})
        return events


def report_apnap(stack_after, mine, theirs, what):
    """Print and judge an APNAP probe (603.3b): ``stack_after(active)`` returns phase's stack after the event as
    ``(card name, controller)`` pairs, bottom to top, with seat ``active`` active; ``mine`` is seat 0's entry (an
    ability of ``what`` kind), ``theirs`` seat 1's printed one. Seat 0 active expects ``[mine, theirs]``; seat 1
    active (the control case) ``[theirs, mine]``. Prints ``DEVIATION`` when phase stacks ``[theirs, mine]`` both
    times."""
    stack = stack_after(0)
    print(f"seat 0 active: phase's stack after the {theirs[0]} died, bottom to top: {stack} (expected: "
          f"{[mine, theirs]}, the active player's {what} ability first)")
    control = stack_after(1)
    print(f"seat 1 active (control): {control} (expected: {[theirs, mine]})")
    if stack == [theirs, mine] and control == [theirs, mine]:
        print(f"DEVIATION: the active player's {what} ability went on the stack after the other player's printed one")
    else:
        print("as expected")
