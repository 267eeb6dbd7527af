"""A Hidden unit shapes none of the other side's legal moves while WWII Fog of War cards are resolved
(rulings R70 (4), R72).

Seed ``004_fa8d850a9c124bb3.txt``, Hunted!: "The sniper team is **In Cover** and **Hidden**." Every test plays
"Hedgerow Hamlet" from a position whose deck is stacked (``fog_cards``); point names ``"x05y11"`` are read
as coordinates, so expected masks are computed from the names, not by the engine.
"""

from __future__ import annotations

import pytest

from fof_env import ScriptedDice
from fof_env.force_on_force.rules.wwii_fog import card_keys
from tests.force_on_force.hedgerow_helpers import all_points, deck_with, dist, draw, game, played, unit
from tests.force_on_force.helpers import SEED_WWII, area, seed_says, table_with, woods

WOODS = woods(14, 14, 22, 22)
OPEN_WITH_WOODS = table_with(WOODS)


def _watch_where_you_step(sniper: str | None):
    """An open table with one wood: us.A fires at ger.1, which answers; the dice 5 (us.A) and 1 (ger.1: the
    Germans draw Watch Where You Step!), then 2 (a random unit, were the Hidden sniper counted)."""
    units = {"us.A": {"at": "x05y05"}, "ger.1": {"at": "x13y05"}}
    if sniper is not None:
        units["ger.Sniper"] = {"at": sniper, "status": ["hidden", "in_cover"]}
    pos = {"turn": 1, "initiative": "us", "units": units, "table": OPEN_WITH_WOODS,
           "fog_cards": {"deck": deck_with("watch_where_you_step")}}  # fmt: skip
    s = game().state_from_position(pos, dice=ScriptedDice([5, 1, 2]))
    s.apply("us.A")
    s.apply("fire")
    s.apply("ger.1")
    while s.decision.kind == "declare_interrupt":  # ger.1 answers; the sniper (if any) keeps still
        s.apply("interrupt_fire" if s.decision.context.get("unit") == "ger.1" else "pass")
    return s


def test_watch_where_you_step_is_spotted_by_a_unit_the_opponent_knows():
    """004_fa8d850a9c124bb3.txt, Watch Where You Step!: "Randomly determine the unit that has spotted the
    explosive. Your opponent may place a marker at least 6" from that unit and at least 4" from nearby
    units." The opponent measures from units he knows: a Hidden unit neither spots the device nor keeps the
    marker 4" away (rulings R72). The Germans draw; their only unit the U.S. knows of is ger.1 (x13y05): it
    spots it, with no die; the marker goes 6" to 12" from it (R62) and 4" or more from us.A and ger.1,
    wherever the Hidden sniper is, and whether or not it is on the table."""
    seed_says(SEED_WWII, "Randomly determine the unit that has spotted the explosive.",
              'Your opponent may place a marker at least 6" from that unit and at least 4" from nearby')  # fmt: skip
    expected = [p for p in all_points() if 6 <= dist(p, "x13y05") <= 12
                and dist(p, "x05y05") >= 4 and dist(p, "x13y05") >= 4]  # fmt: skip
    masks = []
    for sniper in ("x15y15", "x19y19", None):
        s = _watch_where_you_step(sniper)
        assert (s.decision.kind, s.decision.player) == ("reinforce_point", 0)
        assert s.dice._pos == 2  # the two TQ dice: no die for the spotter
        assert s.cards.spotter == unit(s, "ger.1")
        masks.append(s.legal_actions())
        legal = s.legal_action_strings()
        assert sorted(legal[:-1]) == sorted(expected) and legal[-1] == "pass"
    assert "x13y15" in expected and "x17y13" in expected  # 4.5" and 2.8" from the sniper at x15y15
    assert masks[0] == masks[1] == masks[2]


def test_watch_where_you_step_with_only_hidden_units_has_no_effect():
    """004_fa8d850a9c124bb3.txt, Watch Where You Step!: "Randomly determine the unit that has spotted the
    explosive." When every active unit of the drawer is Hidden, no unit the opponent knows of has spotted
    anything: the card is discarded with no effect, and no die is rolled (rulings R72)."""
    pos = {"turn": 1, "initiative": "ger", "table": OPEN_WITH_WOODS,
           "units": {"us.A": {"at": "x05y05"},
                     "ger.Sniper": {"at": "x19y19", "status": ["hidden", "in_cover"]}},
           "fog_cards": {"deck": deck_with("watch_where_you_step")}}  # fmt: skip
    s = game().state_from_position(pos, dice=ScriptedDice([]))
    draw(s, "ger")
    why = "no unit the opponent knows of: no effect (rulings R72)"
    assert played(s) == [("ger", "watch_where_you_step", why)]
    assert s.cards.markers == () and s.cards.spotter == -1 and s.dice._pos == 0


# ---------------------------------------------------------------------- the general property
HIDE_AT = ("x15y15", "x19y19", "x21y15")  # woods points: legal hiding points of a Hunted! sniper (R70)
PROPERTY_TABLE = table_with(WOODS, area("building", 26, 4, 30, 8, "house"))
SIDES_UNITS = {
    "us": {"us.A": {"at": "x05y05"}, "us.B": {"at": "x07y29"}, "us.Doc": {"at": "x03y07"},
           "us.Sherman": {"at": "x03y17"}},
    "ger": {"ger.1": {"at": "x13y05"}, "ger.2": {"at": "x27y05"}, "ger.San": {"at": "x31y27"},
            "ger.PzIV": {"at": "x33y17"}},
}  # fmt: skip
SNIPER = {"us": "us.Sniper", "ger": "ger.Sniper"}


def _card_state(card: str, drawer: str, hider: str, hide_at: str):
    """``drawer`` about to draw ``card``; ``hider``'s Hunted! sniper Hidden at ``hide_at``; the other side has
    the initiative, so its next ordinary decision follows the card."""
    seer = "ger" if hider == "us" else "us"
    hidden = {SNIPER[hider]: {"at": hide_at, "status": ["hidden", "in_cover"]}}
    units = {**SIDES_UNITS["us"], **SIDES_UNITS["ger"], **hidden}
    pos = {"turn": 2, "initiative": seer, "units": units, "table": PROPERTY_TABLE, "seed": 7,
           "fog_cards": {"deck": deck_with(card)}}  # fmt: skip
    s = game().state_from_position(pos)
    draw(s, drawer)
    return s


def _same_masks(states, seer: int, where: str) -> None:
    first = states[0]
    for other in states[1:]:
        assert other.current_player == first.current_player, where
        if first.current_player == seer:
            assert other.decision.kind == first.decision.kind, where
            assert other.legal_actions() == first.legal_actions(), (where, first.decision.kind)


def _activations_match(states, seer: int, where: str) -> None:
    """Every unit the seer may activate: its action menu, and the move and fire masks that follow."""
    for a in states[0].legal_actions():
        if a == states[0].PASS:
            continue
        picked = [s.clone() for s in states]
        for s in picked:
            s.apply(a)
        _same_masks(picked, seer, f"{where}, {states[0].action_to_str(a)}")
        for b in picked[0].legal_actions():
            name = picked[0].action_to_str(b)
            if name not in ("move", "fire"):
                continue
            acted = [s.clone() for s in picked]
            for s in acted:
                s.apply(b)
            _same_masks(acted, seer, f"{where}, {states[0].action_to_str(a)} {name}")


@pytest.mark.parametrize("hider", ["ger", "us"])
@pytest.mark.parametrize("drawer", ["us", "ger"])
@pytest.mark.parametrize("card", sorted(set(card_keys())))
def test_no_card_lets_a_hidden_unit_shape_the_other_sides_masks(card, drawer, hider):
    """004_fa8d850a9c124bb3.txt, Hunted! (rulings R70 (4), R72): "The sniper team is **In Cover** and
    **Hidden**." -- for every card of the deck, drawn by either side, every decision of the side the sniper
    hides from has the same mask whichever legal hiding point (a woods point) the sniper holds: the card's
    own decisions, then that side's next ordinary decision, each unit it may activate and that unit's move
    and fire masks. The hiding side's decisions take an action legal in every game, so the games stay in
    step."""
    seer = 0 if hider == "ger" else 1
    states = [_card_state(card, drawer, hider, p) for p in HIDE_AT]
    for step in range(40):
        where = f"{card} drawn by {drawer}, step {step}"
        _same_masks(states, seer, where)
        s0 = states[0]
        if s0.is_terminal:
            return
        if s0.current_player == seer and s0.decision.kind == "select_unit":
            _activations_match(states, seer, where)
            return
        legal = sorted(set.intersection(*(set(s.legal_actions()) for s in states)))
        assert legal, where
        act = next((a for a in legal if a != s0.PASS), legal[0])  # a card's "may": play it
        for s in states:
            s.apply(act)
    raise AssertionError(f"{card}: the seer's next activation never came")


def test_fire_fire_evacuees_run_into_a_hidden_unit_rather_than_around_it():
    """004_fa8d850a9c124bb3.txt, Fire! Fire!: "Any figures in the building must immediately evacuate to a
    point at least 4" from the building." The evacuee goes to the nearest such point (R62); a Hidden enemy's
    point is no exception, or the move would show where the enemy hides: us.A (x27y05, in the house) runs to
    x23y01 (5.7", the nearest point 4" clear of the house: 4.2" from its corner), whether the Hidden sniper
    stands there (us.A runs into it and reveals it, as any move onto a Hidden unit's point does: rulings
    R27, R72) or at x19y01."""
    seed_says(SEED_WWII, 'Any figures in the building must immediately evacuate to a point at least 4" from the')
    table = table_with(area("building", 26, 4, 30, 8, "house"), woods(18, 0, 24, 2))
    for sniper in ("x23y01", "x19y01"):
        pos = {"turn": 1, "initiative": "ger", "table": table,
               "units": {"us.A": {"at": "x27y05"}, "ger.1": {"at": "x31y13"},
                         "ger.Sniper": {"at": sniper, "status": ["hidden", "in_cover"]}},
               "fog_cards": {"deck": deck_with("fire_fire")}}  # fmt: skip
        s = game().state_from_position(pos, dice=ScriptedDice([]))
        draw(s, "ger")
        assert (s.decision.kind, s.decision.player) == ("reinforce_point", 1)
        s.apply("x27y05")
        assert s.point_name(s.pos[unit(s, "us.A")]) == "x23y01"
        assert s.hidden[unit(s, "ger.Sniper")] == (sniper != "x23y01")
