"""The engine contract around the rules: illegal actions, the position format, action strings,
records (to_json/from_json), clone, determinism."""

import json
import re

import numpy as np
import pytest

from fof_env import IllegalActionError, PositionError, ScriptedDice
from fof_env.core.game import State
from fof_env.strike_force_one.constants import NUM_ACTIONS

from .helpers import SEED, attack, game, make, position


def random_playout(seed: int, optional: bool = False, stop: int | None = None):
    s = game(optional).new_initial_state(seed)
    rng = np.random.default_rng(seed + 1000)
    while not s.is_terminal and (stop is None or len(s.history) < stop):
        s.apply(int(rng.choice(s.legal_actions())))
    return s


def snapshot(s) -> tuple:
    return (s.to_json(), s.legal_actions(), s.decision, list(s.unit_hex), len(s.events), s.current_player)


# ------------------------------------------------------------- illegal actions
def states_in_every_decision():
    """One state per decision kind, each reached by legal play."""
    out = {}
    s = make({"A": "0601", "B": "0602"}, {"A": "0502"})
    out["select_unit"] = s.clone()
    s.apply("sov.A")
    out["move_target"] = s.clone()
    s = make({"A": "0601", "B": "0602"}, {"A": "0502"}, phase="soviet_combat")
    out["attack_target"] = s.clone()
    s.apply("0502")
    out["attack_add"] = s.clone()
    s.apply("0601")
    s.apply("0602")
    s.dice = ScriptedDice([2])
    s.apply("resolve")
    out["retreat_hex"] = s.clone()
    s.apply("0401")
    out["advance"] = s.clone()
    s = make({"A": "0303", "B": "0506"}, {}, turn=4, phase="us_combat")
    out["terminal"] = s
    return out


@pytest.mark.parametrize(
    "kind",
    ["select_unit", "move_target", "attack_target", "attack_add", "retreat_hex", "advance", "terminal"],
)
def test_illegal_action_raises_and_leaves_state_unchanged(kind):
    """001_8616da5a6ffeaaf0.txt [4.1]: "A player may never move any of the opposing player's units."
    Engine contract: an illegal action raises IllegalActionError naming the decision and the legal set,
    and leaves the state unchanged."""
    s = states_in_every_decision()[kind]
    assert s.decision.kind == kind
    before = snapshot(s)
    legal = set(s.legal_actions())
    illegal = [a for a in range(NUM_ACTIONS) if a not in legal]
    for bad in [
        *illegal,
        -1,
        NUM_ACTIONS,
        "us.A" if kind != "retreat_hex" else "0502",
        "0999",
        "nonsense",
        3.0,
        True,
    ]:
        with pytest.raises(IllegalActionError) as info:
            s.apply(bad)
        assert info.value.decision == kind
        assert info.value.legal == s.legal_action_strings()
        assert kind in str(info.value)
        assert snapshot(s) == before


def test_legal_mask_matches_legal_actions_and_is_never_empty():
    """001_8616da5a6ffeaaf0.txt [5.4]: "Attacking is completely voluntary." Engine contract: declining
    is an explicit action, so every non-terminal decision has a legal action; the mask matches
    legal_actions()."""
    for kind, s in states_in_every_decision().items():
        mask = s.legal_mask()
        assert mask.shape == (NUM_ACTIONS,) and list(np.flatnonzero(mask)) == s.legal_actions()
        assert (mask.sum() == 0) == (kind == "terminal")
        assert s.legal_actions() == sorted(s.legal_actions())


# -------------------------------------------------------------- position format
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ([], "a position is a dict"),
        ({"units": {}, "colour": "red"}, "unknown position keys"),
        ({"units": {}, "game": "fubar"}, "not 'strike_force_one'"),
        ({"units": {}, "options": {"optional_rules": True}}, "differ from the game's"),
        ({"units": {}, "turn": 0}, "turn must be an integer 1..4"),
        ({"units": {}, "turn": 5}, "turn must be an integer 1..4"),
        ({"units": {}, "turn": "2"}, "turn must be an integer 1..4"),
        ({"units": {}, "turn": True}, "turn must be an integer 1..4, got True"),
        ({"units": {}, "phase": ["us_move"]}, "phase must be one of"),
        ({"units": {}, "phase": "soviet_retreat"}, "phase must be one of"),
        ({"units": [["A", "0101"]]}, "position['units'] must be"),
        ({"units": {"nato": {}}}, "position['units'] must be"),
        ({"units": {"soviet": {"G": "0101"}}}, "soviet has no unit 'G'"),
        ({"units": {"us": {"E": "0101"}}}, "us has no unit 'E'"),
        ({"units": {"soviet": {"A": "0209"}}}, "no hex '0209'"),
        ({"units": {"soviet": {"A": 101}}}, "no hex 101"),
        ({"units": {"soviet": {"A": "0101"}, "us": {"A": "0101"}}}, "both sides"),
        ({"units": {"soviet": {"A": "0101", "B": "0101"}}}, "stacking limit is 1"),
        ({"units": {"soviet": {"A": "0707"}}}, "0707 is woods"),
        ({"units": {}, "seed": "x"}, "position['seed'] must be None or an integer 0..2**64-1, got 'x'"),
        ({"units": {}, "seed": True}, "position['seed'] must be None or an integer 0..2**64-1, got True"),
        ({"units": {}, "seed": -1}, "position['seed'] must be None or an integer 0..2**64-1, got -1"),
        ({"units": {}, "seed": 1.5}, "position['seed'] must be None or an integer 0..2**64-1, got 1.5"),
        ({"units": {}, "done": ["sov.Z"]}, "unknown unit 'sov.Z'"),
        ({"units": {}, "attacked": "us.A"}, "must be a list"),
    ],
)
def test_malformed_positions_raise_position_error_with_helpful_message(bad, message):
    """001_8616da5a6ffeaaf0.txt [2.0]: "No units may enter, pass through, or occupy Woods hexes." and
    [4.4]: "he may never end the movement part of the turn with more than one of his units in any hex."
    Malformed or impossible positions are refused with a message that says what is wrong."""
    with pytest.raises(PositionError, match=re.escape(message)):
        game().state_from_position(bad)


def test_position_round_trip():
    """Engine contract: to_position() -> state_from_position() reproduces the position
    (001_8616da5a6ffeaaf0.txt [2.0]: "These numbers are used only if the players desire to record the
    course of a particular game.")."""
    checked = 0
    for seed in range(12):
        s = random_playout(seed, optional=seed % 2 == 1, stop=3 + 4 * seed)
        while s.decision.kind not in ("select_unit", "attack_target") and not s.is_terminal:
            s.apply(s.legal_actions()[-1])
        if s.is_terminal:
            continue
        checked += 1
        pos = s.to_position()
        t = s.game.state_from_position(json.loads(json.dumps(pos)))
        assert t.to_position() == pos
        assert t.legal_actions() == s.legal_actions() and t.decision == s.decision
    assert checked >= 8


def test_position_written_by_hand():
    """001_8616da5a6ffeaaf0.txt [2.0]: "Note that the hexes on the map are numbered using a four-digit
    system." The documented example of the position format builds the state it describes."""
    s = game().state_from_position(
        {
            "turn": 2,
            "phase": "us_combat",
            "units": {"soviet": {"A": "0604", "B": "0605"}, "us": {"A": "0303", "D": "0504"}},
            "done": ["us.A"],
            "attacked": ["sov.B"],
            "seed": 7,
        }
    )
    assert s.decision.kind == "attack_target" and s.decision.player == 1
    assert s.legal_action_strings() == ["0604", "pass"]  # sov.B was attacked already this turn
    assert s.to_position()["units"]["us"] == {"A": "0303", "D": "0504"}
    assert s.score == {"soviet_towns": 0, "soviet_units": 2, "us_units": 2}


def test_to_position_refuses_the_middle_of_an_attack():
    """001_8616da5a6ffeaaf0.txt [5.1]: "as long as the results of one attack are applied before going
    on to the next attack." The position format describes states between activations; mid-attack
    states are reached by applying actions (position.py)."""
    s = states_in_every_decision()["retreat_hex"]
    with pytest.raises(PositionError, match="retreat_hex"):
        s.to_position()


# --------------------------------------------------------------- action strings
def test_every_action_string_round_trips():
    """001_8616da5a6ffeaaf0.txt [2.0]: "These numbers are used only if the players desire to record the
    course of a particular game." Engine contract: action_to_str / str_to_action are canonical and
    round-trip for all 80 actions."""
    for s in states_in_every_decision().values():
        texts = [s.action_to_str(a) for a in range(NUM_ACTIONS)]
        assert len(set(texts)) == NUM_ACTIONS == 80
        for a in range(NUM_ACTIONS):
            assert s.str_to_action(s.action_to_str(a)) == a
    s = make({"A": "0101"}, {"A": "0808"})
    assert [s.action_to_str(a) for a in (0, 67, 68, 73, 74, 77, 78, 79)] == [
        "0101", "0808", "sov.A", "sov.F", "us.A", "us.D", "pass", "resolve",
    ]  # fmt: skip
    assert s.str_to_action("A") == s.str_to_action("sov.A")  # a bare letter: the player to move
    assert s.str_to_action(" SOV.a ") == 68
    for bad in ("0209", "sov.G", "G", "", "move"):
        with pytest.raises(ValueError, match="cannot read action"):
            s.str_to_action(bad)
    with pytest.raises(ValueError):
        s.action_to_str(80)


# ----------------------------------------------------------- records and clones
@pytest.mark.parametrize("optional", [False, True])
def test_to_json_from_json_reproduces_the_state(optional):
    """Engine contract: a record (start, actions, rolls, dice state) restores the exact state, and the
    restored game continues identically (001_8616da5a6ffeaaf0.txt [2.0]: "These numbers are used only if
    the players desire to record the course of a particular game.")."""
    for seed in (3, 4):
        s = random_playout(seed, optional=optional, stop=60)
        record = s.to_json()
        t = State.from_json(record)
        u = s.game.state_from_json(json.loads(record))
        for r in (t, u):
            assert r.to_json() == record
            assert r.history == s.history and r.events == s.events
            assert r.legal_actions() == s.legal_actions() and r.decision == s.decision
            assert list(r.unit_hex) == list(s.unit_hex)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            a = int(rng.choice(s.legal_actions()))
            s.apply(a)
            t.apply(a)
        assert t.to_json() == s.to_json() and t.returns() == s.returns()


def test_malformed_record_raises_position_error():
    """001_8616da5a6ffeaaf0.txt [2.0]: "These numbers are used only if the players desire to record the
    course of a particular game." A record that is not one, or cannot be replayed, raises
    PositionError."""
    s = random_playout(1, stop=30)
    data = json.loads(s.to_json())
    with pytest.raises(PositionError, match="not a game record"):
        State.from_json({**data, "format": "pgn"})
    with pytest.raises(PositionError, match="cannot be replayed"):
        State.from_json({**data, "actions": ["resolve", *data["actions"]]})
    with pytest.raises(PositionError, match="not JSON"):
        State.from_json("{not json")


def test_clone_is_independent_and_continues_identically():
    """001_8616da5a6ffeaaf0.txt [5.6]: "The die is thrown once for each attack". Engine contract:
    clone() copies the position, dice and logs; playing on in one leaves the other unchanged, and
    both continue identically."""
    s = random_playout(8, stop=25)
    c = s.clone()
    assert c.to_json() == s.to_json()
    before = snapshot(s)
    rng = np.random.default_rng(0)
    while not c.is_terminal:
        c.apply(int(rng.choice(c.legal_actions())))
    assert snapshot(s) == before  # the original did not move
    rng = np.random.default_rng(0)
    while not s.is_terminal:
        s.apply(int(rng.choice(s.legal_actions())))
    assert s.to_json() == c.to_json()


def test_clone_reachable_cache_not_shared_after_a_move():
    """001_8616da5a6ffeaaf0.txt [4.4]: "he may never end the movement part of the turn with more than one
    of his units in any hex." A clone's move must not change what the original may reach."""
    s = make({"A": "0101", "B": "0301"}, {"A": "0808"})
    assert 2 in s.reachable(0)  # 0103 (hex index 2)
    c = s.clone()
    c.apply("sov.B")
    c.apply("0103")
    assert 2 not in c.reachable(0)
    assert 2 in s.reachable(0) and s.unit_hex[1] == c.sc.grid.hex("0301")


def test_same_seed_same_actions_same_game():
    """001_8616da5a6ffeaaf0.txt [2.0]: "The die is used only with the Combat Results Table to determine
    the result of attacks." Engine contract: the die is rolled from the state's own seeded dice, so
    the same seed and actions give the same game."""
    a, b = random_playout(11), random_playout(11)
    assert a.to_json() == b.to_json()
    assert [e for e in a.events if type(e).__name__ == "DiceRolled"]


def test_die_used_only_for_combat():
    """001_8616da5a6ffeaaf0.txt [2.0]: "The die is used only with the Combat Results Table to determine
    the result of attacks. The die has nothing to do with movement of units." """
    s = make({"A": "0101", "B": "0601"}, {"A": "0502"})
    s.dice = ScriptedDice([])  # any roll would raise
    s.apply("sov.A")
    s.apply("0102")
    s.apply("pass")
    attack(s, "0502", ["0601"], roll=3)
    assert [e.purpose for e in s.events if type(e).__name__ == "DiceRolled"] == ["combat"]


def test_helpers_position_builder_matches_format():
    """001_8616da5a6ffeaaf0.txt [2.0]: "Note that the units are letter-coded for identification
    purposes." The tests' position builder writes the documented format."""
    assert position({"A": "0101"}, {"B": "0202"}, phase="us_move", turn=3, done=["us.B"]) == {
        "turn": 3,
        "phase": "us_move",
        "units": {"soviet": {"A": "0101"}, "us": {"B": "0202"}},
        "done": ["us.B"],
        "attacked": [],
    }
    assert SEED.endswith(".txt")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_finished_game_position_round_trips(seed):
    """001_8616da5a6ffeaaf0.txt [6.0]: "At the end of four complete turns, the Soviet Player has won if
    his units physically occupy at least two out of three of the Town hexes" -- a finished game's
    position reads back as the same finished game (rulings.md F)."""
    g = game(optional=False)
    s = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    while not s.is_terminal:
        legal = s.legal_actions()
        s.apply(legal[rng.integers(len(legal))])
    pos = s.to_position()
    assert pos["phase"] == "game_over"
    back = g.state_from_position(pos)
    assert back.is_terminal and back.winner == s.winner and back.returns() == s.returns()
    assert back.to_position() == pos


def test_game_over_position_needs_the_last_turn():
    """Position format (rulings.md F): a finished game is only possible after turn 4 (rule 3.0)."""
    with pytest.raises(PositionError, match="needs turn 4"):
        game(optional=False).state_from_position({"turn": 2, "phase": "game_over", "units": {}})
