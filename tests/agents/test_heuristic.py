"""The heuristic agents: legal, deterministic, dice-blind, sensible and stronger than random."""

from __future__ import annotations

import numpy as np
import pytest

import fof_env
from agents import make_agent
from agents.heuristic import heuristic_games, make_heuristic
from evaluation.match import play_game, play_series
from fof_env import ScriptedDice
from tests.agents.bot_checks import act_without_touching

GAME = "strike_force_one"


def _game(optional: bool):
    return fof_env.make_game(GAME, optional_rules=optional)


def _state(optional=False, soviet=None, us=None, phase="soviet_move", turn=1, done=(), attacked=()):
    return _game(optional).state_from_position(
        {
            "turn": turn,
            "phase": phase,
            "units": {"soviet": dict(soviet or {}), "us": dict(us or {})},
            "done": list(done),
            "attacked": list(attacked),
        }
    )


def _play_phase(state, agent, player):
    """Let ``agent`` decide while ``player`` is to move in this phase; returns the strings it chose."""
    chosen = []
    turn, phase = state.turn, state.phase
    while not state.is_terminal and state.current_player == player and (state.turn, state.phase) == (turn, phase):
        action = agent.act(state)
        chosen.append(state.action_to_str(action))
        state.apply(action)
    return chosen


@pytest.mark.parametrize("optional", [False, True])
def test_only_legal_actions_and_never_touches_the_state(optional):
    game = _game(optional)
    bots = [make_agent("heuristic", game, p, seed=p) for p in (0, 1)]
    rng = np.random.default_rng(123 + optional)
    checked = 0
    for g in range(25):
        state = game.new_initial_state(seed=g)
        while not state.is_terminal:
            legal = state.legal_actions()
            action = act_without_touching(bots[state.current_player], state)
            checked += 1
            # Mix heuristic and random play to reach many kinds of positions.
            state.apply(action if rng.random() < 0.5 else legal[int(rng.integers(len(legal)))])
    assert checked > 500


@pytest.mark.parametrize("optional", [False, True])
def test_blind_to_dice(optional):
    """With scripted dice that would raise on any roll, the bot still decides (it never reads the future)."""
    game = _game(optional)
    rng = np.random.default_rng(5)
    for g in range(10):
        state = game.new_initial_state(seed=g)
        while not state.is_terminal:
            probe = state.clone()
            probe.dice = ScriptedDice([])
            player = state.current_player
            action = make_heuristic(game, player, seed=g).act(probe)
            assert action in state.legal_actions()
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])


def test_seeded_determinism():
    game = _game(True)
    for seed in (0, 1, 2):
        runs = []
        for _ in range(2):
            agents = (make_agent("heuristic", game, 0, seed=seed), make_agent("heuristic", game, 1, seed=seed + 9))
            runs.append(play_game(game, agents, seed=seed).record)
        assert runs[0] == runs[1]


def test_make_heuristic_dispatch_and_error():
    game = _game(False)
    assert repr(make_heuristic(game, 0)) == "heuristic(soviet)"
    assert repr(make_heuristic(game, 1)) == "heuristic(us)"
    assert "strike_force_one" in heuristic_games()

    class Other:
        name = "no_such_game"

    with pytest.raises(ValueError, match="no heuristic agent for game 'no_such_game'.*strike_force_one"):
        make_heuristic(Other(), 0)


# --------------------------------------------------------------- sensible play
def test_soviets_concentrate_on_a_town_defender():
    state = _state(
        soviet={"A": "0302", "B": "0304", "C": "0402", "D": "0403"},
        us={"A": "0303", "B": "0506"},
        phase="soviet_combat",
    )
    state.dice = ScriptedDice([6])
    bot = make_heuristic(state.game, 0, seed=0)
    assert state.action_to_str(bot.act(state)) == "0303"
    _play_phase(state, bot, 0)
    attacks = [e for e in state.events if e.kind == "attack_resolved"]
    assert len(attacks) == 1 and attacks[0].target == "0303" and attacks[0].differential >= 3


def test_soviets_decline_poor_odds_but_not_on_the_last_turn():
    kw = dict(soviet={"A": "0304"}, us={"A": "0303"}, phase="soviet_combat")
    state = _state(turn=1, **kw)
    assert state.action_to_str(make_heuristic(state.game, 0).act(state)) == "pass"
    state = _state(turn=4, **kw)  # the last chance to take a town: the "0" column is worth it
    assert state.action_to_str(make_heuristic(state.game, 0).act(state)) == "0303"


def test_soviets_advance_into_a_vacated_town():
    state = _state(soviet={"A": "0302", "B": "0304", "C": "0402"}, us={"A": "0303"}, phase="soviet_combat")
    state.dice = ScriptedDice([1])  # +2 column, roll 1: Defender Eliminated
    _play_phase(state, make_heuristic(state.game, 0), 0)
    assert state.soviet_towns() == 1


def test_soviets_walk_into_an_empty_town():
    state = _state(soviet={"A": "0604", "B": "0802"}, us={"A": "0101"})
    _play_phase(state, make_heuristic(state.game, 0), 0)
    assert state.soviet_towns() >= 1


def test_us_retreats_into_a_town():
    state = _state(soviet={"A": "0305", "B": "0204"}, us={"A": "0304", "B": "0208"}, phase="soviet_combat")
    state.dice = ScriptedDice([2])  # +1 column, roll 2: Defender Retreats
    state.apply("0304")
    state.apply("0305")
    state.apply("0204")
    state.apply("resolve")
    assert state.decision.kind == "retreat_hex" and state.current_player == 1
    assert {state.action_to_str(a) for a in state.legal_actions()} == {"0303", "0403"}
    assert state.action_to_str(make_heuristic(state.game, 1).act(state)) == "0303"


def test_us_counter_attacks_a_lost_town_at_good_odds():
    state = _state(
        soviet={"A": "0303", "B": "0506"},
        us={"A": "0302", "B": "0304", "C": "0402", "D": "0208"},
        phase="us_combat",
        turn=2,
    )
    state.dice = ScriptedDice([6])
    bot = make_heuristic(state.game, 1)
    assert state.action_to_str(bot.act(state)) == "0303"
    _play_phase(state, bot, 1)
    attack = next(e for e in state.events if e.kind == "attack_resolved")
    assert attack.differential == 2


def test_us_stays_in_its_towns():
    state = _state(soviet={"A": "0802", "B": "0803"}, us={"A": "0303", "B": "0506", "C": "0208"}, phase="us_move")
    _play_phase(state, make_heuristic(state.game, 1), 1)
    assert state.hex_name(state.unit_hex[6]) == "0303"
    assert state.hex_name(state.unit_hex[7]) == "0506"
    assert state.hex_name(state.unit_hex[8]) == "0208"


def test_us_goes_all_in_on_the_last_turn():
    state = _state(
        soviet={"A": "0303", "B": "0506", "C": "0801"},
        us={"A": "0304", "D": "0208"},
        phase="us_combat",
        turn=4,
    )
    assert state.action_to_str(make_heuristic(state.game, 1).act(state)) == "0303"


# -------------------------------------------------------------- strength, speed
@pytest.mark.parametrize("optional", [False, True])
@pytest.mark.parametrize("side", [0, 1])
def test_beats_random(side, optional):
    agents = ["random", "random"]
    agents[side] = "heuristic"
    result = play_series(GAME, {"optional_rules": optional}, agents, games=40, seed=11)
    assert result.wins[side] >= 32, result.row()


def test_town_holder_does_not_risk_its_town_in_a_side_attack():
    # Turn 4: sov.A holds 0208; attacking us.C at 0309 at "+2" would need it, and an
    # "Attacker Retreats" would pull it out of the town.
    state = _state(
        soviet={"A": "0208", "B": "0308", "C": "0408", "D": "0303"},
        us={"C": "0309", "A": "0101"},
        phase="soviet_combat",
        turn=4,
    )
    assert "0309" in [state.action_to_str(a) for a in state.legal_actions()]
    assert state.action_to_str(make_heuristic(state.game, 0).act(state)) == "pass"
