"""Dice conventions, the Training/Experience table, initiative and activation (002_b69cb091b8d89aa2.txt).

Positions are set up with :mod:`tests.fubar.helpers`; every roll is scripted. Activation is rolled when
a unit is selected: one die.
"""

import pytest

from fof_env.fubar import events as ev
from fof_env.fubar.tables import TRAINING

from .helpers import events, figures, game, infantry, kind, legal, position, statuses

SEED = "002_b69cb091b8d89aa2.txt"

# A red team at x03y11 and a blue team 12" east of it, in the open: each sees the other.
RED_V = infantry("r.1", (3, 11), figures(4), training="veteran")
BLUE = infantry("b.1", (15, 11), figures(4), training="veteran")


def activation(state) -> ev.ActivationRolled:
    return events(state, ev.ActivationRolled)[-1]


def test_training_table_as_printed():
    """002_b69cb091b8d89aa2.txt: "Level Activation Expertise Suppress / Green 5+ 6+ 1 / Seasoned 4+ 5+ 2 /
    Veteran 3+ 4+ 3 / Elite 2+ 4+ 4" (rulings F2)."""
    table = {name: (t.activation, t.expertise, t.suppress) for name, t in TRAINING.items()}
    assert table == {"green": (5, 6, 1), "seasoned": (4, 5, 2), "veteran": (3, 4, 3), "elite": (2, 4, 4)}


def test_unmodified_six_activates_whatever_the_modifiers():
    """002: "Any unmodified roll of a Six is a success." A Veteran team (3+) with three Suppressed figures
    (-3) and an enemy in sight rolls a 6: 6 - 3 = 3 would do anyway; with a fourth figure out of touch
    (-4 in all) the modified 2 is short of 3, and the unmodified 6 still activates it (rulings F1)."""
    g = game(RED_V, BLUE)
    s = position(g, {"r.1": {"figures": ["suppressed"] * 3 + ["ok"], "out_of_touch": 1}}, dice=[6])
    s.apply("r.1")
    roll = activation(s)
    assert (roll.die, roll.modified, roll.need, roll.success) == (6, 2, 3, True)
    assert kind(s) == "choose_action"


def test_unmodified_one_fails_whatever_the_modifiers():
    """002: "Any unmodified roll of a One is a failure." An Elite-led team (2+) with no enemy in sight (+1)
    rolls a 1: modified 2 would meet 2+, but the unmodified 1 fails (rulings F1)."""
    red = infantry("r.1", (3, 11), figures(1, leader="elite", role="Leader"), figures(3), training="veteran")
    g = game(red, BLUE)
    s = position(g, {"b.1": None}, dice=[1, 6, 1])  # the turn then ends: turn 2's initiative 6 against 1
    s.apply("r.1")
    roll = activation(s)
    assert (roll.die, roll.modified, roll.need, roll.success) == (1, 2, 2, False)


def test_plus_one_with_no_visible_enemy():
    """002: "Add one to the roll if there are no visible enemy." A Green team (5+) rolls a 4: it fails with
    the blue team in sight, it activates with no enemy in sight (4 + 1 = 5) (rulings F7)."""
    green = infantry("r.1", (3, 11), figures(4), training="green")
    g = game(green, BLUE)
    s = position(g, dice=[4, 6])
    s.apply("r.1")
    assert (activation(s).modified, activation(s).success) == (4, False)
    s = position(g, {"b.1": {"at": "x15y01"}}, dice=[4, 6])  # still in sight across the open table
    s.apply("r.1")
    assert activation(s).success is False
    woods = {"id": "woods", "kind": "woods", "rect": [8, 0, 14, 24]}  # a wood across the table blocks sight
    g2 = game(green, BLUE, features=(woods,))
    s = position(g2, dice=[4])
    s.apply("r.1")
    assert (activation(s).modified, activation(s).need, activation(s).success) == (5, 5, True)


def test_a_leader_with_a_better_activation_level_is_used():
    """002: "If a unit has a leader with a higher Activation Level use this instead." A Seasoned team
    (4+) led by an Elite leader (2+) activates on a 2 (rulings F3)."""
    red = infantry("r.1", (3, 11), figures(1, leader="elite", role="Leader"), figures(3), training="seasoned")
    g = game(red, BLUE)
    s = position(g, dice=[2])
    s.apply("r.1")
    assert (activation(s).need, activation(s).success) == (2, True)


def test_a_leader_who_is_a_casualty_no_longer_leads():
    """002: "If a unit has a leader with a higher Activation Level use this instead." With the leader a
    casualty, the Seasoned team needs its own 4+: a 3 fails; a Suppressed leader still leads (rulings F3)."""
    red = infantry("r.1", (3, 11), figures(1, leader="elite", role="Leader"), figures(3), training="seasoned")
    g = game(red, BLUE)
    s = position(g, {"r.1": {"figures": ["casualty", "ok", "ok", "ok"]}}, dice=[3, 6])
    s.apply("r.1")
    assert (activation(s).need, activation(s).success) == (4, False)
    s = position(g, {"r.1": {"figures": ["suppressed", "ok", "ok", "ok"]}}, dice=[3])
    s.apply("r.1")
    assert (activation(s).need, activation(s).modified, activation(s).success) == (2, 2, True)


def test_each_figure_out_of_touch_costs_one():
    """002: "All members of a Unit must remain within 3"/8cm of each other or incur a penalty on their
    activation of 1 per figure that is out of touch." Two figures out of touch: a Veteran team (3+) rolls
    a 4, modified 2: it fails; afterwards they have rejoined (rulings F4)."""
    g = game(RED_V, BLUE)
    s = position(g, {"r.1": {"out_of_touch": 2}}, dice=[4, 6])
    s.apply("r.1")
    assert (activation(s).modified, activation(s).success) == (2, False)
    assert s.oot[0] == 0
    s = position(g, {"r.1": {"out_of_touch": 2}}, dice=[5])
    s.apply("r.1")
    assert (activation(s).modified, activation(s).success) == (3, True)


def test_suppressed_figures_cost_one_each_and_stand_up_after_the_roll():
    """002: "its Unit takes a penalty to its next activation of -1 per Suppressed figure. After the next
    activation roll for that Unit stand the figure up. It is no longer Suppressed." Two Suppressed: a
    Veteran team rolls a 4, modified 2, and fails; both figures stand up anyway (rulings F8)."""
    g = game(RED_V, BLUE)
    s = position(g, {"r.1": {"figures": ["suppressed", "suppressed", "ok", "ok"]}}, dice=[4, 6])
    s.apply("r.1")
    assert (activation(s).modified, activation(s).success) == (2, False)
    assert statuses(s, "r.1") == ["ok"] * 4


def test_initiative_high_roll_plus_modifier_wins_and_ties_reroll():
    """002: "At the beginning of a turn each player rolls 1D6 & adds any scenario modifiers. Reroll any
    ties. The player that scores the highest can attempt to Activate a Unit first." Blue has +1: red 4,
    blue 3 is a tie (4 against 4), rerolled; then red 5, blue 2: red 5 against blue 3 (rulings F5)."""
    g = game(RED_V, BLUE, initiative={"modifiers": {"blue": 1}})
    s = position(g, stage="turn_start", turn=2, dice=[4, 3, 5, 2])
    rolled = events(s, ev.InitiativeRolled)
    assert [(e.rolls, e.totals, e.winner) for e in rolled] == [((4, 3), (4, 4), None), ((5, 2), (5, 3), "red")]
    assert (s.turn, s.decision.player, kind(s)) == (2, 0, "select_unit")
    s = position(g, stage="turn_start", turn=2, dice=[3, 3])
    assert [e.winner for e in events(s, ev.InitiativeRolled)] == ["blue"]
    assert s.decision.player == 1


def test_a_failure_passes_the_initiative():
    """002: "He can continue to activate units until he fails an activation, then the initiative passes to
    his opponent." (rulings F6)"""
    red2 = infantry("r.2", (3, 15), figures(4))
    g = game(RED_V, red2, BLUE)
    s = position(g, dice=[5])
    s.apply("r.1")
    s.apply("on_guard")
    assert (s.decision.player, kind(s), legal(s)) == (0, "select_unit", ["r.2"])  # success: red goes on
    s.dice.rolls.append(2)
    s.apply("r.2")  # 2 fails the Veteran 3+
    assert (s.decision.player, legal(s)) == (1, ["b.1"])
    assert s.guard[1] == 1  # "Units that fail to activate are On Guard."


def test_a_player_with_no_unit_left_hands_over_the_rest_of_the_turn():
    """002: "The initiative passes to & fro as players pass and fail Activation rolls, until they have all
    had a chance to try & activate each Unit in their command." Blue's only unit fails; red's two units
    then try one after the other, whatever their rolls (rulings F6)."""
    red2 = infantry("r.2", (3, 15), figures(4))
    g = game(RED_V, red2, BLUE)
    s = position(g, initiative="blue", dice=[2, 2, 2, 6, 1])
    s.apply("b.1")
    assert (s.decision.player, legal(s)) == (0, ["r.1", "r.2"])
    s.apply("r.1")  # fails, but blue has nobody left to try
    assert (s.decision.player, legal(s)) == (0, ["r.2"])
    s.apply("r.2")
    assert (s.turn, s.decision.player, legal(s)) == (2, 0, ["r.1", "r.2"])  # turn 2: red won 6 to 1


def test_every_unit_tries_once_per_turn():
    """002: "until they have all had a chance to try & activate each Unit in their command": no unit tries
    twice in a turn, and nobody may pass (rulings F6)."""
    g = game(RED_V, BLUE)
    s = position(g, dice=[5, 5, 6, 1])
    assert "pass" not in legal(s)
    s.apply("r.1")
    s.apply("on_guard")
    assert (s.decision.player, legal(s)) == (1, ["b.1"])
    s.apply("b.1")
    s.apply("on_guard")
    assert s.turn == 2  # every unit tried: turn 2 began (its initiative roll used the dice below)


@pytest.mark.parametrize("training,need", [("green", 5), ("seasoned", 4), ("veteran", 3), ("elite", 2)])
def test_activation_numbers_by_training(training, need):
    """002: "To Activate a Unit a player must roll equal to, or more than, the Activation number given in
    the Unit Training/Experience table." (rulings F2)"""
    g = game(infantry("r.1", (3, 11), figures(4), training=training), BLUE)
    s = position(g, dice=[need])
    s.apply("r.1")
    assert (activation(s).need, activation(s).success) == (need, True)
    s = position(g, dice=[need - 1, 6, 1])
    s.apply("r.1")
    assert activation(s).success is False
