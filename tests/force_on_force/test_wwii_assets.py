"""Asset Cards: Where'd THEY Come From? and Unexpected Help! (rules/wwii_reserves.py, rulings R71).

Seed ``004_fa8d850a9c124bb3.txt`` ("Generic WWII Fog of War Cards"). No seed lists an Asset Card, so a side's
Asset Cards are reconstructed as the units its scenario declares with ``"reserve": "asset"``: in "Hedgerow
Hamlet" us.C and us.LMG for the US, ger.3 and ger.LMG for the Germans. Every test plays a position whose deck
is stacked, with scripted dice (the draw among two assets is one d2).
"""

from __future__ import annotations

import copy

import pytest

from fof_env.core.view import view
from fof_env.force_on_force.constants import BASE_KINDS
from fof_env.force_on_force.observation import piece
from fof_env.force_on_force.rules.wwii_fog import card_keys, card_specs
from fof_env.force_on_force.scenario import scenario_from_dict
from tests.force_on_force.hedgerow_helpers import (
    all_points,
    dist,
    draw,
    game,
    play_random,
    played,
    refused,
    scenario_data,
    state,
    unit,
)
from tests.force_on_force.helpers import SEED_WWII, seed_says

ASSETS = {"us": ("us.C", "us.LMG"), "ger": ("ger.3", "ger.LMG")}


def test_the_asset_cards_are_a_marked_reconstruction():
    """004_fa8d850a9c124bb3.txt, Unexpected Help!: "Your may draw an Asset Card." No seed lists Asset Cards: the deck file
    marks both cards as a reconstruction, and Hedgerow Hamlet declares two asset units a side, off the table,
    with the side's own D8 Troop Quality and Morale (rulings R71)."""
    seed_says(SEED_WWII, "Your may draw an Asset Card.", "Your opponent may draw an Asset Card.")
    g = game()
    assets = [g.layout.unit_names[u] for u, card in enumerate(g.setup.reserves) if card == "asset"]
    assert assets == ["us.C", "us.LMG", "ger.3", "ger.LMG"]
    specs = {c.key: c for c in card_specs()}
    for key in ("whered_they_come_from", "unexpected_help"):
        assert (specs[key].effect, specs[key].status, specs[key].count) == (
            "asset",
            "asset_reconstruction",
            2,
        )
    assert any("RECONSTRUCTION" in note and "R71" in note for note in scenario_data()["design_notes"])
    s = g.new_initial_state(0)
    for name in assets:
        u = unit(s, name)
        assert s.pos[u] == -1 and not any(s.figs[u])


def test_whered_they_come_from_gives_the_drawers_opponent_an_asset_near_his_units():
    """004_fa8d850a9c124bb3.txt, Where'd THEY Come From?: "Your opponent may draw an Asset Card. The asset described on the card becomes
    available to your opponent immediately and may be placed anywhere on the table within 6" of one of his
    units and no closer than 6" from one of yours." The US draw it: the GERMANS draw one of their two assets
    (a d2: 2 is ger.LMG) and place it within 6" of ger.1 (x29y19), 6" or more from us.A (x21y19)."""
    seed_says(
        SEED_WWII,
        "The asset described on the card becomes available to your opponent immediately and may be placed anywhere",
        'within 6" of one of his units and no closer than 6" from one of yours.',
    )
    s = state("whered_they_come_from", units={"us.A": {"at": "x21y19"}, "ger.1": {"at": "x29y19"}}, rolls=[2])
    draw(s, "us")
    assert (s.decision.kind, s.decision.player) == ("reinforce_point", 1)
    legal = s.legal_action_strings()
    assert "pass" not in legal  # the asset comes; only where is chosen
    assert set(legal) == {p for p in all_points() if dist(p, "x29y19") <= 6 and dist(p, "x21y19") >= 6}
    assert "x29y25" in legal and "x29y27" not in legal  # 6" and 8" from ger.1
    assert "x27y19" in legal and "x25y19" not in legal  # 6" and 4" from us.A
    s.apply("x33y19")
    u = unit(s, "ger.LMG")
    assert s.point_name(s.pos[u]) == "x33y19" and s.figs[u][0] == 3
    assert (s.tq[u], s.morale[u]) == (8, 8)  # the Germans' D8: an asset keeps the scenario's stats
    assert s.support[u] == (2,)  # "MG34, MG42, Browning .30 (or any fed LMG): +2 Weapon Team dice"
    assert played(s) == [("us", "whered_they_come_from", "ger.LMG enters at x33y19")]
    assert s.pos[unit(s, "ger.3")] == -1 and s.cards.asset == -1


def test_unexpected_help_gives_the_drawer_an_asset_near_his_own_units():
    """004_fa8d850a9c124bb3.txt, Unexpected Help!: "The asset described on the card becomes available immediately and may be
    placed anywhere on the table within 6" of one of your units and no closer than 6" from any of your
    opponent's units." The US draw it and draw their asset (d2: 1 is us.C), placed within 6" of us.A
    (x05y05) or us.B (x05y27), 6" or more from ger.1 (x11y05); the team may act at once."""
    seed_says(
        SEED_WWII,
        'placed anywhere on the table within 6" of one of your units and no closer than 6" from any of your '
        "opponent's units.",
    )
    s = state("unexpected_help", rolls=[1],
              units={"us.A": {"at": "x05y05"}, "us.B": {"at": "x05y27"}, "ger.1": {"at": "x11y05"}})  # fmt: skip
    draw(s, "us")
    assert (s.decision.kind, s.decision.player) == ("reinforce_point", 0)
    legal = s.legal_action_strings()
    near = {p for p in all_points() if min(dist(p, "x05y05"), dist(p, "x05y27")) <= 6}
    assert set(legal) == {p for p in near if dist(p, "x11y05") >= 6}
    assert "x05y33" in legal and "x05y35" not in legal  # 6" and 8" from us.B
    assert "x05y05" in legal and "x07y05" not in legal  # 6" and 4" from ger.1
    s.apply("x03y09")
    u = unit(s, "us.C")
    assert s.point_name(s.pos[u]) == "x03y09" and s.figs[u][0] == 4 and (s.tq[u], s.morale[u]) == (8, 8)
    assert played(s) == [("us", "unexpected_help", "us.C enters at x03y09")]
    assert s.decision.kind == "select_unit" and "us.C" in s.legal_action_strings()


def test_the_last_asset_is_drawn_without_a_roll_and_none_left_has_no_effect():
    """Each asset not yet in play is as likely; with one left it comes without a roll (the scripted dice hold
    none), and with none left the card is discarded with no effect and its event says why (rulings R66,
    R71)."""
    s = state("unexpected_help", units={"us.A": {"at": "x05y05"}, "us.C": {"at": "x07y07"},
                                        "ger.1": {"at": "x29y19"}})  # fmt: skip
    draw(s, "us")
    s.apply("x03y05")
    assert s.point_name(s.pos[unit(s, "us.LMG")]) == "x03y05"
    s = state("unexpected_help", units={"us.A": {"at": "x05y05"}, "us.C": {"at": "x07y07"},
                                        "us.LMG": {"at": "x09y09"}, "ger.1": {"at": "x29y19"}})  # fmt: skip
    before = s.to_position()["units"]
    draw(s, "us")
    assert s.decision.kind == "select_unit" and s.to_position()["units"] == before
    assert played(s) == [("us", "unexpected_help", "no Asset Card of us left in this scenario: no effect "
                                                   "(rulings R66, R71)")]  # fmt: skip
    assert s.cards.discards == (card_keys().index("unexpected_help"),)


def test_no_point_clear_of_the_enemy_has_no_effect():
    """us.A in the corner (x01y01) with ger.1 at x03y03: every point within 6" of us.A is closer than 6" to
    ger.1, so the asset has nowhere to go: no effect (rulings R71)."""
    s = state("unexpected_help", units={"us.A": {"at": "x01y01"}, "ger.1": {"at": "x03y03"}})
    draw(s, "us")
    assert s.decision.kind == "select_unit"
    assert played(s) == [
        ("us", "unexpected_help", "no point where us may place an asset: no effect (rulings R71)")
    ]
    assert all(s.pos[unit(s, name)] == -1 for name in ASSETS["us"])


def test_a_hidden_enemy_does_not_shape_the_asset_mask():
    """ "no closer than 6" from any of your opponent's units": only enemies the placing side knows of count; a
    Hidden sniper 2.8" from x07y03 leaves that point legal (rulings R70, R71)."""
    s = state("unexpected_help", rolls=[1], units={"us.A": {"at": "x03y03"}, "ger.1": {"at": "x35y35"},
                                                   "ger.Sniper": {"at": "x09y05", "status": ["hidden"]}})  # fmt: skip
    draw(s, "us")
    assert "x07y03" in s.legal_action_strings()


def test_the_receiver_sees_which_asset_it_places_and_the_other_side_does_not():
    """During the placement the receiver's observation names the asset drawn in its "unit asked" one-hot;
    the drawer's does not; both views show whose decision it is."""
    s = state("whered_they_come_from", rolls=[1], units={"us.A": {"at": "x21y19"}, "ger.1": {"at": "x29y19"}})
    d_at, _ = piece(s.LAYOUT, "decision")
    n = s.NUM_UNITS
    asked = d_at + BASE_KINDS + s.LAYOUT.extra_kinds + 2 * n

    def asked_units(player: int) -> list[int]:
        return [i for i in range(n) if s.observation(player)[asked + i]]

    draw(s, "us")
    assert s.cards.asset == unit(s, "ger.3")
    assert asked_units(1) == [s.SIDE_UNITS[1].index(unit(s, "ger.3"))] and asked_units(0) == []
    assert view(s, 1)["decision"]["kind"] == "reinforce_point"


def test_malformed_assets_are_refused_in_one_line():
    """An asset needs the WWII deck and is not deployed at set-up; unlike a card reserve it keeps the
    scenario's Troop Quality and Morale, and a side may hold several (rulings R71)."""
    data = scenario_data()  # without its card reserves: a scenario may hold assets alone
    data["units"] = [u for u in data["units"] if u.get("reserve") in (None, "asset")]
    i = next(k for k, u in enumerate(data["units"]) if u["id"] == "us.C")
    refused(data, "us.C", lambda d, u: u.update(deploy={"edge": "west"}),
            rf"units\[{i}\]\.deploy: a reserve unit enters when its Asset Card is drawn")  # fmt: skip
    refused(data, "us.C", lambda d, u: d.pop("fog_of_war"),
            rf"units\[{i}\]\.reserve: a reserve enters only when its card")  # fmt: skip
    d = copy.deepcopy(data)
    d["units"][i]["tq"] = 10
    sc = scenario_from_dict(d, "hh.json")
    assert sc.unit("us.C").tq == 10


@pytest.mark.parametrize("card", ["whered_they_come_from", "unexpected_help"])
def test_the_heuristic_places_every_asset(card):
    """The generic heuristic answers an asset's placement with a legal point (rulings R71)."""
    from agents.heuristic import make_heuristic

    for side in ("us", "ger"):
        s = state(
            card, rolls=[2], units={"us.A": {"at": "x05y19"}, "ger.1": {"at": "x29y19"}}, initiative=side
        )
        draw(s, side)
        owner = s.decision.player
        receiver = s.SIDES.index(side) ^ (card == "whered_they_come_from")
        assert (s.decision.kind, owner) == ("reinforce_point", receiver)
        action = make_heuristic(game(), owner, seed=0).act(s)
        assert action in s.legal_actions() and action != s.PASS
        s.apply(action)
        assert s.decision.kind == "select_unit"
        assert s.pos[unit(s, ASSETS[s.SIDES[owner]][1])] >= 0


def test_both_sides_play_whole_games_with_the_assets():
    """Random play from many seeds draws assets for both sides with every mask non-empty (the fuzz's invariants
    run in ``python -m evaluation.fuzz --game wwii_hedgerow_hamlet``)."""
    entered = set()
    for seed in range(40):
        s = play_random(seed)
        entered |= {name for names in ASSETS.values() for name in names if any(s.figs[unit(s, name)])}
    assert {n.split(".")[0] for n in entered} == {"us", "ger"}
