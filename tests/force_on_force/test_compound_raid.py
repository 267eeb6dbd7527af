""""Compound Raid" (``scenarios/compound_raid.json``, rulings R42): the scenario file, its forces and
terrain under the 003 rules with scripted dice, its registration (game, gym id, PettingZoo, view,
heuristic), whole games of every agent kind, a tiny ``fof train`` and ``fof evaluate``, and the
heuristic's strength against ``random`` on both sides.

Seed: 003_b1b2d2a6d4b3bab2.txt (quoted in each test). Fire tests list the dice they expect: the
firepower dice, then the defence dice, all 1s (misses).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import fof_env
from agents.base import make_agent
from agents.heuristic import make_heuristic
from evaluation.match import build_agent, play_game
from evaluation.scenario_strength import play
from fof_env import cli
from fof_env.core.view import view
from fof_env.envs.aec_env import env as aec_env
from fof_env.force_on_force.potential import force_on_force_potential
from fof_env.force_on_force.scenario import load_scenario, shipped_scenarios
from tests.agents.bot_checks import act_without_touching

from .helpers import decline_reactions, dice_used, fires, script, unit
from .raid_helpers import BRITISH, MILITIA, raid, raid_state


# ------------------------------------------------------------------ the file
def test_the_scenario_is_designed_for_this_project_and_valid():
    sc = load_scenario("compound_raid")  # schema, geometry and cross references checked
    assert "compound_raid" in shipped_scenarios()
    assert sc.provenance.startswith("DESIGNED FOR THIS PROJECT, not a published scenario")
    assert sc.source == "003_b1b2d2a6d4b3bab2.txt"
    assert [s.id for s in sc.sides] == ["british", "militia"] and sc.turns == 6
    kinds = {f.kind for f in sc.table.features}
    assert {"wall", "improved_position", "fortified_position", "building", "woods"} <= kinds
    assert set(sc.rules) == {"irregulars", "out_of_contact"}
    game = fof_env.make_game("compound_raid")
    same = fof_env.make_game("force_on_force", scenario="compound_raid")
    assert game.name == same.name == "compound_raid" and game.player_names == ("british", "militia")
    # 324 points + 7 units + 11 split counts + 11 named actions; observation: 7 x 28 unit features, 16
    # game features, 19 decision kinds + 4 x 7 + 6 + 11, 6 x 324 board planes (observation.py)
    assert game.num_actions == 353 and game.observation_shape == (2220,)


def test_the_forces():
    """003: "D10 Troop Quality", "D12 Troop Quality: May engage FOUR targets", "Light Body Armor (+1
    Defense Die)", "+1 if unit is Well Supplied", "-1 die if unit is Poorly Supplied", "Heavy Support
    (+3 Firepower Die) ... Heavy Support Weapons include: HMGs"; the militia are irregulars that may
    move Out of Contact (rulings R37, R40)."""
    setup = raid().setup
    got = {p.name: (p.figures, p.tq, p.morale, p.armor, p.supply, p.support) for p in setup.profiles}
    assert got == {
        "brit.A": (4, 10, 10, 1, 1, (1, 1)), "brit.B": (4, 10, 10, 1, 1, (1, 1)), "brit.C": (4, 12, 10, 1, 1, (2,)),
        "mil.1": (3, 6, 8, 0, -1, (3,)), "mil.2": (6, 6, 8, 0, -1, (2, 1)), "mil.3": (6, 6, 8, 0, -1, (1,)),
        "mil.4": (5, 6, 8, 0, -1, (2,)),
    }  # fmt: skip
    assert setup.irregular == (False, False, False, True, True, True, True)
    assert setup.out_of_contact_side == MILITIA
    off = raid(irregulars=False, out_of_contact=False).setup
    assert not any(off.irregular) and off.out_of_contact_side == -1


# ------------------------------------------------------------------ terrain and weapons (scripted dice)
def _fire_on_the_compound_table(shooter: str, at: str, target: str, where: str, dice: int, **brit):
    s = raid_state({shooter: unit(at, **brit), target: unit(where)}, table=None)
    for action in (shooter, "fire", target):
        s.apply(action)
    script(s, [1] * dice)
    decline_reactions(s)
    assert dice_used(s) == dice
    return [(f.shooter, f.target, f.firepower, f.defense) for f in fires(s)]


def test_fortified_improved_and_solid_cover_on_the_compound_table():
    """003: "Fortified Cover ...: +3D", "Improved Cover (shallow trenches, sandbagged walls, etc.): +2D",
    "Intervening Cover: If enemy fire passes over an intervening terrain feature, such as a stone wall
    ... that unit may claim the Solid Cover bonus" (+1D), and no In Cover die for unmoved irregulars
    (R39). A British fire team: 4 figures + 2 Light support weapons + 1 Optimum Range (within 10",
    its support weapons 20") + 1 Well Supplied = 8D10; the targets are not Exposed (inside a position
    or next to a wall).

    * the DShK crew (3) in the bunker at x23y11, fired on from x15y11 (8") across the west wall: 3 + 3
      Fortified + 1 Solid (the wall) = 7D6 ("Cover modifiers that overlap are cumulative.", R6);
    * the gate guard (6) in the sangar at x21y17, from x15y17 (6", through the gate): 6 + 2 = 8D6;
    * the house fighters (6) at x27y11, just inside the north wall, from x25y05 (6.3" across it):
      6 + 1 = 7D6."""
    assert _fire_on_the_compound_table("brit.A", "x15y11", "mil.1", "x23y11", 8 + 7) == [("brit.A", "mil.1", 8, 7)]
    assert _fire_on_the_compound_table("brit.B", "x15y17", "mil.2", "x21y17", 8 + 8) == [("brit.B", "mil.2", 8, 8)]
    assert _fire_on_the_compound_table("brit.A", "x25y05", "mil.3", "x27y11", 8 + 7) == [("brit.A", "mil.3", 8, 7)]


def test_the_quick_rules_keep_the_scenarios_modules_and_terrain():
    """R53: ``rules="quick"`` is the quick start's (000) arithmetic and sequence; the scenario's own rules
    (its ``rules`` modules) and its terrain's cover dice stay. 003: "Out of Contact Movement may only be
    utilized by units designated by a scenario"; Compound Raid designates the militia, and names them
    irregulars. Under the quick rules:

    * brit.A (4 figures, two Light weapons) fires at the DShK crew (3) in the bunker across the west wall,
      8" away: 4 + 2 + 1 Optimum Range = 7D10 (no Well Supplied die, no 10D cap: R22) against 3 +
      Fortified 3 = 6D6 (one cover die count: the larger of the bunker's 3 and the wall's 1, R6);
    * mil.1, an irregular target, may not fire back: it is asked only about a reaction move (R37);
    * mil.4, unseen in the palm grove while the British hold the initiative, may move Out of Contact into
      the house at x29y17, 14.6" away, beyond its 12" (R40)."""
    s = raid_state({"brit.A": unit("x15y11"), "mil.1": unit("x23y11")}, table=None, rules="quick")
    for action in ("brit.A", "fire", "mil.1"):
        s.apply(action)
    assert s.decision_kind == "declare_interrupt" and s.legal_action_strings() == ["pass", "interrupt_move"]
    script(s, [1] * (7 + 6))
    decline_reactions(s)
    assert [(f.target, f.firepower, f.defense) for f in fires(s)] == [("mil.1", 7, 6)] and dice_used(s) == 13
    s = raid_state({"brit.A": unit("x05y17"), "mil.4": unit("x25y31")}, table=None, rules="quick",
                   portion="non_initiative")  # fmt: skip
    assert not s.table.los[s.table.index("x05y17")][s.table.index("x25y31")]
    s.apply("mil.4")
    s.apply("move")
    assert "x29y17" in s.legal_action_strings()


def test_well_supplied_gives_a_firepower_die():
    """003: "+1 if unit is Well Supplied": the same fire at the bunker without the British supply: 7D10
    (against 7D6: basic 3 + Fortified 3 + the wall 1)."""
    shots = _fire_on_the_compound_table("brit.A", "x15y11", "mil.1", "x23y11", 7 + 7, supply="normal")
    assert shots == [("brit.A", "mil.1", 7, 7)]


@pytest.mark.parametrize(("moved", "firepower", "defense"), [("none", 7, 5), ("tactical", 5, 5), ("rapid", 3, 4)])
def test_the_dshk_is_a_heavy_support_weapon(moved, firepower, defense):
    """003: "Heavy Support (+3 Firepower Die)", "Support Weapons ... have twice the usual Optimum Range",
    "any Heavy Weapon that make a Tactical Move during a turn suffers a two dice penalty to its
    Firepower", "Heavy support Weapons whose crew makes a Rapid Move may not fire at all", "-1 die if
    unit is Poorly Supplied", "Exposed: +1 Firepower Die for Attacker", "lose one die of Firepower"
    after a Rapid move. The DShK crew (3, D6) at x33y11 fires at brit.A, Exposed at x27y11, 6" away
    (Optimum Range for its riflemen, 6", and the DShK, 12"):

    * unmoved: 3 + 3 + 1 Optimum + 1 Exposed - 1 Poorly Supplied = 7D6;
    * after a Tactical move: 3 + (3 - 2) + 1 + 1 - 1 = 5D6;
    * after a Rapid move: 3 + 0 + 1 + 1 - 1 - 1 Rapid = 3D6.

    brit.A defends with min(4, firepower) + 1 armour (Exposed: no In Cover)."""
    s = raid_state({"brit.A": unit("x27y11", 4), "mil.1": unit("x33y11", moved=moved)}, initiative="militia")
    for action in ("mil.1", "fire", "brit.A"):
        s.apply(action)
    script(s, [1] * (firepower + defense))
    decline_reactions(s)
    assert [(f.shooter, f.firepower, f.defense) for f in fires(s)] == [("mil.1", firepower, defense)]
    assert dice_used(s) == firepower + defense


def test_the_d12_team_engages_four_targets_and_a_d10_team_three():
    """003: "D10 Troop Quality: May engage THREE targets D12 Troop Quality: May engage FOUR targets" and
    "Support Weapon dice must be allocated to one target" (R24). brit.C (D12: 4 figures and a GPMG)
    gives one figure each to mil.2, mil.3 and mil.4 and keeps one figure and the GPMG on mil.1, all
    about 31" away (beyond every Optimum Range), none Exposed: mil.1 gets 1 + 2 (Medium) + 1 Well
    Supplied = 4D12 against 3D6 (basic 3, no In Cover: irregulars), the others 1D12 against 1D6 ("+1 if
    unit is Well Supplied" is the unit's die, once for the whole fire: R24)."""
    targets = {"mil.1": unit("x33y05", 3), "mil.2": unit("x33y13", 3, support=[]),
               "mil.3": unit("x33y21", 3, support=[]), "mil.4": unit("x33y29", 3, support=[])}  # fmt: skip
    s = raid_state({"brit.C": unit("x03y17"), **targets})
    s.apply("brit.C")
    s.apply("fire")
    s.apply("mil.1")
    assert s.legal_action_strings() == ["mil.2", "mil.3", "mil.4", "pass"]
    for action in ("mil.2", "n1", "mil.3", "n1", "mil.4", "n1"):
        s.apply(action)
    assert s.decision_kind == "split_support" and s.legal_action_strings() == ["mil.1", "mil.2", "mil.3", "mil.4"]
    s.apply("mil.1")
    script(s, [1] * (4 + 3 + 3 * (1 + 1)))
    decline_reactions(s)
    assert [(f.target, f.firepower, f.defense) for f in fires(s)] == [
        ("mil.1", 4, 3), ("mil.2", 1, 1), ("mil.3", 1, 1), ("mil.4", 1, 1)]  # fmt: skip
    assert dice_used(s) == 13

    d10 = raid_state({"brit.A": unit("x03y17"), **targets})
    for action in ("brit.A", "fire", "mil.1", "mil.2", "n1", "mil.3", "n1"):
        d10.apply(action)
    assert d10.decision_kind == "split_support"  # no fourth target


# ------------------------------------------------------------------ registration and play
def test_registered_everywhere():
    game = raid()
    assert "compound_raid" in fof_env.list_games()
    assert type(make_heuristic(game, 0)).__name__ == "ForceOnForceHeuristic"
    env = gym.make("fof_env/CompoundRaid-v0", side="militia", opponent="heuristic", reward="shaped")
    obs, info = env.reset(seed=3)
    assert obs.shape == (2220,) and env.observation_space.low.min() == -1.0
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done:
        mask = info["action_mask"]
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = terminated or truncated
        steps += 1
    assert steps > 5
    rgb = gym.make("fof_env/CompoundRaid-v0", render_mode="rgb_array")
    rgb.reset(seed=1)
    assert rgb.render().ndim == 3
    aec = aec_env(game="compound_raid")
    aec.reset(seed=2)
    assert aec.agents == ["british", "militia"]
    state = game.new_initial_state(5)
    data = view(state, MILITIA)
    assert data["game"] == "compound_raid" and data["board"]["type"] == "table"
    json.dumps(data)


def test_the_shaped_reward_potential():
    """``shaping.force_on_force_potential`` (its docstring's formula): brit.A (4 figures, one lightly
    wounded: it still fights) against mil.2 and mil.3 (6 figures each; mil.2 has 2 KIA and 1 down).
    VP: British 2 (1 per militia KIA or serious), militia 0. Out of the fight: 3 of the 12 militia
    figures, none of the 4 British. British: 0.3 x 2/20 + 0.1 x (3/12 - 0) = 0.055; militia: -0.055."""
    s = raid_state({"brit.A": unit("x03y11", 3, light=1), "mil.2": unit("x33y11", 3, kia=2, down=1),
                    "mil.3": unit("x33y21")}, table=None)  # fmt: skip
    assert s.victory_points() == (2, 0)
    assert force_on_force_potential(s, BRITISH) == pytest.approx(0.055)
    assert force_on_force_potential(s, MILITIA) == pytest.approx(-0.055)


@pytest.mark.parametrize("specs", [("heuristic", "random"), ("random", "heuristic"), ("mcts:20", "heuristic"),
                                   ("heuristic", "mcts:20")])  # fmt: skip
def test_whole_games(specs):
    game = raid()
    agents = [build_agent(spec, game, p, seed=p) for p, spec in enumerate(specs)]
    checked = []

    def check(state, player, action):
        if specs[player] == "heuristic" and len(checked) < 60:
            assert act_without_touching(make_heuristic(game, player), state) in state.legal_actions()
            checked.append(action)

    result = play_game(game, agents, seed=11, on_step=check)
    assert result.decisions > 20 and checked


def test_the_heuristic_beats_random_on_both_sides():
    """20 games a side (dice seeds 0-19). Random play wins about 78% of the games as the British and 16%
    as the militia (``python -m evaluation.scenario_strength``), so these thresholds cannot be met by
    chance: 18 British wins of 20 with a mean VP lead of 8 or more, 15 militia wins of 20."""
    british = play("compound_raid", ("heuristic", "random"), list(range(20)))
    assert british.wins[BRITISH] >= 18 and (british.vp[0] - british.vp[1]) / 20 >= 8
    militia = play("compound_raid", ("random", "heuristic"), list(range(20)))
    assert militia.wins[MILITIA] >= 15


def test_fof_train_and_fof_evaluate(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    run = tmp_path / "run"
    argv = ["train", "--game", "compound_raid", "--side", "militia", "--steps", "256", "--envs", "1",
            "--opponent", "heuristic", "--reward", "shaped", "--n-steps", "128", "--batch-size", "64",
            "--n-epochs", "1", "--net-arch", "16", "--eval-every", "256", "--eval-games", "2",
            "--final-eval-games", "2", "--checkpoint-every", "256", "--torch-threads", "1", "--no-progress",
            "--out", str(run)]  # fmt: skip
    assert cli.main(argv) == 0
    card = json.loads((run / "model.json").read_text())
    assert card["game"] == "compound_raid" and card["side"] == "militia" and card["num_actions"] == 353
    ppo = make_agent("ppo", raid(), "militia", seed=1, path=str(run / "model.safetensors"))
    result = play_game(raid(), [make_agent("random", raid(), 0, seed=1), ppo], seed=4)
    assert result.decisions > 0

    out = tmp_path / "rep"
    argv = ["evaluate", "--game", "compound_raid", "--agents", "random", "heuristic", "--games", "1",
            "--workers", "1", "--out", str(out), "--no-progress", "--no-html"]  # fmt: skip
    assert cli.main(argv) == 0
    assert "# Tournament: compound_raid" in capsys.readouterr().out
    data = json.loads((out / "results.json").read_text())
    assert data["timing"]["games"] == 4


@pytest.mark.parametrize("numbers", [range(37, 43), range(51, 55)], ids=["R37-R42", "R51-R54"])
def test_rulings_of_the_003_modules_quote_the_seed_and_name_tests_that_exist(numbers):
    """Each ruling of the 003 modules and readings quotes 003 (or 000) and names its tests; every test it
    names exists."""
    here = Path(__file__).parent
    text = (here.parents[1] / "fof_env" / "force_on_force" / "rulings.md").read_text()
    for n in numbers:
        block = text.split(f"**R{n}.")[1].split("\n**R")[0]
        assert re.search(r"\b00[03]\b", block), n
        named = re.findall(r"`(test_\w+\.py)::(test_\w+)`", block)
        assert named, n
        for module, test in named:
            assert f"def {test}(" in (here / module).read_text(), (n, module, test)
