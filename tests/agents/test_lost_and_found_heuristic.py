"""The "Lost & Found" heuristic bots: legal, dice-blind, no peeking at hidden units, sensible, stronger than random."""

from __future__ import annotations

import numpy as np
import pytest

import fof_env
from agents import make_agent
from agents.heuristic import heuristic_games, make_heuristic
from agents.lost_and_found_heuristic import _possible_points, expected_hits
from evaluation.match import play_game, play_series
from fof_env import ScriptedDice
from tests.agents.bot_checks import act_without_touching
from tests.force_on_force.helpers import LAF as st

GAME = "lost_and_found"


def _game(rules: str = "full"):
    return fof_env.make_game(GAME, rules=rules)


def _name(state, action: int) -> str:
    return state.action_to_str(action)


# ------------------------------------------------------------------ legality
@pytest.mark.parametrize("rules", ["full", "quick"])
def test_only_legal_actions_and_never_touches_the_state(rules):
    game = _game(rules)
    bots = [make_agent("heuristic", game, p, seed=p) for p in (0, 1)]
    rng = np.random.default_rng(7 if rules == "full" else 8)
    kinds = set()
    checked = 0
    for g in range(8):
        state = game.new_initial_state(seed=g)
        mix = g >= 4  # the last games mix in random moves to reach odd positions
        while not state.is_terminal:
            legal = state.legal_actions()
            action = act_without_touching(bots[state.current_player], state)
            kinds.add(state.decision_kind)
            checked += 1
            if mix and rng.random() < 0.3:
                action = legal[int(rng.integers(len(legal)))]
            state.apply(action)
    assert checked > 500
    assert {"deploy", "declare_hidden", "attach_leader", "select_unit", "choose_action", "move_target",
            "fire_target", "declare_interrupt", "return_fire"} <= kinds  # fmt: skip


@pytest.mark.parametrize("rules", ["full", "quick"])
def test_blind_to_dice(rules):
    """With dice that raise on any roll, the bots still decide: they never read the future."""
    game = _game(rules)
    rng = np.random.default_rng(5)
    for g in range(3):
        state = game.new_initial_state(seed=g)
        while not state.is_terminal:
            probe = state.clone()
            probe.dice = ScriptedDice([])
            player = state.current_player
            action = make_heuristic(game, player, seed=g).act(probe)
            legal = state.legal_actions()
            assert action in legal
            state.apply(action if rng.random() < 0.7 else legal[int(rng.integers(len(legal)))])


CORE_KINDS = {"deploy", "declare_overwatch", "select_unit", "choose_action", "move_target", "fire_target",
              "declare_interrupt", "overwatch_fire", "return_fire", "fog_of_war_unit"}  # fmt: skip
SIDE_KINDS = (
    CORE_KINDS | {"declare_hidden", "reinforce_point"},
    CORE_KINDS | {"attach_leader", "call_airstrike", "split_target", "split_dice", "split_support"},
)


_OPEN = {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2}, "features": []}
_DUEL = {"tal.1": {"at": "x21y11"}, "usmc.A": {"at": "x07y11"}}
_FOUR = {**_DUEL, "tal.2": {"at": "x29y21", "figures": {"ok": 5, "kia": 1}}, "usmc.B": {"at": "x07y21"}}


def _position(units: dict, **kw) -> dict:
    """Turn 2 on an open table, the pilot gone (no air-strike question), Taliban initiative."""
    return {"turn": 2, "initiative": "taliban", "units": units, "pilot": {"exited_turn": 1}, "seed": 5,
            "table": _OPEN, **kw}  # fmt: skip


def _play(state, actions: list[str], dice: list[int] | None = None):
    if dice is not None:
        state.dice = ScriptedDice(dice)
    for action in actions:
        state.apply(action)
    return state


def _reach(kind: str, side: int):
    """A state in which ``side`` must make a ``kind`` decision, built from a position and a few
    actions (scripted dice where a roll decides it): no random play, so no unrelated rule change
    can take the decision away."""
    g = _game("full")
    me, other = ("tal.1", "usmc.A") if side == 0 else ("usmc.A", "tal.1")
    own, enemy = ("taliban", "usmc") if side == 0 else ("usmc", "taliban")
    if kind in ("deploy", "declare_hidden", "attach_leader"):
        s = g.new_initial_state(0)
        if kind == "deploy" and side == 0:
            return s
        _play(s, ["x19y11", "x19y25", "x29y23", "x13y31"])
        if kind == "declare_hidden":
            return s
        _play(s, ["pass"])
        return s if kind == "attach_leader" else _play(s, ["usmc.A"])  # then the USMC deploy
    if kind == "declare_overwatch":
        return g.state_from_position(_position(_DUEL, stage="overwatch", initiative=own))
    if kind == "call_airstrike":
        done = {"status": ["activated"]}
        return g.state_from_position(_position({"usmc.A": {"at": "x07y11", **done}, "tal.1": {"at": "x35y35", **done}},
                                               portion="non_initiative", pilot={"at": "x21y17"}))  # fmt: skip
    s = g.state_from_position(_position(_DUEL, initiative=own))
    prefix = {"select_unit": [], "choose_action": [me], "move_target": [me, "move"], "fire_target": [me, "fire"]}
    if kind in prefix:
        return _play(s, prefix[kind])
    if kind.startswith("split_"):
        s = g.state_from_position(_position(_FOUR, initiative=own))
        steps = ["usmc.A", "fire", "tal.1", "tal.2", "n1"]
        return _play(s, steps[: {"split_target": 3, "split_dice": 4, "split_support": 5}[kind]])
    if kind == "declare_interrupt":  # the enemy moves; this side may react
        s = g.state_from_position(_position(_DUEL, initiative=enemy))
        return _play(s, [other, "move", "x13y11" if side == 0 else "x15y11"])
    if kind == "return_fire":  # the enemy fires and misses; this side may answer
        s = g.state_from_position(_position(_DUEL, initiative=enemy))
        return _play(s, [other, "fire", me, "pass"], dice=[1] * 40)
    if kind == "overwatch_fire":  # this side's unit on Overwatch; an enemy interrupts its other unit's move
        units = {**_FOUR, me: {**_FOUR[me], "status": ["overwatch"]}}
        s = g.state_from_position(_position(units, initiative=own))
        mover, dest = ("tal.2", "x27y21") if side == 0 else ("usmc.B", "x09y21")
        return _play(s, [mover, "move", dest, "interrupt_fire", "pass"])
    # Fog of War: tal.1's reaction test rolls a 1, then the D10 result; usmc.A interrupts, usmc.B lets it be
    result = {("fog_of_war_unit", 0): 2, ("fog_of_war_unit", 1): 1, ("reinforce_point", 0): 4}[(kind, side)]
    fog = fof_env.make_game(GAME, rules="full", fog_of_war=True)
    s = fog.state_from_position(_position(_FOUR))
    return _play(s, ["tal.1", "move", "x15y11", "interrupt_fire", "pass"], dice=[1, result, 5] + [1] * 30)


@pytest.mark.parametrize(("side", "kind"), [(side, kind) for side in (0, 1) for kind in sorted(SIDE_KINDS[side])])
def test_every_decision_kind_has_a_sensible_default(side, kind):
    """Every decision kind a side owns, built directly, is answered with a legal action and the state
    untouched (issue 16: reaching them by random play failed whenever an unrelated rule changed)."""
    state = _reach(kind, side)
    assert (state.decision_kind, state.current_player) == (kind, side)
    bot = make_heuristic(state.game, side, seed=0)
    assert act_without_touching(bot, state) in state.legal_actions()


def test_wounded_team_hands_the_pilot_to_a_fresh_team():
    game = _game("full")
    state = game.state_from_position(
        {
            "turn": 4,
            "initiative": "usmc",
            "units": {
                "tal.3": {"at": "x29y23"},
                "usmc.A": {"at": "x21y17", "figures": {"ok": 1, "light": 2, "serious": 1}},
                "usmc.B": {"at": "x19y17"},
            },
            "pilot": {"with": "usmc.A", "contact": True},
        }
    )
    bot = make_heuristic(game, st.USMC)
    state.apply("usmc.A")
    assert _name(state, bot.act(state)) == "handoff"
    state.apply("handoff")
    assert _name(state, bot.act(state)) == "usmc.B"


# ------------------------------------------------------------------ no peeking
def _usmc_turn_position(tal1_at: str) -> dict:
    return {
        "turn": 2,
        "initiative": "usmc",
        "units": {
            "tal.1": {"at": tal1_at, "status": ["hidden"]},
            "tal.2": {"at": "x19y25", "status": ["hidden"]},
            "tal.3": {"at": "x29y23"},
            "usmc.A": {"at": "x05y11", "figures": {"ok": 5}},
            "usmc.B": {"at": "x03y15"},
            "usmc.C": {"at": "x05y19"},
        },
        "leader": "usmc.A",
        "seed": 3,
    }


def _lockstep_usmc_choices(a, b, hidden: int) -> int:
    """Play the USMC bot on ``a`` and ``b`` side by side (Taliban reactions decline, the same dice)
    while ``hidden`` stays hidden in both; assert every USMC choice is the same. Returns the count."""
    bots = [make_heuristic(a.game, st.USMC, seed=0) for _ in range(2)]
    same = 0
    while not a.is_terminal and a.turn == 2 and a.hidden[hidden] and b.hidden[hidden]:
        assert a.current_player == b.current_player and a.decision_kind == b.decision_kind
        assert a.legal_actions() == b.legal_actions()
        legal = a.legal_actions()
        if a.current_player == st.USMC:
            choice = bots[0].act(a)
            assert bots[1].act(b) == choice, (a.decision, _name(a, choice))
            same += 1
        else:
            choice = st.PASS if st.PASS in legal else legal[0]
        a.apply(choice)
        b.apply(choice)
    return same


def test_usmc_choices_ignore_where_a_hidden_unit_stands():
    game = _game("full")
    a = game.state_from_position(_usmc_turn_position("x19y11"))
    b = game.state_from_position(_usmc_turn_position("x23y11"))
    assert a.pos != b.pos and a.current_player == st.USMC
    assert _lockstep_usmc_choices(a, b, hidden=0) >= 8


@pytest.mark.parametrize("rules", ["full", "quick"])
def test_usmc_decisions_do_not_depend_on_hidden_units(rules):
    """At every USMC decision of a few games, moving a hidden Taliban unit to another possible
    point (and changing its strength) does not change the USMC bot's choice."""
    game = _game(rules)
    tal = make_heuristic(game, st.TALIBAN, seed=1)
    usmc = make_heuristic(game, st.USMC, seed=2)
    compared = 0
    for g in range(4):
        state = game.new_initial_state(seed=g)
        while not state.is_terminal:
            if state.current_player == st.USMC:
                hidden = [u for u in st.SIDE_UNITS[st.TALIBAN] if state.hidden[u]]
                if hidden:
                    u = hidden[0]
                    taken = set(state.pos)
                    other = [p for p in _possible_points(state, u) if p not in taken]
                    if other:
                        probe = state.clone()
                        probe.pos[u] = other[(g + len(state.history)) % len(other)]
                        probe.figs[u] = [2, 1, 1, 0, 3, 0, 0, 0, 0, 0]
                        probe.dice = ScriptedDice([])
                        probe._legal_cache = None
                        fresh = [make_heuristic(game, st.USMC, seed=0) for _ in range(2)]
                        assert fresh[0].act(state) == fresh[1].act(probe), state.decision
                        compared += 1
                action = usmc.act(state)
            else:
                action = tal.act(state)
            state.apply(action)
    assert compared > 20


# ------------------------------------------------------------------ sensible play
def test_taliban_hide_every_team_in_the_woods_and_open_fire_first():
    """000_294bccfd88f0ebda.txt: "The Taliban player may declare that any of his units starting in the
    woods are Hidden" and "the Taliban player MUST open fire with at least one of his units as his first
    action." The heuristic deploys three teams in woods, each on one of the four points of its zone that
    score best for it (agents.mixed_setup), and hides all three (tal.3 holds the compound house, where nobody
    hides); when it must open fire it opens with the hidden team nearest the Marines."""
    game = _game("full")
    state = game.new_initial_state(seed=0)
    bots = [make_heuristic(game, p, seed=p) for p in (0, 1)]
    while state.decision_kind != "select_unit" or state.turn != 1:
        state.apply(bots[state.current_player].act(state))
    woods = state.sc.table.in_woods
    placed = {st.UNIT_NAMES[u]: (state.point_name(state.pos[u]), woods[state.pos[u]], state.hidden[u])
              for u in st.SIDE_UNITS[st.TALIBAN] if state.pos[u] >= 0}  # fmt: skip
    best_four = {"tal.1": {"x19y11", "x21y11", "x23y11", "x19y09"}, "tal.2": {"x19y25", "x21y25", "x23y25", "x19y27"},
                 "tal.3": {"x29y23", "x25y23", "x27y23", "x29y25"}, "tal.4": {"x13y31", "x15y31", "x17y31", "x13y33"}}
    assert {u: point in best_four[u] for u, (point, _, _) in placed.items()} == dict.fromkeys(best_four, True)
    assert {u: (woods, hidden) for u, (_, woods, hidden) in placed.items()} == {
        "tal.1": (True, 1), "tal.2": (True, 1), "tal.3": (False, 0), "tal.4": (True, 1)}

    opening = game.state_from_position({
        "turn": 1, "initiative": "taliban", "must_fire_first": True, "seed": 3,
        "units": {"tal.1": {"at": "x19y11", "status": ["hidden"]}, "tal.2": {"at": "x19y25", "status": ["hidden"]},
                  "tal.3": {"at": "x29y23"}, "usmc.A": {"at": "x07y11"}, "usmc.B": {"at": "x07y17"}},
    })  # fmt: skip
    taliban = make_heuristic(game, 0, seed=0)
    chosen = []
    for _ in range(3):
        chosen.append(opening.action_to_str(taliban.act(opening)))
        opening.apply(chosen[-1])
    assert chosen == ["tal.1", "fire", "usmc.B"]


def _turn_start(usmc_b: dict) -> object:
    """The call_airstrike decision at the start of turn 3 (every unit has acted in turn 2)."""
    done = {"status": ["activated"]}
    return _game("full").state_from_position(
        {
            "turn": 2,
            "initiative": "usmc",
            "units": {
                "tal.1": {"at": "x19y11", **done},
                "usmc.A": {"at": "x19y17", **done},
                "usmc.B": {"at": "x09y15", **usmc_b, **done},
            },
            "pilot": {"with": "usmc.A", "contact": True},
            "seed": 1,
        }
    )


def test_usmc_calls_the_air_strike_when_ahead_and_not_when_behind():
    ahead = _turn_start({})
    assert ahead.decision_kind == "call_airstrike" and ahead.victory_points() == (0, 3)
    assert _name(ahead, make_heuristic(ahead.game, st.USMC).act(ahead)) == "yes"
    behind = _turn_start({"figures": {"ok": 1, "kia": 3}})
    assert behind.decision_kind == "call_airstrike" and behind.victory_points() == (6, 3)
    assert _name(behind, make_heuristic(behind.game, st.USMC).act(behind)) == "pass"


def test_usmc_team_with_the_pilot_leaves_by_the_west_edge():
    game = _game("full")
    state = game.state_from_position(
        {
            "turn": 4,
            "initiative": "usmc",
            "units": {"tal.1": {"at": "x19y11"}, "usmc.A": {"at": "x09y17"}, "usmc.B": {"at": "x09y15"}},
            "pilot": {"with": "usmc.A", "contact": True},
        }
    )
    bot = make_heuristic(game, st.USMC)
    assert _name(state, bot.act(state)) == "usmc.A"  # the pilot's team goes first
    state.apply("usmc.A")
    assert _name(state, bot.act(state)) == "move"
    state.apply("move")
    assert _name(state, bot.act(state)) == "exit"


def test_taliban_go_for_the_team_with_the_pilot():
    game = _game("full")
    state = game.state_from_position(
        {
            "turn": 4,
            "initiative": "taliban",
            "units": {
                "tal.1": {"at": "x19y11"},
                "usmc.A": {"at": "x15y13", "figures": {"ok": 4}},
                "usmc.B": {"at": "x17y15", "figures": {"ok": 4}},
            },
            "pilot": {"with": "usmc.B", "contact": True},
        }
    )
    bot = make_heuristic(game, st.TALIBAN)
    state.apply("tal.1")
    state.apply("fire")
    assert _name(state, bot.act(state)) == "usmc.B"


def test_taliban_capture_marine_casualties_left_alone():
    game = _game("full")
    state = game.state_from_position(
        {
            "turn": 3,
            "initiative": "taliban",
            "units": {
                "tal.1": {"at": "x19y11"},
                "usmc.A": {"at": "x03y03"},
                "usmc.B": {"at": "x15y15", "figures": {"down": 3, "serious": 1}},
            },
            "seed": 2,
        }
    )
    bot = make_heuristic(game, st.TALIBAN)
    while state.turn == 3 and state.portion == 0:
        legal = state.legal_actions()
        state.apply(
            bot.act(state)
            if state.current_player == st.TALIBAN
            else st.PASS
            if st.PASS in legal
            else legal[0]
        )
    assert state.figs[st.UNIT_NAMES.index("usmc.B")][st.CAPTURED] == 4
    assert state.victory_points() == (12, 0)


def test_expected_hits_are_sane():
    assert expected_hits(0, 6, 3, 8) == 0.0
    assert expected_hits(10, 6, 5, 8) > expected_hits(10, 6, 7, 8) > expected_hits(5, 6, 7, 8)
    assert 1.8 < expected_hits(10, 6, 5, 8) < 2.5  # 10D6 against 5D8 (the quick start's example)


# ------------------------------------------------------------------ dispatch, strength, speed
def test_dispatch():
    game = _game()
    assert GAME in heuristic_games()
    assert repr(make_agent("heuristic", game, "taliban")) == "heuristic(taliban)"
    assert repr(make_agent("heuristic", game, 1)) == "heuristic(usmc)"
    tuned = make_agent("heuristic", game, 1, usmc_threat=1.5)
    assert tuned.w.usmc_threat == 1.5


def test_seeded_determinism():
    game = _game()
    runs = []
    for _ in range(2):
        agents = (make_agent("heuristic", game, 0, seed=3), make_agent("heuristic", game, 1, seed=4))
        runs.append(play_game(game, agents, seed=3).record)
    assert runs[0] == runs[1]


@pytest.mark.parametrize("side", [0, 1])
def test_beats_random(side):
    agents = ["random", "random"]
    agents[side] = "heuristic"
    result = play_series(GAME, {}, agents, games=20, seed=11)
    assert result.wins[side] >= 14, result.row()
