"""The ``cards`` piece of the observation (observation.py): a player's own WWII Fog of War hand, the
size of the enemy's, the deck, the discards and the lasting public card effects (rules/wwii_fog.py,
rulings R60-R67).

Plays the test scenario ``scenarios/crossroads_wwii.json`` (Crossroads with the WWII deck: sides red,
blue) from positions whose ``fog_cards`` block is written out.
"""

from __future__ import annotations

import dataclasses

import pytest

import fof_env
from fof_env.force_on_force.observation import card_features, observation_size, piece
from fof_env.force_on_force.rules.wwii_fog import card_keys, full_deck
from tests.force_on_force.helpers import seed_says
from tests.force_on_force.test_wwii_fog_deck import UNITS, game  # the same two-a-side WWII crossroads


def state(hands: dict, discards=(), **fog):
    """An activation position, turn 1, ``hands`` {side: [cards]}, ``discards``; the rest in the deck."""
    rest = [card_keys()[c] for c in full_deck()]
    for k in (*(c for cards in hands.values() for c in cards), *discards):
        rest.remove(k)
    return game().state_from_position(
        {"turn": 1, "initiative": "red", "units": UNITS,
         "fog_cards": {"deck": rest, "hands": hands, "discards": list(discards), **fog}}  # fmt: skip
    )


def cards_piece(s, player: int) -> list[float]:
    at, size = piece(s.LAYOUT, "cards")
    return [round(float(x), 6) for x in s.observation(player)[at : at + size]]


def expected(nonzero: dict[int, float]) -> list[float]:
    """The 57 floats of a ``cards`` piece: zeros but at ``nonzero``'s indices."""
    return [round(nonzero.get(i, 0.0), 6) for i in range(57)]


def test_my_hand_the_enemy_hand_size_the_deck_the_discards_and_the_lasting_effects():
    """003: "The Fog of War card will indicate whether the player must play the card immediately or may
    hold it in his hand and play it later." Red holds both An Excellent Position cards and Medic!; Wait,
    the Colonel Said WHAT?! (004: "your opponent automatically gains Initiative on the next turn") and
    You're Grounded! were played, Friendly Gremlins (004: "The opposing player loses one Initiative die on
    the next Initiative check") cost Blue a die. Layout: my hand per card type (22, /2), the enemy hand's
    size /5, deck /31, discards per card type (22, /2), grounded, gremlins (mine, enemy's), colonel (mine,
    enemy's), swiss cheese, burning, markers (x2), give 'em hell (x2)."""
    seed_says("003_b1b2d2a6d4b3bab2.txt", "hold it in his hand and play it later")
    seed_says("004_fa8d850a9c124bb3.txt", "your opponent automatically gains Initiative on the next turn",
              "The opposing player loses one Initiative die on the next Initiative check")
    keys = card_keys()
    assert (keys.index("excellent_position"), keys.index("medic")) == (0, 19)
    assert (keys.index("youre_grounded"), keys.index("colonel_said_what"), keys.index("friendly_gremlins")) == (
        4, 11, 20
    )  # fmt: skip
    s = state(
        {"red": ["excellent_position", "medic", "excellent_position"]},
        discards=("youre_grounded", "colonel_said_what", "friendly_gremlins"),
        grounded=True, colonel="blue", gremlins=["blue"],
    )  # fmt: skip
    assert card_features() == 57
    red = cards_piece(s, 0)
    assert red == expected(
        {0: 1.0, 19: 0.5, 22: 0.0, 23: 25 / 31, 24 + 4: 0.5, 24 + 11: 0.5, 24 + 20: 0.5,
         46: 1.0, 47: 0.0, 48: 1.0, 49: 0.0, 50: 1.0}
    )  # fmt: skip
    blue = cards_piece(s, 1)
    assert blue == expected(
        {22: 0.6, 23: 25 / 31, 24 + 4: 0.5, 24 + 11: 0.5, 24 + 20: 0.5, 46: 1.0, 47: 1.0, 49: 1.0}
    )  # fmt: skip


def test_swiss_cheese_burning_markers_and_give_em_hell_per_side():
    """004 "Swiss Cheese", "Fire! Fire!", "Watch Where You Step!" and "Give 'em Hell!" leave public
    effects: the features no longer Solid Cover and the burning buildings (/2), the marker red's units keep
    away from (red: mine, blue: the enemy's) and a red unit under Give 'em Hell!."""
    s = state(
        {}, discards=("swiss_cheese", "fire_fire", "watch_where_you_step", "give_em_hell"),
        swiss_cheese=["farm"], burning=["farm"], markers={"red": ["x05y11"]}, give_em_hell=["red.1"],
    )  # fmt: skip
    assert cards_piece(s, 0)[46:] == [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 1.0, 0.0, 1.0, 0.0]
    assert cards_piece(s, 1)[46:] == [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 1.0, 0.0, 1.0]


def test_the_enemy_hand_never_shows_my_own_hand_does():
    """003: "may hold it in his hand and play it later": Red's held card swapped for another from the deck
    leaves Blue's whole observation byte-identical (rulings R61: the opponent knows the hand's size, never its
    cards) while Red's own changes; the same the other way round."""
    seed_says("003_b1b2d2a6d4b3bab2.txt", "may hold it in his hand and play it later")
    a = state({"red": ["excellent_position"], "blue": ["excellent_position"]})
    b = state({"red": ["medic"], "blue": ["excellent_position"]})  # red's card swapped
    c = state({"red": ["excellent_position"], "blue": ["medic"]})  # blue's card swapped
    assert a.observation(1).tobytes() == b.observation(1).tobytes()
    assert a.observation(0).tobytes() != b.observation(0).tobytes()  # red sees its own card
    assert a.observation(0).tobytes() == c.observation(0).tobytes()
    assert a.observation(1).tobytes() != c.observation(1).tobytes()  # blue sees its own card
    assert cards_piece(c, 1)[:23] == expected({19: 0.5, 22: 0.2})[:23]


def test_lost_and_found_keeps_its_size_and_hedgerow_grows_by_the_cards_piece():
    """Only a scenario that draws the deck has the piece, last: "Lost & Found" keeps its 2,252 floats,
    Hedgerow Hamlet has exactly 57 floats more than the same layout without the deck; with the
    ``fog_of_war`` option off the piece is all zeros."""
    laf = fof_env.make_game("lost_and_found")
    assert laf.observation_shape == (2252,) and not laf.layout.fog_deck
    with pytest.raises(KeyError, match="no observation piece 'cards'"):
        piece(laf.layout, "cards")
    hh = fof_env.make_game("wwii_hedgerow_hamlet")
    without = observation_size(dataclasses.replace(hh.layout, fog_deck=False))
    assert hh.layout.fog_deck and hh.observation_shape == (without + 57,)
    assert piece(hh.layout, "cards") == (without, 57)
    assert piece(hh.layout, "first_aid")[0] + 2 * hh.layout.num_units == without  # first_aid just before it
    off = fof_env.make_game("wwii_hedgerow_hamlet", fog_of_war=False)
    s = off.new_initial_state(1)
    assert s.cards is None and off.observation_shape == (without + 57,)
    assert not s.observation(0)[without:].any()
