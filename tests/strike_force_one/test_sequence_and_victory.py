"""Sequence of play (3.0) and victory (6.0)."""

import numpy as np
import pytest

from fof_env.strike_force_one.events import GameEnded, PhaseStarted

from .helpers import attack, events, game, make, where

PHASE_ORDER = ["soviet_move", "soviet_combat", "us_move", "us_combat"]


# ---------------------------------------------------------------------- 3.0
def test_3_0_sequence_of_play_four_steps_four_turns():
    """001_8616da5a6ffeaaf0.txt [3.0]: "Step 1. The Soviet Player moves ... Step 2. The Soviet Player may
    now make attacks ... Step 3. The U.S. Player may now move ... Step 4. The U.S. Player may now make
    attacks ... The above four steps make up a complete turn; these steps are repeated in order until
    four complete turns have been played. The game is then over and the winner is determined." """
    s = make({"A": "0601"}, {"A": "0502"})
    seen = []
    while not s.is_terminal:
        pos = s.to_position()
        seen.append((pos["turn"], pos["phase"], s.decision.player))
        s.apply("pass")
    expected = [(t, p, 0 if p.startswith("soviet") else 1) for t in range(1, 5) for p in PHASE_ORDER]
    assert seen == expected
    assert [(e.turn, e.phase) for e in events(s, PhaseStarted)] == [(t, p) for t, p, _ in expected]
    assert isinstance(s.events[-1], GameEnded)


def test_3_0_initial_set_up_and_soviet_moves_first():
    """001_8616da5a6ffeaaf0.txt [3.0]: "Set up each of the units on the appropriately coded hexes and
    begin the first turn." + "Step 1. The Soviet Player moves any or all of his units" (set-up hexes
    are the DESIGN.md reconstruction of the printed map)."""
    s = game().new_initial_state(seed=1)
    pos = s.to_position()
    assert pos["units"] == {
        "soviet": {"A": "0802", "B": "0803", "C": "0804", "D": "0805", "E": "0806", "F": "0807"},
        "us": {"A": "0303", "B": "0506", "C": "0206", "D": "0304"},
    }
    assert (pos["turn"], pos["phase"]) == (1, "soviet_move")
    assert s.current_player == 0 and s.decision.kind == "select_unit"
    assert s.legal_action_strings() == ["sov.A", "sov.B", "sov.C", "sov.D", "sov.E", "sov.F", "pass"]


def test_3_0_phase_without_any_choice_is_skipped():
    """001_8616da5a6ffeaaf0.txt [3.0]: "Step 2. The Soviet Player may now make attacks against any U.S.
    units which are in hexes directly adjacent to (next to) Soviet units." Ruling: with no such unit the
    engine ends the phase itself (it is not a decision)."""
    s = make({"A": "0801"}, {"A": "0109"})
    s.apply("pass")
    assert s.to_position()["phase"] == "us_move"
    assert [e.phase for e in events(s, PhaseStarted)] == ["soviet_move", "soviet_combat", "us_move"]


def test_3_0_results_applied_as_each_attack_is_made():
    """001_8616da5a6ffeaaf0.txt [3.0]: "Results are applied as each attack is made." """
    s = make({"A": "0601", "B": "0602"}, {"A": "0502"}, phase="soviet_combat")
    attack(s, "0502", ["0601", "0602"], roll=1)
    assert where(s, "us.A") is None  # before the advance decision, the defender is gone


# ---------------------------------------------------------------------- 6.0
def end_of_game(soviet, us):
    """Play out the rest of turn 4 from the U.S. combat phase, without attacking."""
    s = make(soviet, us, turn=4, phase="us_combat")
    while not s.is_terminal:
        s.apply("pass")
    return s


@pytest.mark.parametrize(
    ("soviet", "winner"),
    [
        ({"A": "0303", "B": "0506"}, 0),
        ({"A": "0303", "B": "0506", "C": "0208"}, 0),
        ({"A": "0303", "B": "0208"}, 0),
        ({"A": "0303", "B": "0505"}, 1),
        ({"A": "0302", "B": "0505"}, 1),
    ],
)
def test_6_0_soviet_wins_with_two_of_three_towns(soviet, winner):
    """001_8616da5a6ffeaaf0.txt [6.0]: "At the end of four complete turns, the Soviet Player has won if
    his units physically occupy at least two out of three of the Town hexes on the map. The U.S. Player
    has won if he prevented this from happening." """
    s = end_of_game(soviet, {"A": "0808"})
    assert s.is_terminal and s.current_player is None
    assert s.winner == winner
    assert s.returns() == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
    towns = sum(h in ("0303", "0506", "0208") for h in soviet.values())
    assert s.events[-1] == GameEnded(("soviet", "us")[winner], towns)


def test_6_0_only_the_end_of_turn_four_counts():
    """001_8616da5a6ffeaaf0.txt [6.0]: "At the end of four complete turns, the Soviet Player has won if
    his units physically occupy at least two out of three of the Town hexes" """
    s = make({"A": "0303", "B": "0506"}, {"A": "0507", "B": "0606"}, turn=4, phase="us_combat")
    assert s.score["soviet_towns"] == 2 and not s.is_terminal and s.winner is None
    assert s.returns() == (0.0, 0.0)
    attack(s, "0506", ["0507", "0606"], roll=1)  # two U.S. units, roll 1: DE
    s.apply("pass")
    assert s.is_terminal and s.winner == 1


def test_6_0_units_eliminated_have_no_bearing():
    """001_8616da5a6ffeaaf0.txt [6.0]: "The number of units eliminated by either side has no direct
    bearing upon which Player is declared the winner." """
    s = end_of_game({"A": "0303"}, {})  # every U.S. unit gone, but one town only
    assert s.winner == 1
    s = end_of_game({"A": "0303", "B": "0506"}, {"A": "0101", "B": "0102", "C": "0103", "D": "0104"})
    assert s.winner == 0  # five Soviet units lost, none U.S.


def test_6_0_game_runs_four_turns_even_when_a_side_is_wiped_out():
    """001_8616da5a6ffeaaf0.txt [3.0]: "these steps are repeated in order until four complete turns have
    been played." Ruling: the game does not end early when one side has no units left."""
    s = make({"A": "0101"}, {}, turn=2)
    turns = []
    while not s.is_terminal:
        turns.append(s.to_position()["turn"])
        s.apply("pass")
    assert turns == [2, 3, 4]  # one Soviet movement decision per turn; U.S. phases have no choice


@pytest.mark.parametrize(
    ("soviet", "us", "winner"),
    [
        ({"A": "0303", "B": "0506"}, {"A": "0101", "B": "0102", "C": "0103", "D": "0104"}, 0),  # 2 towns
        ({"A": "0303", "B": "0506", "C": "0208"}, {}, 0),  # 3 towns
        ({"A": "0303", "B": "0605", "C": "0705", "D": "0805", "E": "0804", "F": "0803"}, {"A": "0101"}, 1),
        ({}, {}, 1),  # nobody left: the Soviets hold no town, so the U.S. has won
    ],
)
def test_6_0_no_tie_games(soviet, us, winner):
    """001_8616da5a6ffeaaf0.txt [6.0]: "the Soviet Player has won if his units physically occupy at least
    two out of three of the Town hexes on the map. The U.S. Player has won if he prevented this from
    happening. The number of units eliminated by either side has no direct bearing ... There are no
    tie-games." Finished games built as positions: one town short, with six units to one, is a loss."""
    s = game(False).state_from_position({"turn": 4, "phase": "game_over", "units": {"soviet": soviet, "us": us}})
    assert s.is_terminal and s.winner == winner
    assert s.returns() == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))


def test_6_0_random_games_end_with_a_winner():
    """[6.0] "There are no tie-games": random play (seeds 0-9) ends every game with a winner; the
    random Soviets never hold two towns, so the U.S. wins all ten."""
    g = game(False)
    winners = []
    for seed in range(10):
        s = g.new_initial_state(seed)
        rng = np.random.default_rng(100 + seed)
        while not s.is_terminal:
            s.apply(int(rng.choice(s.legal_actions())))
        winners.append(s.winner)
    assert winners == [1] * 10
