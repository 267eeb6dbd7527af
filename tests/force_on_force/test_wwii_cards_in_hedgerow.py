"""WWII Fog of War cards on the units of "Hedgerow Hamlet": infantry, the aid man and the tanks (rules/wwii_fog.py,
rules/wwii_vehicles.py; rulings R63, R65, R73-R76).

Seed ``004_fa8d850a9c124bb3.txt``, "Generic WWII Fog of War Cards". Positions are on an open 36" x 36" table with
a stacked deck and scripted dice; a card is drawn as an unmodified 1 on a reaction test draws it (``draw``).
"""

from __future__ import annotations

from fof_env import ScriptedDice
from fof_env.core.events import DiceRolled
from tests.force_on_force.hedgerow_helpers import deck_with, draw, game, unit
from tests.force_on_force.helpers import SEED_WWII, seed_says, table_with

SQUAD = {"us.A": {"at": "x05y05"}, "us.B": {"at": "x05y09"}, "us.Doc": {"at": "x03y07"},
         "us.Sherman": {"at": "x03y17"}, "ger.1": {"at": "x13y05"}, "ger.2": {"at": "x13y09"}}  # fmt: skip


def position(*top: str, units: dict | None = None, rolls=(), initiative: str = "us", hands=None, **fog):
    """Turn 1, an activation; the deck's top cards ``top``, ``hands`` {side: [held cards]}."""
    hands = hands or {}
    deck = deck_with(*top)
    for card in (c for cards in hands.values() for c in cards):
        deck.remove(card)
    pos = {"turn": 1, "initiative": initiative, "units": units or SQUAD, "table": table_with(),
           "fog_cards": {"deck": deck, "hands": hands, **fog}}  # fmt: skip
    return game().state_from_position(pos, dice=ScriptedDice(list(rolls)))


def rolls(s, purpose: str) -> list[DiceRolled]:
    return [e for e in s.events if isinstance(e, DiceRolled) and e.purpose == purpose]


# ------------------------------------------------------------------ Give 'em Hell!
def test_give_em_hell_falls_on_one_of_the_infantry_units_that_fire():
    """004_fa8d850a9c124bb3.txt, Give 'em Hell!: "One of your infantry units gets carried away and blazes away at
    the enemy like madmen. They fire with everything they have" and "Randomly determine the unit affected."
    The US has us.A and us.B (riflemen), the aid man (a medic, who does not shoot: R47) and the Sherman (no
    infantry unit): the die is a d2 over us.A and us.B (rulings R73); face 1 is us.A, face 2 us.B."""
    seed_says(SEED_WWII, "One of your infantry units gets carried away and blazes away at the enemy like madmen.",
              "Randomly determine the unit affected.")  # fmt: skip
    for face, name in ((1, "us.A"), (2, "us.B")):
        s = position("give_em_hell", rolls=[face])
        draw(s, "us")
        (die,) = rolls(s, "random unit")
        assert (die.sides, die.value) == (2, face)
        assert s.cards.hell == (unit(s, name),) and s.mad[unit(s, name)] == 1
        assert s.mad[unit(s, "us.Sherman")] == 0 and s.mad[unit(s, "us.Doc")] == 0


def test_give_em_hell_never_makes_the_tank_poorly_supplied():
    """004_fa8d850a9c124bb3.txt, Give 'em Hell!: "Make a Troop Quality check for the unit at the end of the turn.
    If the unit fails the check, it is considered to be Poorly Supplied for the duration of the game." The
    tank is no infantry unit: with only the Sherman and the aid man beside no rifleman, nothing gets the card
    (no die, no TQ check) and the Sherman stays supplied (rulings R73)."""
    units = {"us.Doc": {"at": "x03y07"}, "us.Sherman": {"at": "x03y17"}, "ger.1": {"at": "x13y05"}}
    s = position("give_em_hell", units=units, rolls=[4])  # turn 2 initiative: the US's one die (2 units / 2)
    draw(s, "us")
    assert s.cards.hell == () and s.dice._pos == 0
    s.apply("pass")
    s.apply("pass")
    assert s.turn == 2 and s.supply[unit(s, "us.Sherman")] == 0 and s.dice._pos == 1


def test_a_unit_with_no_one_who_shoots_fires_no_extra_die():
    """004_fa8d850a9c124bb3.txt, Give 'em Hell!: "This unit will receive an extra Firepower die for all attacks,
    Reactions, or Defensive Fire for the rest of the turn." An extra die is a die more of the unit's own
    fire: a unit with no figure that shoots (the aid man: rulings R47) has none to add to, so even a position
    that writes him under the card gives him no Firepower and no fire action (rulings R73)."""
    s = position(give_em_hell=["us.Doc"])
    doc = unit(s, "us.Doc")
    assert s.mad[doc] == 1 and s.fire_capacity(doc) == 0
    s.apply("us.Doc")
    assert "fire" not in s.legal_action_strings()
