"""The FUBAR heuristic bots: legal, dice-blind, sensible, stronger than random on both scenarios."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

import fof_env
from agents import make_agent
from agents.heuristic import heuristic_games
from fof_env import ScriptedDice
from tests.agents.bot_checks import act_without_touching

GAMES = ("fubar_lost_and_found", "fubar_village_patrol")


@cache
def game(name: str):
    return fof_env.make_game(name)


def test_every_fubar_game_has_a_heuristic():
    assert {"fubar", *GAMES} <= set(heuristic_games())


@pytest.mark.parametrize("name", GAMES)
def test_only_legal_actions_and_never_touches_the_state(name):
    g = game(name)
    bots = [make_agent("heuristic", g, p, seed=p) for p in (0, 1)]
    rng = np.random.default_rng(3)
    kinds = set()
    for seed in range(3):
        s = g.new_initial_state(seed)
        while not s.is_terminal:
            kinds.add(s.decision.kind)
            if seed == 2 and rng.random() < 0.3:  # mix in random moves to reach odd positions
                legal = s.legal_actions()
                action = int(legal[rng.integers(len(legal))])
            else:
                action = act_without_touching(bots[s.current_player], s)
            s.apply(action)
    assert {"select_unit", "choose_action", "allocate_hits", "move_target"} <= kinds


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("side", [0, 1])
def test_beats_random(name, side):
    """Six games a side here (the README's table: 200 a side with `fof evaluate`): at least five wins."""
    g = game(name)
    wins = 0
    for seed in range(6):
        bots = [make_agent("heuristic" if p == side else "random", g, p, seed=seed) for p in (0, 1)]
        s = g.new_initial_state(100 + seed)
        while not s.is_terminal:
            s.apply(bots[s.current_player].act(s))
        wins += s.winner == side
    assert wins >= 5


def test_it_takes_hits_as_suppression_on_its_least_valuable_figure():
    """Unsaved hits: Suppressed while the limit allows, on a rifleman before the gunner or the leader."""
    g = game("fubar_lost_and_found")
    units = {"tal.2": {"at": "x19y25"}, "usmc.A": {"at": "x19y13"}}
    s = g.state_from_position({"stage": "activation", "initiative": "usmc", "units": units},
                              dice=ScriptedDice([5] + [6] * 12))  # fmt: skip
    s.apply("usmc.A")
    s.apply("aimed_fire")
    assert s.decision.kind == "allocate_hits" and s.decision.player == 0
    bot = make_agent("heuristic", g, 0, seed=0)
    # the legal hits: c0/s0 (an AK: the leader and the troopers are alike to FUBAR), c1/s1 (the RPK)
    assert s.legal_action_strings() == ["c0", "c1", "s0", "s1"]
    assert s.action_to_str(act_without_touching(bot, s)) == "s0"


def test_the_marines_call_the_air_strike_when_they_lead():
    """The Marines ask for the air strike as soon as they lead on VP (it ends the game)."""
    g = game("fubar_lost_and_found")
    bot = make_agent("heuristic", g, 1, seed=0)
    units = {"usmc.A": {"at": "x03y17"}, "tal.1": {"at": "x19y11"}}
    lead = g.state_from_position({"stage": "turn_start", "turn": 3, "units": units, "pilot": {"contact": True}},
                                 dice=ScriptedDice([1, 6]))  # fmt: skip
    assert lead.decision.kind == "call_airstrike" and lead.action_to_str(bot.act(lead)) == "yes"
    level = g.state_from_position({"stage": "turn_start", "turn": 3, "units": units}, dice=ScriptedDice([1, 6]))
    assert level.action_to_str(bot.act(level)) == "pass"


def test_the_rescue_unit_heads_for_the_pilot():
    """The Marine unit nearest the pilot moves toward him rather than shooting."""
    g = game("fubar_lost_and_found")
    bot = make_agent("heuristic", g, 1, seed=0)
    units = {"usmc.A": {"at": "x05y17"}, "tal.1": {"at": "x19y11"}}
    s = g.state_from_position({"stage": "activation", "initiative": "usmc", "units": units}, dice=ScriptedDice([5]))
    s.apply("usmc.A")
    action = s.action_to_str(bot.act(s))
    assert action in ("run", "duck_weave", "walk")
    s.apply(action)
    dest = bot.act(s)
    before = g.setup.table.dist[s.pos[5]][s.pilot_pos]
    assert g.setup.table.dist[dest][s.pilot_pos] < before - 5
