"""The generic Force on Force bot's first aid choices (agents/force_on_force_heuristic.py) on "Hedgerow
Hamlet" positions: which medic it calls (``call_medic``) and whether a walking wounded stays (``walking_wounded``).

Seed 004_fa8d850a9c124bb3.txt, "Calling for a medic" and "FIRST AID CHECKS (WWII)" (rulings R45, R46).
Positions stand on a 36" x 36" table (2" grid) whose only terrain is woods (:data:`WOODS`: a belt at x 20-26
hides the Germans at x 31 from the US units at x < 20); every unit listed has activated, so the position runs on to turn
2's first aid checks at once. Dice: the initiative D8s (half a side's active units, rounded down), then one D6
per casualty on the table, unit order.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import fof_env
from agents.force_on_force_heuristic import ForceOnForceHeuristic
from fof_env import ScriptedDice
from tests.agents.bot_checks import act_without_touching
from tests.force_on_force.helpers import SEED_WWII, seed_says

SCENARIO = Path(fof_env.__file__).parent / "force_on_force" / "scenarios" / "hedgerow_hamlet.json"
WOODS = [
    {"id": "belt", "kind": "woods", "rect": [20, 0, 26, 36]},  # hides x >= 26 from x <= 19
    {"id": "copse", "kind": "woods", "rect": [0, 9, 12, 13]},  # hides x05y15 from x13y05
    {"id": "hedge", "kind": "woods", "rect": [26, 12, 36, 16]},  # hides the farmhouse from x31y31
]
TABLE = {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2}, "features": WOODS}
US = 0


def two_medics_game():
    """Hedgerow Hamlet with a second US aid man ``us.Doc2`` (a unit of one ``medic`` figure, as us.Doc)."""
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    doc = copy.deepcopy(next(u for u in data["units"] if u["id"] == "us.Doc"))
    doc["id"] = "us.Doc2"
    data["units"].insert(data["units"].index(next(u for u in data["units"] if u["id"] == "us.Doc")) + 1, doc)
    return fof_env.make_game("force_on_force", scenario=data)


def first_aid_state(units: dict, rolls: list[int], game=None):
    """Turn 1 of ``units`` (each has activated; ``down`` casualties to check) run on to turn 2's checks."""
    game = game or fof_env.make_game("wwii_hedgerow_hamlet")
    spec = {name: {"at": at, "figures": figures, "status": ["activated"]} for name, (at, figures) in units.items()}
    pos = {"stage": "activation", "turn": 1, "initiative": "us", "portion": "initiative", "units": spec,
           "table": TABLE}  # fmt: skip
    return game.state_from_position(pos, dice=ScriptedDice(rolls))


def choose(game, state) -> str:
    """The US bot's answer to the decision of ``state`` (legal, the state untouched)."""
    return state.action_to_str(act_without_touching(ForceOnForceHeuristic(game, US), state))


def test_a_medic_is_called_for_casualties_out_of_enemy_sight():
    """004: "may call for a medic to treat them if a medic figure is within Rapid Movement distance. The medic is
    immediately moved to the unit with casualties": us.A (2 down) with us.Doc 10" away, no German in sight:
    the Medic table saves 2 x 1/6 of a dead man (0.43 VP), nothing to risk: the bot calls him."""
    seed_says(SEED_WWII, "may call for a medic to treat them if a medic figure is within Rapid Movement distance")
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    s = first_aid_state({"us.A": ("x05y05", {"ok": 2, "down": 2}), "us.Doc": ("x15y05", {"ok": 1}),
                         "ger.1": ("x31y05", {"ok": 4})}, [1, 6, 6])  # fmt: skip
    assert s.decision_kind == "call_medic" and s.legal_action_strings() == ["us.Doc", "pass"]
    assert choose(game, s) == "us.Doc"


def test_the_medic_stays_in_cover_for_one_casualty_under_fire_but_not_for_three():
    """ger.1 (4 rifles, 8" away) sees us.A but not us.Doc behind the copse: called, the medic would stand in its
    fire (0.6 x 0.6 expected hits x 0.8 VP = 0.48 VP); one casualty gains 1/6 x (1 VP + 0.3) = 0.22: ``pass``;
    three gain 0.65: the medic is called."""
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    for down, answer in ((1, "pass"), (3, "us.Doc")):
        s = first_aid_state({"us.A": ("x05y05", {"ok": 4 - down, "down": down}), "us.Doc": ("x05y15", {"ok": 1}),
                             "ger.1": ("x13y05", {"ok": 4})}, [1, 6, 6, 6])  # fmt: skip
        assert s.decision.context["casualties"] == down and choose(game, s) == answer


def test_the_medic_is_kept_for_a_later_unit_with_more_casualties():
    """004: "A medic may only treat the wounded of ONE unit per turn.": us.A (1 down, checked first) and us.B
    (3 down) both have us.Doc within 12": the bot passes for us.A and calls him for us.B."""
    seed_says(SEED_WWII, "A medic may only treat the wounded of ONE unit per turn")
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    s = first_aid_state({"us.A": ("x05y05", {"ok": 3, "down": 1}), "us.B": ("x05y27", {"ok": 1, "down": 3}),
                         "us.Doc": ("x05y17", {"ok": 1}), "ger.1": ("x31y05", {"ok": 4})}, [1, 6, 6, 6, 6])  # fmt: skip
    assert s.decision.context["unit"] == "us.A" and choose(game, s) == "pass"
    s.apply("pass")
    assert s.decision_kind == "call_medic" and s.decision.context["unit"] == "us.B"
    assert choose(game, s) == "us.Doc"


def test_of_two_medics_the_one_not_needed_elsewhere_then_the_closest():
    """With a second aid man us.Doc2: us.A (2 down) may call us.Doc (10") or us.Doc2 (10"); only us.Doc reaches
    us.B (3 down, checked next), so us.A calls us.Doc2 and us.B gets us.Doc. Alone, us.A calls the closer one
    (4" before 10"), whichever unit it is."""
    game = two_medics_game()
    units = {"us.A": ("x05y05", {"ok": 2, "down": 2}), "us.B": ("x05y27", {"ok": 1, "down": 3}),
             "us.Doc": ("x05y17", {"ok": 1}), "us.Doc2": ("x15y05", {"ok": 1}), "ger.1": ("x31y05", {"ok": 4})}  # fmt: skip
    s = first_aid_state(units, [1, 1, 6, 6, 6, 6, 6], game)  # 4 US units: two initiative D8s
    assert s.legal_action_strings() == ["us.Doc", "us.Doc2", "pass"] and choose(game, s) == "us.Doc2"
    s.apply("us.Doc2")
    assert s.decision.context["unit"] == "us.B" and choose(game, s) == "us.Doc"
    for near, far in (("us.Doc", "us.Doc2"), ("us.Doc2", "us.Doc")):
        units = {"us.A": ("x05y05", {"ok": 2, "down": 2}), near: ("x09y05", {"ok": 1}), far: ("x05y15", {"ok": 1}),
                 "ger.1": ("x31y05", {"ok": 4})}  # fmt: skip
        assert choose(game, first_aid_state(units, [1, 6, 6], game)) == near


def test_walking_wounded_go_to_the_rear_only_from_a_large_unit_out_of_contact_that_must_move():
    """004: "Walking Wounded in a WWII game may be removed from play without penalty to their unit ... If
    desired, a Walking Wounded figure may also remain with his unit and contribute to its Firepower. The unit
    will suffer from the Casualties penalty, however." us.A's casualty rolls 5 (walking wounded): with 4 unhurt
    men, out of the Germans' sight and outside every objective he goes to the rear (``exit``); he stays
    (``hold``) when the Germans see the unit, when it has fewer than 3 unhurt men, when a seriously wounded man
    already slows it, and when it stands in the farmhouse (an objective)."""
    seed_says(SEED_WWII, "Walking Wounded in a WWII game may be removed from play without penalty to their unit")
    seed_says(SEED_WWII, "The unit will suffer from the Casualties penalty, however.")
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    far = {"ger.1": ("x31y31", {"ok": 4})}
    cases = [
        ({"us.A": ("x05y05", {"ok": 4, "down": 1}), **far}, "exit"),
        ({"us.A": ("x05y05", {"ok": 4, "down": 1}), "ger.1": ("x13y05", {"ok": 4})}, "hold"),  # in contact
        ({"us.A": ("x05y05", {"ok": 2, "down": 1}), **far}, "hold"),  # small
        ({"us.A": ("x05y05", {"ok": 3, "serious": 1, "down": 1}), **far}, "hold"),  # slowed anyway
        ({"us.A": ("x29y07", {"ok": 4, "down": 1}), **far}, "hold"),  # in the farmhouse
    ]
    for units, answer in cases:
        s = first_aid_state(units, [5])
        assert s.decision_kind == "walking_wounded" and s.legal_action_strings() == ["hold", "exit"]
        assert choose(game, s) == answer, units


def test_two_walking_wounded_of_one_unit_share_the_choice():
    """Both casualties of us.A (3 unhurt) roll 5: the first goes to the rear, so the second one would bring the
    Casualty penalty alone and goes too; in contact both stay (the second: the unit is slowed anyway)."""
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    for german, answer in (("x31y31", "exit"), ("x13y05", "hold")):
        s = first_aid_state({"us.A": ("x05y05", {"ok": 3, "down": 2}), "ger.1": (german, {"ok": 4})}, [5, 5])
        answers = []
        while s.decision_kind == "walking_wounded":
            answers.append(choose(game, s))
            s.apply(answers[-1])
        assert answers == [answer, answer]
