"""Card reserves: the four WWII Fog of War cards that bring a unit (rules/wwii_reserves.py, rulings R66, R70).

Seed ``004_fa8d850a9c124bb3.txt`` ("Generic WWII Fog of War Cards"): Hunted!, Browning's Buzz-Saw, Tank
Busters! and Tank Support. Every test plays "Hedgerow Hamlet" (its card reserves: us.MMG, us.Bazooka,
us.Sherman2, us.Sniper; ger.sMG, ger.Schreck, ger.PzIV2, ger.Sniper) from a position whose deck is stacked
(``fog_cards``), with scripted dice; a card is drawn as an unmodified 1 on a reaction test draws it.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import numpy as np
import pytest

import fof_env
from fof_env.core.errors import ScenarioError
from fof_env.core.view import view
from fof_env.force_on_force.constants import BASE_KINDS
from fof_env.force_on_force.observation import UNIT_FEATURES, piece, unit_row
from fof_env.force_on_force.rules.wwii_fog import card_specs, full_deck
from fof_env.force_on_force.rules.wwii_vehicles import VEHICLE_FEATURES
from fof_env.force_on_force.scenario import scenario_from_dict
from fof_env.force_on_force.view import ForceOnForceView
from tests.force_on_force.hedgerow_helpers import (
    all_points,
    dist,
    draw,
    game,
    in_woods,
    played,
    refused,
    scenario_data,
    state,
    unit,
)
from tests.force_on_force.helpers import SEED_WWII, seed_says, seed_text

UNIT_CARDS = ("hunted", "brownings_buzz_saw", "tank_busters", "tank_support")


# ------------------------------------------------------------------ the scenario declares the reserves
def test_the_reserves_are_declared_off_the_table_and_not_in_play():
    """004_fa8d850a9c124bb3.txt, "Generic WWII Fog of War Cards": "This deck may be drawn from by both sides when indicated by a
    Reaction Test." Each side holds one unit for each card that brings one; none is deployed at set-up (its card is
    not drawn): it has no figure and no point, and Hunted!'s team belongs to the side that GAINS it."""
    g = game()
    reserves = {
        g.layout.unit_names[u]: card for u, card in enumerate(g.setup.reserves) if card and card != "asset"
    }
    assert reserves == {"us.MMG": "brownings_buzz_saw", "us.Bazooka": "tank_busters", "us.Sherman2": "tank_support",
                        "us.Sniper": "hunted", "ger.sMG": "brownings_buzz_saw", "ger.Schreck": "tank_busters",
                        "ger.PzIV2": "tank_support", "ger.Sniper": "hunted"}  # fmt: skip
    assert "DESIGNED FOR THIS PROJECT" in g.scenario.provenance
    assert [c.status for c in card_specs() if c.key in UNIT_CARDS] == ["reserve"] * 4
    assert len(full_deck()) == 31  # the counts stay 004's
    s = g.new_initial_state(0)
    deployed = set()
    while s.decision_kind == "deploy":
        deployed.add(s.decision.context["unit"])
        s.apply(s.legal_actions()[0])
    assert not deployed & set(reserves)
    for name in reserves:
        assert s.pos[unit(s, name)] == -1 and not any(s.figs[unit(s, name)])


# ------------------------------------------------------------------ Browning's Buzz-Saw and Tank Busters!
@pytest.mark.parametrize(
    ("card", "side", "name", "friend", "enemy"),
    [
        ("brownings_buzz_saw", "us", "us.MMG", "us.A", "ger.1"),
        ("tank_busters", "us", "us.Bazooka", "us.A", "ger.1"),
        ("brownings_buzz_saw", "ger", "ger.sMG", "ger.1", "us.A"),
        ("tank_busters", "ger", "ger.Schreck", "ger.1", "us.A"),
    ],
)
def test_a_weapons_team_is_placed_within_4_of_a_friend_and_6_from_every_enemy(
    card, side, name, friend, enemy
):
    """004_fa8d850a9c124bb3.txt, Browning's Buzz-Saw: "The MG team is a two man Weapons Team with a MMG (Medium Support). The team
    may be placed immediately anywhere within 4" of a friendly unit but no closer than 6" to an enemy unit. It
    has a Troop Quality of d8 and Morale of d10." Tank Busters!: "The AT team is a two man Weapons Team with
    an AT weapon appropriate to the force to which it belongs (Heavy Support)." The friend stands at x03y03,
    the enemy at x11y03 (8" east): the mask is exactly the points within 4" of x03y03 and 6" or more from
    x11y03; the team enters with d8 / d10 and may act at once."""
    seed_says(
        SEED_WWII,
        'within 4" of a friendly unit but no closer than 6" to an enemy unit',
        "It has a Troop Quality of d8 and Morale of d10.",
        "The team may be activated, React, or engage in Defensive Fire as soon as it is placed.",
    )
    s = state(card, units={friend: {"at": "x03y03"}, enemy: {"at": "x11y03"}}, initiative=side)
    draw(s, side)
    assert (s.decision.kind, s.decision.player) == ("reinforce_point", s.SIDES.index(side))
    assert s.decision.context["result"] == card
    legal = s.legal_action_strings()
    assert "pass" not in legal  # the team comes; only where is chosen
    expected = {p for p in all_points() if dist(p, "x03y03") <= 4 and dist(p, "x11y03") >= 6}
    assert set(legal) == expected and len(legal) == len(expected)
    assert (
        "x03y07" in legal and "x03y09" not in legal and "x05y07" not in legal
    )  # 4", 6", 4.47" from the friend
    assert "x05y03" in legal and "x07y03" not in legal  # 6" and 4" from the enemy
    s.apply("x03y07")
    u = unit(s, name)
    assert s.point_name(s.pos[u]) == "x03y07" and s.figs[u][0] == 2
    assert (s.tq[u], s.morale[u]) == (8, 10)
    assert played(s) == [(side, card, f"{name} enters at x03y07")]
    assert s.decision.kind == "select_unit" and name in s.legal_action_strings()  # activated at once
    if card == "tank_busters":
        assert s.sc.at_weapons[u] == ("bazooka" if side == "us" else "panzerschreck")
        assert s.support[u] == (3,)  # Heavy Support
    else:
        assert s.support[u] == (2,)  # MMG: Medium Support (+2 Weapon Team dice with wwii_mg_teams)


def test_a_hidden_enemy_does_not_shape_the_mask():
    """004_fa8d850a9c124bb3.txt: "no closer than 6" to an enemy unit": only enemies the placing side knows of count; a Hidden
    unit (here German's Hunted! sniper) must not give its point away through the mask (rulings R70)."""
    s = state("brownings_buzz_saw", units={"us.A": {"at": "x03y03"}, "ger.1": {"at": "x35y35"},
                                           "ger.Sniper": {"at": "x09y05", "status": ["hidden"]}})  # fmt: skip
    draw(s, "us")
    assert "x07y03" in s.legal_action_strings()  # 2.8" from the Hidden sniper


# ------------------------------------------------------------------ Tank Support
@pytest.mark.parametrize(("side", "name", "x"), [("us", "us.Sherman2", 1), ("ger", "ger.PzIV2", 35)])
def test_tank_support_enters_from_the_friendly_table_edge(side, name, x):
    """004_fa8d850a9c124bb3.txt, Tank Support: "A single tank has become available to your force! The tank enters the game from
    your force's table edge. It has a Confident crew with a Troop Quality and Morale of d8." The mask is
    the outermost column of points on the side's edge (US: West, x01; Germans: East, x35), less a point
    held by an enemy unit."""
    seed_says(
        SEED_WWII,
        "The tank enters the game from your force's table edge.",
        "It has a Confident crew with a Troop Quality and Morale of d8.",
    )
    enemy = "ger.1" if side == "us" else "us.A"
    s = state("tank_support", units={"us.B": {"at": "x05y05"}, "ger.2": {"at": "x31y31"},
                                     enemy: {"at": f"x{x:02d}y35"}}, initiative=side)  # fmt: skip
    draw(s, side)
    assert (s.decision.kind, s.decision.player) == ("reinforce_point", s.SIDES.index(side))
    assert s.legal_action_strings() == [f"x{x:02d}y{y:02d}" for y in range(1, 35, 2)]  # y35: the enemy's
    s.apply(f"x{x:02d}y17")
    u = unit(s, name)
    assert (s.tq[u], s.morale[u]) == (8, 8) and s.figs[u][0] == 5
    assert s.sc.vehicles[u].crew_confidence == "confident" and s.veh[u].buttoned
    assert s.point_name(s.pos[u]) == f"x{x:02d}y17"


# ------------------------------------------------------------------ Hunted!
def test_hunted_gives_the_drawers_opponent_a_hidden_sniper_within_24_inches():
    """004_fa8d850a9c124bb3.txt, Hunted!: "Your opponent gains a sniper team that can be placed anywhere within 24" of one of your
    units. The sniper team is **In Cover** and **Hidden**. It is a two man team with a Troop Quality and
    Morale of D10." The US draws it: the GERMANS place their sniper team, on a woods point (the engine's Hidden is the
    woods' concealment) within 24" of a US unit (us.A at x01y35), not on a US unit's point (us.B at x09y33)."""
    seed_says(
        SEED_WWII,
        'Your opponent gains a sniper team that can be placed anywhere within 24" of one of your units.',
        "The sniper team is **In Cover** and **Hidden**. It is a two man team with a Troop Quality and Morale of D10.",
    )
    s = state("hunted", units={"us.A": {"at": "x01y35"}, "us.B": {"at": "x09y33"}, "ger.1": {"at": "x35y01"}})
    draw(s, "us")
    assert (s.decision.kind, s.decision.player) == ("reinforce_point", 1)  # the drawer's opponent
    legal = s.legal_action_strings()
    expected = {p for p in all_points() if in_woods(p) and p != "x09y33"
                and min(dist(p, "x01y35"), dist(p, "x09y33")) <= 24}  # fmt: skip
    assert set(legal) == expected
    assert "x09y09" in legal and "x09y07" not in legal  # 24" and 26" from us.B (farther from us.A)
    assert "x21y13" in legal and "x21y07" not in legal  # 23.3" and 28.6" from us.B (farther from us.A)
    assert "x03y35" not in legal and "x09y33" not in legal  # open ground; a US unit's point
    s.apply("x09y13")
    u = unit(s, "ger.Sniper")
    assert s.UNIT_SIDE[u] == 1 and s.point_name(s.pos[u]) == "x09y13"
    assert (s.tq[u], s.morale[u]) == (10, 10) and s.figs[u][0] == 2
    assert s.hidden[u] == 1 and s.in_cover[u] == 1
    assert played(s) == [("us", "hunted", "ger gains a Hidden sniper team")]
    assert unit(s, "us.Sniper") not in [t for t in range(s.NUM_UNITS) if s.pos[t] >= 0]


def _us_sees(s) -> tuple:
    v = ForceOnForceView()
    events = [e.to_dict() for e in s.events if v.event_visible(s, e, 0)]
    return (s.observation(0).tobytes(), json.dumps(view(s, 0), sort_keys=True), s.view_text(0), events)


def test_the_hunted_sniper_is_placed_in_secret_and_stays_hidden():
    """004_fa8d850a9c124bb3.txt, Hunted!: "The sniper team is **In Cover** and **Hidden**.": the hunted side sees that the card was played, never where
    the team went: its observation, view, text and visible events are the same whichever point the Germans
    choose, and the placing decision is secret from it; the team's observation row is the Hidden one."""
    seen = []
    for point in ("x09y13", "x21y31"):
        s = state("hunted", units={"us.A": {"at": "x01y35"}, "ger.1": {"at": "x35y01"}})
        draw(s, "us")
        assert view(s, 0)["decision"]["kind"] == "secret"
        s.apply(point)
        seen.append(_us_sees(s))
        row = s.observation(0)[unit_row(s.LAYOUT, 0, unit(s, "ger.Sniper")) :][:UNIT_FEATURES]
        assert row[14] == 1.0 and np.count_nonzero(row) == 1
        assert "ger.Sniper" not in json.dumps(view(s, 0)["board"])
    assert seen[0] == seen[1]


def test_positions_round_trip_a_hidden_sniper():
    """A position holding the placed sniper (status hidden, in woods) reads back: only the ambush rule's side
    hides otherwise (R27), Hunted!'s team too (rulings R70)."""
    s = state("hunted", units={"us.A": {"at": "x01y35"}, "ger.1": {"at": "x35y01"}})
    draw(s, "us")
    s.apply("x09y13")
    pos = s.to_position()
    assert pos["units"]["ger.Sniper"]["status"] == ["hidden", "in_cover"]
    again = game().state_from_position(pos)
    assert again.to_position() == pos


# ------------------------------------------------------------------ invisible before they enter
def test_a_reserve_is_invisible_to_the_opponent_before_it_enters():
    """A reserve not drawn is not in play: its row in the opponent's observation is all zeros (the AFV piece
    too, for the reserve tank), the opponent's view does not show it."""
    s = state(units={"us.A": {"at": "x03y03"}, "ger.1": {"at": "x31y31"}})
    obs = s.observation(0)
    at_v, _ = piece(s.LAYOUT, "vehicles")
    for name in ("ger.sMG", "ger.Schreck", "ger.PzIV2", "ger.Sniper"):
        row = obs[unit_row(s.LAYOUT, 0, unit(s, name)) :][:UNIT_FEATURES]
        assert not row.any(), name
        slot = s.SIDE_UNITS[0].__len__() + s.SIDE_UNITS[1].index(unit(s, name))
        assert not obs[at_v + VEHICLE_FEATURES * slot : at_v + VEHICLE_FEATURES * (slot + 1)].any(), name
    assert [u["id"] for u in view(s, 0)["board"]["units"]] == ["us.A", "ger.1"]


# ------------------------------------------------------------------ no reserve, or already in play
def test_a_unit_card_without_a_reserve_or_with_its_reserve_in_play_has_no_effect():
    """004_fa8d850a9c124bb3.txt, Browning's Buzz-Saw: "A Medium Machinegun (MMG) team has been dispatched to assist your force."
    A scenario that declares no such reserve, or whose reserve is already on the table, gets no unit: the
    card is discarded and its event says why (rulings R66, R70)."""
    data = scenario_data()
    data["units"] = [u for u in data["units"] if u["id"] != "us.MMG"]
    g = fof_env.make_game("force_on_force", scenario=data)
    s = state("brownings_buzz_saw", units={"us.A": {"at": "x03y03"}, "ger.1": {"at": "x31y31"}}, g=g)
    before = s.to_position()["units"]
    draw(s, "us")
    assert s.decision.kind == "select_unit" and s.to_position()["units"] == before
    assert played(s) == [
        (
            "us",
            "brownings_buzz_saw",
            "no reserve unit of us for it in this scenario: no effect (rulings R66, R70)",
        )
    ]
    s = state("brownings_buzz_saw", units={"us.A": {"at": "x03y03"}, "us.MMG": {"at": "x05y05"},
                                           "ger.1": {"at": "x31y31"}})  # fmt: skip
    draw(s, "us")
    assert s.decision.kind == "select_unit"
    assert played(s) == [("us", "brownings_buzz_saw", "us.MMG is already in play: no effect (rulings R70)")]


def test_malformed_reserves_are_refused_in_one_line():
    """A malformed reserve is a ScenarioError of one line naming the field (rulings R70)."""
    data = scenario_data()
    mmg = next(i for i, u in enumerate(data["units"]) if u["id"] == "us.MMG")
    bad = functools.partial(refused, data, "us.MMG")  # the MMG reserve changed as given: refused
    bad(lambda d, u: u.update(reserve="asset_card"), r"units\[6\]\.reserve: 'asset_card' is not one of")
    bad(lambda d, u: u.update(deploy={"edge": "west"}), r"units\[6\]\.deploy: a reserve unit enters when")
    bad(lambda d, u: u.update(tq=10), r"units\[6\]\.tq: 10 is not the d8 that Browning's Buzz-Saw gives")
    bad(lambda d, u: u.update(reserve="tank_busters"), r"already holds 'us.Bazooka' in reserve|needs support")
    bad(lambda d, u: u["figures"].pop(), r"units\[6\]\.figures: Browning's Buzz-Saw brings a two man team")
    bad(
        lambda d, u: d.pop("fog_of_war"), r"units\[6\]\.reserve: a reserve enters only when its card is drawn"
    )
    d = copy.deepcopy(data)
    d["units"].insert(mmg + 1, {**copy.deepcopy(d["units"][mmg]), "id": "us.MMG2"})
    with pytest.raises(
        ScenarioError, match=r"units\[7\]\.reserve: side 'us' already holds 'us.MMG' in reserve"
    ):
        scenario_from_dict(d, "hh.json")


# ------------------------------------------------------------------ the bots
@pytest.mark.parametrize("card", UNIT_CARDS)
def test_the_heuristic_places_every_reserve(card):
    """The generic heuristic answers every reserve's placement with a legal point (rulings R70)."""
    from agents.heuristic import make_heuristic

    for side in ("us", "ger"):
        s = state(card, units={"us.A": {"at": "x05y19"}, "ger.1": {"at": "x29y19"}}, initiative=side)
        draw(s, side)
        owner = s.decision.player
        assert s.decision.kind == "reinforce_point"
        action = make_heuristic(game(), owner, seed=0).act(s)
        assert action in s.legal_actions() and action != s.PASS
        s.apply(action)
        assert s.decision.kind == "select_unit"


def test_every_quotation_in_this_file_is_004s_words():
    """Each quotation these tests attribute to the seed (docs/rules/force_on_force.md lists them) is in it."""
    import ast

    from evaluation import rule_index

    text = seed_text(SEED_WWII)
    if text is None:
        pytest.skip("the seeds are not beside this checkout")
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    quotes = 0
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            doc = ast.get_docstring(node) or ""
            for piece in rule_index.SEED_REF.split(doc)[2:]:
                for quote in rule_index.QUOTE.findall(piece):
                    quotes += 1
                    assert " ".join(quote.split()) in text, (node.name, quote)
    assert quotes >= 9


def test_the_owner_sees_which_reserve_it_places_and_the_other_side_does_not():
    """During Browning's Buzz-Saw's placement the US observation's "unit asked" one-hot names us.MMG (so a
    learner knows which unit it places); the German observation's does not, and neither does the US one
    before the card is drawn."""
    s = state("brownings_buzz_saw", units={"us.A": {"at": "x03y03"}, "ger.1": {"at": "x31y31"}})
    d_at, _ = piece(s.LAYOUT, "decision")
    n = s.NUM_UNITS
    asked = d_at + BASE_KINDS + s.LAYOUT.extra_kinds + 2 * n  # the "unit asked" one-hot over the unit order

    def asked_units(player: int) -> list[int]:
        return [i for i in range(n) if s.observation(player)[asked + i]]

    assert asked_units(0) == []
    draw(s, "us")
    assert s.decision.kind == "reinforce_point"
    mmg_slot = s.SIDE_UNITS[0].index(unit(s, "us.MMG"))  # own units come first in the US order
    assert asked_units(0) == [mmg_slot] and asked_units(1) == []
