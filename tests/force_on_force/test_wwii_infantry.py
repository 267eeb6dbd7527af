"""The WWII infantry rule modules ``wwii_first_aid`` and ``wwii_mg_teams`` (rules/wwii.py, rulings R43-R48)
on "Hedgerow Hamlet" positions.

Seed: 004_fa8d850a9c124bb3.txt, "FIRST AID CHECKS (WWII)", "MEDICS AND CORPSMEN (WWII)", "Calling for a
medic" and "World War Two Weapon Teams".

Players: 0 = ``us`` (``us.A``, ``us.B`` 4 rifles; ``us.BAR`` 3 figures, a BAR (``mg: box``); ``us.HQ``;
``us.Doc`` the aid man, one ``medic`` figure), 1 = ``ger`` (``ger.MG`` 3 figures, an MG42 (``mg: belt_lmg``);
``ger.1``, ``ger.2`` 4 rifles; ``ger.San`` the Sanitaeter). D8 Troop Quality and Morale, normal supply, no
body armour. Positions stand on an open 36" x 36" table (2" grid, no terrain) and list only the units in
play. The first aid checks are made at the start of a turn: a position of turn 1 in which every unit has
activated runs on to turn 2 at once; its dice are the initiative dice (half the side's active units, rounded
down, D8 each: none with one unit a side), then the first aid checks (one D6 per casualty, unit order), then
the TQ check of a unit that lost a man killed (one D8, 4+ passes).
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import fof_env
from fof_env import ScriptedDice
from fof_env.force_on_force.constants import EVAC_SERIOUS, GONE, KIA, LIGHT, OK, SERIOUS
from fof_env.force_on_force.rules.wwii import MEDIC_TABLE, STANDARD_TABLE

from .helpers import dice_used, fires, open_table, script, unit

US, GER = 0, 1
OPEN = open_table()
SCENARIO = Path(fof_env.__file__).parent / "force_on_force" / "scenarios" / "hedgerow_hamlet.json"


@cache
def hamlet(**options: Any):
    return fof_env.make_game("wwii_hedgerow_hamlet", **options)


def hamlet_state(
    units: dict[str, dict],
    rolls: list[int] | None = None,
    *,
    turn: int = 1,
    initiative: str = "us",
    portion: str = "initiative",
    table: dict | None = OPEN,
    **options: Any,
):
    """An ``activation`` position of "Hedgerow Hamlet" on the open table (``table=None``: the scenario's own,
    whose buildings the victory points need); ``rolls``: scripted dice from the start (the position runs on
    until its first decision)."""
    pos = {"stage": "activation", "turn": turn, "initiative": initiative, "portion": portion, "units": units}
    if table is not None:
        pos["table"] = table
    dice = ScriptedDice(rolls) if rolls is not None else None
    return hamlet(**options).state_from_position(pos, dice=dice)


def done(at: str, ok: int, status: tuple[str, ...] = (), **kw: Any) -> dict:
    """A unit that has activated this turn (so the turn ends at once)."""
    return unit(at, ok, status=["activated", *status], **kw)


def rid(state, name: str) -> int:
    return state.UNIT_NAMES.index(name)


def figs(state, name: str) -> dict[str, int]:
    f = state.figs[rid(state, name)]
    return {"ok": f[OK], "light": f[LIGHT], "serious": f[SERIOUS], "kia": f[KIA], "gone": f[GONE]}


# ------------------------------------------------------------------ the WWII First Aid table (R43)
def test_the_standard_wwii_first_aid_table():
    """004: "roll for each figure hit by enemy fire on the First Aid table": 1-2 "Dead", 3-4 "Serious wound",
    5 "Light wound, walking wounded", 6 "OK, gets back up!"."""
    assert STANDARD_TABLE[1:] == ("dead", "dead", "serious", "serious", "walking_wounded", "ok")


def test_first_aid_checks_are_rolled_at_the_start_of_the_next_turn():
    """004: "Units who are making a first aid check for casualties at the start of a turn may call for a
    medic": us.A (2 unhurt, 4 down) checks at the start of turn 2 (no initiative dice: one unit a side).
    Rolls 2, 3, 5, 6: one dead, one serious, one walking wounded (his owner decides), one back up. The serious
    wound: "Unit may only react to fire this turn" (no TQ check is rolled for the dead man then, R44)."""
    s = hamlet_state({"us.A": done("x05y05", 2, down=4), "ger.1": done("x31y05", 4)}, [2, 3, 5, 6])
    assert s.turn == 2 and s.decision_kind == "walking_wounded" and s.current_player == US
    assert s.decision.context["unit"] == "us.A" and s.legal_action_strings() == ["hold", "exit"]
    assert dice_used(s) == 4
    s.apply("hold")
    assert figs(s, "us.A") == {"ok": 3, "light": 1, "serious": 1, "kia": 1, "gone": 0}
    assert s.react_only[rid(s, "us.A")] == 1


def test_a_dead_man_unit_that_passes_its_tq_check_acts_normally():
    """004: "1 - Dead. Unit may act as normal if it passes a TQ check.": us.A rolls 1 (dead) on its first aid
    check, then 4 on its TQ check (D8, 4+): it passes and may be selected."""
    s = hamlet_state({"us.A": done("x05y05", 3, down=1), "ger.1": done("x31y05", 4)}, [1, 4])
    assert figs(s, "us.A") == {"ok": 3, "light": 0, "serious": 0, "kia": 1, "gone": 0}
    assert s.react_only[rid(s, "us.A")] == 0 and dice_used(s) == 2
    s.apply("pass")  # no Overwatch
    assert s.decision_kind == "select_unit" and "us.A" in s.legal_action_strings()


def test_a_dead_man_unit_that_fails_its_tq_check_may_only_react_to_fire():
    """004: "If not, it may only react fire to fire this turn, but may act normally next turn.": us.A rolls 2
    (dead), then 3 on its TQ check: it fails, takes no Overwatch and is never selected this turn; the flag
    clears at the end of the turn."""
    s = hamlet_state(
        {"us.A": done("x05y05", 3, down=1), "us.B": done("x05y15", 4), "ger.1": done("x31y05", 4)}, [1, 2, 3]
    )  # US initiative die (2 units: 1D8), us.A's check 2, its TQ check 3
    assert figs(s, "us.A")["kia"] == 1 and s.react_only[rid(s, "us.A")] == 1 and dice_used(s) == 3
    assert s.decision_kind == "declare_overwatch" and s.legal_action_strings() == ["us.B", "pass"]
    s.apply("pass")
    assert s.decision_kind == "select_unit" and s.legal_action_strings() == ["us.B", "pass"]


def test_a_react_only_unit_may_fire_back_but_not_move_or_interrupt_a_move():
    """004: "Unit may only react to fire this turn.": us.A (react_only) is not asked anything when ger.1
    moves; when ger.1 fires at it, it may interrupt with fire but not move (R44)."""
    units = {"us.A": unit("x05y05", 4, status=["react_only"]), "ger.1": unit("x31y05", 4)}
    s = hamlet_state(units, turn=2, initiative="ger")
    for action in ("ger.1", "move"):
        s.apply(action)
    script(s, [1] * 20)
    s.apply("x29y05")
    assert s.decision_kind != "declare_interrupt"  # us.A was not asked
    s = hamlet_state(units, turn=2, initiative="ger")
    for action in ("ger.1", "fire", "us.A"):
        s.apply(action)
    assert s.decision_kind == "declare_interrupt" and s.decision.context["unit"] == "us.A"
    assert s.legal_action_strings() == ["pass", "interrupt_fire"]
    regular = hamlet_state({"us.A": unit("x05y05", 4), "ger.1": unit("x31y05", 4)}, turn=2, initiative="ger")
    for action in ("ger.1", "fire", "us.A"):
        regular.apply(action)
    assert regular.legal_action_strings() == ["pass", "interrupt_fire", "interrupt_move"]


def test_react_only_is_a_position_status_and_clears_at_the_end_of_the_turn():
    """004: "but may act normally next turn": a react_only unit's flag round-trips through positions and is
    gone at the next turn."""
    s = hamlet_state(
        {"us.A": unit("x05y05", 4, status=["react_only", "activated"]), "ger.1": done("x31y05", 4)}, turn=1
    )
    assert s.turn == 2 and s.react_only == [0] * s.NUM_UNITS
    t = hamlet_state({"us.A": unit("x05y05", 4, status=["react_only"]), "ger.1": unit("x31y05", 4)}, turn=2)
    assert t.to_position()["units"]["us.A"]["status"] == ["react_only"]


# ------------------------------------------------------------------ walking wounded (R46)
def test_a_walking_wounded_man_may_go_to_the_rear_without_penalty():
    """004: "Walking Wounded in a WWII game may be removed from play without penalty to their unit.": us.A
    rolls 5 for its one casualty; its owner answers ``exit``: the figure is gone, the unit is not slowed
    (no TQ check to move faster than Tactical) and the Germans score nothing for him."""
    s = hamlet_state({"us.A": done("x05y05", 3, down=1), "ger.1": done("x35y35", 4)}, [5], table=None)
    assert s.decision_kind == "walking_wounded"
    s.apply("exit")
    assert figs(s, "us.A") == {"ok": 3, "light": 0, "serious": 0, "kia": 0, "gone": 1}
    assert s.react_only[rid(s, "us.A")] == 0 and not s._slowed(rid(s, "us.A"))
    assert s.victory_points() == (0, 0)


def test_a_walking_wounded_man_who_stays_fights_with_the_casualty_penalty():
    """004: "If desired, a Walking Wounded figure may also remain with his unit and contribute to its
    Firepower. The unit will suffer from the Casualties penalty, however.": us.A (3 unhurt) rolls 5 and its
    owner answers ``hold``: 4 effective figures, 4 firepower dice, and a Rapid move now needs a TQ check (D8:
    3 fails, a Tactical move only)."""
    s = hamlet_state({"us.A": done("x05y05", 3, down=1), "ger.1": done("x31y05", 4)}, [5])
    s.apply("hold")
    u = rid(s, "us.A")
    assert figs(s, "us.A")["light"] == 1 and s.effective(u) == 4 and s.fire_capacity(u) == 4
    s.apply("pass")  # no Overwatch
    for action in ("us.A", "move"):
        s.apply(action)
    script(s, [3])
    s.apply("x17y05")  # 12": Rapid
    assert dice_used(s) == 1 and s.decision_kind == "move_target" and s.decision.context["tactical_only"]


def test_a_seriously_wounded_man_may_be_escorted_to_the_rear_not_to_a_medic():
    """004: "The injured man may be escorted to the rear or to a medic.": us.A (3 unhurt, 1 seriously wounded,
    3" from the West edge) may ``escort`` at its activation: one effective figure takes the wounded man off
    the table (R26), and he still counts for the Germans' victory points. No action escorts him to a medic:
    a medic treats wounded only when called at a first aid check, which a serious wound has had (rulings R50)."""
    s = hamlet_state({"us.A": unit("x03y05", 3, serious=1), "ger.1": unit("x35y35", 4)}, [])
    assert s.decision_kind == "select_unit"
    s.apply("us.A")
    legal = s.legal_action_strings()
    assert "escort" in legal and not [a for a in legal if "medic" in a]
    s.apply("escort")
    f = s.figs[rid(s, "us.A")]
    assert (f[OK], f[SERIOUS], f[GONE], f[EVAC_SERIOUS]) == (2, 0, 1, 1)


# ------------------------------------------------------------------ medics (R45, R47)
def test_the_medic_table():
    """004: "units whose wounded are treated by a medic roll on the table below": 1 "Dead", 2-3 "Serious
    wound", 4-5 "Light wound, walking wounded", 6 "OK, gets back up!"."""
    assert MEDIC_TABLE[1:] == ("dead", "serious", "serious", "walking_wounded", "walking_wounded", "ok")


def test_a_unit_calls_a_medic_within_rapid_movement_distance():
    """004: "may call for a medic to treat them if a medic figure is within Rapid Movement distance. The medic
    is immediately moved to the unit with casualties": us.Doc, 10" from us.A, is called (US initiative: 2
    units, one D8: 1), moves onto us.A's point, and us.A's 4 casualties roll on the Medic table: 1 dead,
    3 serious, 4 walking wounded (his owner sends him to the rear), 6 back up."""
    units = {"us.A": done("x05y05", 2, down=4), "us.Doc": done("x15y05", 1), "ger.1": done("x31y05", 4)}
    s = hamlet_state(units, [1, 1, 3, 4, 6])
    assert s.decision_kind == "call_medic" and s.current_player == US
    assert s.decision.context == {"turn": 2, "initiative": "us", "unit": "us.A", "casualties": 4}
    assert s.legal_action_strings() == ["us.Doc", "pass"]
    s.apply("us.Doc")
    assert s.pos[rid(s, "us.Doc")] == s.pos[rid(s, "us.A")]
    assert s.decision_kind == "walking_wounded"
    s.apply("exit")
    assert figs(s, "us.A") == {"ok": 3, "light": 0, "serious": 1, "kia": 1, "gone": 1}
    assert dice_used(s) == 5  # no TQ check: the serious wound already holds the unit to reacting


def test_a_medic_not_called_leaves_the_standard_table():
    """004: "may call for a medic": the owner may decline (``pass``): the same rolls 1, 3, 4, 6 on the standard
    table give 1 dead, 2 serious, 1 back up, and the medic stays where he is."""
    units = {"us.A": done("x05y05", 2, down=4), "us.Doc": done("x15y05", 1), "ger.1": done("x31y05", 4)}
    s = hamlet_state(units, [1, 1, 3, 4, 6])
    s.apply("pass")
    assert figs(s, "us.A") == {"ok": 3, "light": 0, "serious": 2, "kia": 1, "gone": 0}
    assert s.table.name(s.pos[rid(s, "us.Doc")]) == "x15y05"


def test_a_medic_beyond_rapid_movement_distance_cannot_be_called():
    """004: "if a medic figure is within Rapid Movement distance": us.Doc 14" from us.A is too far: no
    ``call_medic`` decision; us.A's casualty rolls 4 on the standard table: serious."""
    units = {"us.A": done("x05y05", 3, down=1), "us.Doc": done("x19y05", 1), "ger.1": done("x31y05", 4)}
    s = hamlet_state(units, [1, 4])
    assert s.decision_kind == "declare_overwatch" and figs(s, "us.A")["serious"] == 1


def test_a_medic_treats_the_wounded_of_one_unit_per_turn():
    """004: "A medic may only treat the wounded of ONE unit per turn.": us.A calls us.Doc (rolls 4: walking
    wounded, kept); us.B, also within 12" of him, is not offered him: its casualty rolls 2 on the standard
    table: dead (on the Medic table it would be serious), then its TQ check 5 passes."""
    units = {"us.A": done("x05y05", 3, down=1), "us.B": done("x05y15", 3, down=1), "us.Doc": done("x11y11", 1),
             "ger.1": done("x31y05", 4)}  # fmt: skip
    s = hamlet_state(units, [1, 4, 2, 5])  # 3 US units: one initiative D8
    assert s.legal_action_strings() == ["us.Doc", "pass"]
    s.apply("us.Doc")
    s.apply("hold")
    assert figs(s, "us.A")["light"] == 1
    assert s.decision_kind == "declare_overwatch"  # us.B was not asked: no medic left for it
    assert figs(s, "us.B")["kia"] == 1 and s.react_only[rid(s, "us.B")] == 0 and dice_used(s) == 4


def test_a_unit_with_a_medic_attached_uses_the_medic_table_automatically():
    """004: "Units with medics attached automatically benefit from his presence.": us.A has a medic with it
    (the Fog of War medic status): no call; its casualty rolls 2 on the Medic table: serious, not dead."""
    units = {"us.A": done("x05y05", 3, down=1, status=("medic",)), "us.Doc": done("x09y05", 1),
             "ger.1": done("x31y05", 4)}  # fmt: skip
    s = hamlet_state(units, [1, 2])
    assert s.decision_kind == "declare_overwatch" and figs(s, "us.A")["serious"] == 1


def test_a_medic_figure_does_not_shoot():
    """004: "Medics and Corpsmen in the Second World War received life-saving training" (R47: a medic, role
    ``medic``, is unarmed): the aid man alone has no firepower and may not fire."""
    s = hamlet_state({"us.Doc": unit("x05y05", 1), "ger.1": unit("x15y05", 4)}, turn=2)
    u = rid(s, "us.Doc")
    assert s.fire_capacity(u) == 0 and s.shooting_figures(u) == 0
    s.apply("us.Doc")
    assert "fire" not in s.legal_action_strings()


def test_unassessed_casualties_at_the_end_of_the_game_roll_on_the_wwii_table():
    """004: "roll for each figure hit by enemy fire on the First Aid table": casualties still down at the end
    of turn 8 are rolled then (R43): us.A's two roll 2 (dead) and 5 (walking wounded, he stays: no choice)."""
    s = hamlet_state(
        {"us.A": done("x05y05", 2, down=2), "ger.1": done("x35y35", 4)}, [2, 5], turn=8, table=None
    )
    assert s.is_terminal and figs(s, "us.A") == {"ok": 2, "light": 1, "serious": 0, "kia": 1, "gone": 0}
    assert s.victory_points() == (0, 1)


# ------------------------------------------------------------------ MG weapon teams (R48)
def test_a_belt_fed_mg42_team_adds_two_weapon_team_dice():
    """004: "MG34, MG42, Browning .30 (or any fed LMG): +2 Weapon Team dice": ger.MG (3 figures, an MG42) has
    3 + 2 = 5 firepower dice; after a Tactical move 4 (a Medium weapon that moved: one die), after a Rapid move
    3 + 0 - 1 = 2 (003: no Support Weapon dice after a Rapid move, -1 for the Rapid move)."""
    s = hamlet_state({"us.A": unit("x05y05", 4), "ger.MG": unit("x31y05", 3)}, turn=2, initiative="ger")
    u = rid(s, "ger.MG")
    assert s.support[u] == (2,) and s.fire_capacity(u) == 5
    s.moved[u] = 1
    assert s.fire_capacity(u) == 4
    s.moved[u] = 2
    assert s.fire_capacity(u) == 2


def test_a_box_fed_bar_team_adds_one_weapon_team_die():
    """004: "Bren/BAR/FM-24 (or any box magazine fed weapon): +1 Weapon Team die": us.BAR (3 figures) has 3 + 1 =
    4 dice; it fires at ger.1 26" away (beyond Optimum Range, 2 x 8" for the BAR), which stands in the open
    (Exposed, 003: +1 die): the FireResolved event shows 3 + 1 + 1 = 5 firepower dice."""
    s = hamlet_state({"us.BAR": unit("x05y05", 3), "ger.1": unit("x31y05", 4)}, turn=2)
    assert s.fire_capacity(rid(s, "us.BAR")) == 4
    for action in ("us.BAR", "fire", "ger.1"):
        s.apply(action)
    script(s, [1] * 20)
    while s.decision_kind == "declare_interrupt":
        s.apply("pass")
    assert [(f.shooter, f.firepower) for f in fires(s)] == [("us.BAR", 5)]


def _scenario_with(mg: str | None, mg_teams: bool = True) -> dict:
    data = json.loads(SCENARIO.read_text())
    data = copy.deepcopy(data)
    mg_team = next(u for u in data["units"] if u["id"] == "ger.MG")
    gunner = mg_team["figures"][0]
    gunner["support"] = None
    if mg is None:
        gunner.pop("mg", None)
    else:
        gunner["mg"] = mg
    if not mg_teams:
        data["rules"].pop("wwii_mg_teams")
    return data


def test_every_wwii_mg_type_gives_its_weapon_team_dice():
    """004: "Hotchkiss M1914 (Strip Fed MMG): +2 Dice Weapon Team dice", "sMG34, sMG42, Vickers MMG, Maxim MMG
    - +2 Weapon Team dice", "M2 Browning .50 Cal HMG, Soviet 12.7mm - +3 Weapon Team dice": the gunner's ``mg``
    gives the MG team (3 figures, not moved) 3 + its dice (the file's ``support`` is null)."""
    for mg, dice in (("box", 1), ("belt_lmg", 2), ("strip_mmg", 2), ("mmg", 2), ("hmg", 3)):
        game = fof_env.make_game("force_on_force", scenario=_scenario_with(mg))
        s = game.state_from_position(
            {
                "stage": "activation",
                "turn": 2,
                "units": {"us.A": unit("x05y05", 4), "ger.MG": unit("x31y05", 3)},
                "table": open_table(),
            }
        )
        assert s.fire_capacity(rid(s, "ger.MG")) == 3 + dice, mg


def test_without_the_mg_rule_a_figure_keeps_its_support_class():
    """004: "In general, WWII Weapon Teams work as described for modern troops": without ``wwii_mg_teams`` the
    ``mg`` entry is ignored and the figure's ``support`` class (here none) counts."""
    game = fof_env.make_game("force_on_force", scenario=_scenario_with("hmg", mg_teams=False))
    assert game.setup.profiles[game.layout.unit_names.index("ger.MG")].support == ()


def test_only_a_unit_making_its_check_may_call_a_medic():
    """004: "Units who are making a first aid check for casualties at the start of a turn may call for a
    medic": us.A has no effective figure left and no friendly unit within 1" (000's condition to check, R43),
    so it neither checks nor calls us.Doc 10" away; its two casualties stay down (US initiative: 1D8)."""
    units = {"us.A": done("x05y05", 0, down=2), "us.B": done("x05y25", 4), "us.Doc": done("x15y05", 1),
             "ger.1": done("x31y05", 4)}  # fmt: skip
    s = hamlet_state(units, [1])
    assert s.decision_kind == "declare_overwatch" and s.figs[rid(s, "us.A")][2] == 2 and dice_used(s) == 1
