"""The scenario "Hedgerow Hamlet" (``scenarios/hedgerow_hamlet.json``, game ``wwii_hedgerow_hamlet``): designed
for this project from seeds 003 and 004 (rulings R43-R49). Smoke tests: it loads, is registered (game, gym id,
heuristic), its order of battle carries the WWII data, random games end and the heuristic plays."""

from __future__ import annotations

import random

import fof_env
from agents.heuristic import make_heuristic
from fof_env.force_on_force.scenario import load_scenario, shipped_scenarios
from tests.force_on_force.hedgerow_helpers import play_random


def test_the_scenario_is_shipped_and_marked_as_designed_for_this_project():
    """004: "in WWII games the rules a different First Aid table with specialized rules is used": the scenario
    switches on the WWII rule modules and says it is this project's design, not a published scenario."""
    assert "hedgerow_hamlet" in shipped_scenarios()
    sc = load_scenario("hedgerow_hamlet")
    assert sc.provenance.startswith("DESIGNED FOR THIS PROJECT")
    assert set(sc.rules) == {"wwii_first_aid", "wwii_mg_teams", "wwii_close_air_support"} and sc.turns == 8
    assert sc.fog_of_war["table"] == "wwii_deck"
    kinds = {f.id: f.kind for f in sc.table.features}
    assert [k for k in kinds.values()].count("building") == 4 and kinds["garden_wall"] == "wall"
    assert all(kinds[f] == "woods" for f in kinds if f.startswith("hedge"))


def test_the_order_of_battle_carries_the_mg_teams_and_the_medics():
    """004: "Bren/BAR/FM-24 (or any box magazine fed weapon): +1 Weapon Team die" and "MG34, MG42, Browning .30
    (or any fed LMG): +2 Weapon Team dice": the BAR team's support is Light (+1), the MG42 team's Medium (+2);
    each side has a medic unit (one ``medic`` figure, who may be called) and the US squad a radioman."""
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    names = game.layout.unit_names
    assert names == ("us.A", "us.B", "us.BAR", "us.HQ", "us.Doc", "us.Sherman",
                     "us.MMG", "us.Bazooka", "us.Sherman2", "us.Sniper",  # card reserves (R70)
                     "us.C", "us.LMG",  # Asset Cards (R71)
                     "ger.MG", "ger.1", "ger.2", "ger.San", "ger.PzIV",
                     "ger.sMG", "ger.Schreck", "ger.PzIV2", "ger.Sniper",
                     "ger.3", "ger.LMG")  # the tanks: rules/wwii_vehicles.py (R80-R89)
    support = dict(zip(names, (p.support for p in game.setup.profiles), strict=True))
    assert support["us.BAR"] == (1,) and support["ger.MG"] == (2,)
    assert [names[u] for u, m in enumerate(game.setup.medic_units) if m] == ["us.Doc", "ger.San"]
    assert [f.role for f in game.scenario.unit("us.HQ").figures] == ["Squad Leader", "radio"]


def test_the_game_is_registered_with_a_gym_id_and_a_heuristic():
    import gymnasium as gym

    game = fof_env.make_game("wwii_hedgerow_hamlet")
    assert game.name == "wwii_hedgerow_hamlet" and game.num_actions == 324 + 23 + 11 + 11  # 23 units: 8 card reserves (R70), 4 assets (R71)
    env = gym.make("fof_env/WwiiHedgerowHamlet-v0")
    obs, _ = env.reset(seed=0)
    assert obs.shape == game.observation_shape
    env.close()


def test_random_games_end_with_legal_non_empty_masks():
    """Random play to the end: every decision has a legal action, observations fit, and the first aid
    decisions come up."""
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    seen = set()

    def each(state) -> None:
        seen.add(state.decision_kind)
        assert state.observation(state.current_player).shape == game.observation_shape

    for seed in range(6):
        assert play_random(seed, each).turn == 8
    assert {"call_medic", "walking_wounded"} & seen


def test_the_heuristic_plays_both_sides():
    """The generic heuristic plays the scenario to the end on either side (against random); a
    ``walking_wounded`` or ``call_medic`` decision gets its first legal action."""
    game = fof_env.make_game("wwii_hedgerow_hamlet")
    for side in (0, 1):
        state = game.new_initial_state(side)
        bot = make_heuristic(game, side, seed=side)
        rng = random.Random(side)
        while not state.is_terminal:
            legal = state.legal_actions()
            action = bot.act(state) if state.current_player == side else rng.choice(legal)
            assert action in legal
            state.apply(action)
        assert state.returns()[side] >= 0.0


def test_the_first_aid_decisions_have_their_own_observation_kinds():
    """The ``call_medic`` and ``walking_wounded`` decisions (rulings R45, R46) extend the decision one-hot of
    this scenario's observation by two; "Lost & Found" keeps its 2,252 floats."""
    from fof_env.force_on_force.observation import piece

    game = fof_env.make_game("wwii_hedgerow_hamlet")
    at, size = piece(game.layout, "decision")
    assert size == 19 + 2 + 4 * 23 + 6 + 11  # 19 base kinds + 2; 23 units (the tanks, 8 card reserves, 4 assets)
    assert fof_env.make_game("lost_and_found").observation_shape == (2252,)
    state = game.new_initial_state(4)  # random play of dice seed 4 comes to a medic call
    rng = random.Random(4)
    while state.decision_kind != "call_medic":
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(state.current_player)
    assert obs[at + 19] == 1.0 and obs[at : at + 21].sum() == 1.0


def test_the_first_aid_piece_shows_react_only_units_and_medics():
    """004: "Unit may only react to fire this turn": the observation's ``first_aid`` piece (before the
    ``cards`` piece, 2 floats a unit, own units first) shows a unit's react_only flag and which units are medics (rulings R44, R45)."""
    from fof_env.force_on_force.observation import piece

    from .helpers import unit

    game = fof_env.make_game("wwii_hedgerow_hamlet")
    at, size = piece(game.layout, "first_aid")
    assert size == 2 * 23 and at + size == piece(game.layout, "cards")[0]
    state = game.state_from_position(
        {
            "stage": "activation",
            "turn": 2,
            "units": {
                "us.A": unit("x05y05", 4, status=["react_only"]),
                "us.Doc": unit("x07y05", 1),
                "ger.1": unit("x35y35", 4),
            },
        }
    )
    obs = state.observation(0)[at : at + size].reshape(23, 2)
    assert obs[0].tolist() == [1.0, 0.0] and obs[4].tolist() == [0.0, 1.0] and obs[5:].sum() == 0
    theirs = state.observation(1)[at : at + size].reshape(23, 2)  # ger units (11) first, then us.A ...
    assert theirs[11].tolist() == [1.0, 0.0] and theirs[15].tolist() == [0.0, 1.0]
