"""Scenario files of your own: docs/games.md's "write your own scenario" file plays, and a malformed
file is refused in one line naming the file, the field and what is allowed (issue 10).

``scenarios/crossroads.json`` lives only under ``tests/``: the engine knows nothing of it but
what the file says.
"""

import copy
import json
from pathlib import Path

import pytest

import fof_env
from fof_env.core.errors import OptionError, ScenarioError
from fof_env.force_on_force.scenario import load_scenario
from fof_env.force_on_force.scenario_schema import RULE_MODULES

CROSSROADS = Path(__file__).parent / "scenarios" / "crossroads.json"
BASE = json.loads(CROSSROADS.read_text())


def test_the_test_scenario_builds_a_game_from_the_file_alone():
    game = fof_env.make_game("force_on_force", scenario=str(CROSSROADS))
    assert game.name == "force_on_force" and game.player_names == ("red", "blue")
    assert game.options["scenario"] == str(CROSSROADS)
    assert game.num_actions == game.layout.num_actions and game.observation_shape == (1044,)
    state = game.new_initial_state(0)
    assert state.decision_kind == "deploy" and state.current_player == 1  # blue deploys first


def _set(path, value):
    def change(d):
        *keys, last = path
        for k in keys:
            d = d[k]
        d[last] = value

    return change


def _drop(path):
    def change(d):
        *keys, last = path
        for k in keys:
            d = d[k]
        del d[last]

    return change


def _add_feature(feature):
    return lambda d: d["table"]["features"].append(feature)


MALFORMED = [
    ("missing field", _drop(["turns"]), "(the file): 'turns' is a required property"),
    ("unit without figures", _drop(["units", 0, "figures"]), "units[0]: 'figures' is a required property"),
    ("unknown weapon class", _set(["units", 0, "figures", 1, "support"], "huge"),
     "units[0].figures[1].support: 'huge' is not one of [None, 'light', 'medium', 'heavy']"),
    ("unit off the table", _set(["units", 0, "deploy"], {"at": [30, 5]}),
     'units[0].deploy.at: [30, 5] is off the 24" x 24" table'),
    ("deployment zone off the table", _set(["units", 0, "deploy"], {"zone": [30, 30, 40, 40]}),
     "units[0].deploy.zone: [30, 30, 40, 40] holds no grid point of the table"),
    ("overlapping terrain", _add_feature({"id": "wood2", "kind": "woods", "rect": [11, 11, 13, 13]}),
     "table.features: 'farm' and 'wood2' overlap (terrain areas may touch, not overlap)"),
    ("terrain off the table", _set(["table", "features", 0, "rect"], [10, 10, 30, 14]),
     "table: feature 'farm' (10.0, 10.0, 30.0, 14.0) extends beyond the 24.0\" x 24.0\" table"),
    ("too many grid points", lambda d: d["table"].update(width_in=120, height_in=120, spacing_in=1),
     'table: 120" x 120" with 1" spacing has 14400 grid points; at most 1024 (use a wider spacing or a '
     "smaller table)"),
    ("too wide a table", _set(["table", "width_in"], 500), "table.width_in: 500 is greater than the maximum of 120"),
    ("unknown side", _set(["units", 0, "side"], "green"), "units[0].side: 'green' is not a side; sides: red, blue"),
    ("duplicate unit id", _set(["units", 1, "id"], "red.1"), "units[1].id: 'red.1' is the id of two units"),
    ("unknown feature in victory", _set(["victory", "vp", 2, "feature"], "barn"),
     "victory.vp[2].feature: 'barn' is not a feature of the table"),
    ("unknown rule module", _set(["rules"], {"teleport": {}}),
     "rules: Additional properties are not allowed ('teleport' was unexpected); allowed: "
     + ", ".join(sorted(RULE_MODULES))),
    ("bad rule setting", _set(["rules"], {"ambush": {"side": "red", "fires_first": "sometimes"}}),
     "rules.ambush.fires_first: 'sometimes' is not one of ['on_4+', 'always'] or {\"option\": NAME}"),
    ("wrong format", _set(["format"], "fof-scenario/9"), "format: 'fof-scenario/9' is not 'fof-scenario/1'"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "message"), [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_a_malformed_scenario_is_refused_in_one_line(tmp_path, change, message):
    data = copy.deepcopy(BASE)
    change(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as info:
        fof_env.make_game("force_on_force", scenario=str(path))
    assert str(info.value) == f"{path}: {message}"
    assert "\n" not in str(info.value)


SHIPPED = json.loads((Path(fof_env.__file__).parent / "force_on_force" / "scenarios" / "lost_and_found.json").read_text())
PILOT_RULE = ["rules", "downed_pilot"]

ON_A_SHARED_TABLE = [
    ("unknown shared table", _set(["table", "ref"], "atlantis"),
     "table.ref: 'atlantis' is not a shared table; shared tables: lost_and_found"),
    ("shared table changed", _set(["table", "width_in"], 40),
     "table: Additional properties are not allowed ('width_in' was unexpected); allowed: ref"),
    ("unknown mark", _set(["units", 0, "deploy", "mark"], "9"),
     "units[0].deploy.mark: '9' is not a mark of shared table 'lost_and_found'; marks: P, 1, 2, 3, 4"),
    ("unknown objective", _set([*PILOT_RULE, "objective"], "treasure"),
     "rules.downed_pilot.objective: 'treasure' is not an objective of shared table 'lost_and_found'; "
     "objectives: downed_pilot"),
    ("objective given twice", _set([*PILOT_RULE, "deadline_turn"], 9),
     "rules.downed_pilot.deadline_turn: set by objective 'downed_pilot' of shared table 'lost_and_found'; give it "
     "there or drop 'objective'"),
    ("no objective, no building", _drop([*PILOT_RULE, "objective"]), "rules.downed_pilot: missing 'building'"),
]  # fmt: skip
ON_ITS_OWN_TABLE = [
    ("mark without a shared table", _set(["units", 0, "deploy"], {"mark": "1", "radius": 2}),
     "units[0].deploy.mark: '1' names a mark, but only a shared table ('table': {'ref': ID}) has marks; give [x, y]"),
    ("objective without a shared table",
     _set(["rules"], {"downed_pilot": {"side": "blue", "objective": "downed_pilot"}}),
     "rules.downed_pilot.objective: only a shared table ('table': {'ref': ID}) has objectives"),
]  # fmt: skip


@pytest.mark.parametrize(("base", "change", "message"),
                         [(SHIPPED, *c[1:]) for c in ON_A_SHARED_TABLE] + [(BASE, *c[1:]) for c in ON_ITS_OWN_TABLE],
                         ids=[c[0] for c in ON_A_SHARED_TABLE + ON_ITS_OWN_TABLE])  # fmt: skip
def test_references_to_a_shared_table_are_checked_in_one_line(tmp_path, base, change, message):
    """``"table": {"ref": ID}``, the marks it names and the pilot's objective: a bad reference names the
    file, the field and what there is."""
    data = copy.deepcopy(base)
    change(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as info:
        load_scenario(str(path))
    assert str(info.value) == f"{path}: {message}"


def test_a_file_of_your_own_may_play_on_a_shared_table(tmp_path):
    """The shipped Lost & Found, written out as a file of your own, plays on the same shared table."""
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(SHIPPED))
    mine, shipped = load_scenario(str(path)), load_scenario("lost_and_found")
    assert mine.table.features == shipped.table.features and mine.units == shipped.units
    assert mine.rules["downed_pilot"]["start_point"] == shipped.table.index("x21y17")


def test_a_file_that_is_not_json_or_not_there_is_refused_in_one_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    with pytest.raises(ScenarioError, match=r"broken\.json: not JSON: Expecting property name"):
        load_scenario(str(path))
    with pytest.raises(OptionError, match=r"nope\.json: cannot read the scenario file: No such file"):
        fof_env.make_game("force_on_force", scenario=str(tmp_path / "nope.json"))


# ------------------------------------------------------------------ the file plays end to end
def test_the_test_scenario_plays_in_gymnasium_with_masks():
    import gymnasium as gym
    import numpy as np

    import fof_env.envs  # noqa: F401 - registers the ids

    env = gym.make("fof_env/ForceOnForce-v0", scenario=str(CROSSROADS), side="blue")
    obs, info = env.reset(seed=5)
    assert obs.shape == (1044,) and env.action_space.n == 170
    rng = np.random.default_rng(5)
    done, steps = False, 0
    while not done:
        assert info["action_mask"].any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done, steps = terminated or truncated, steps + 1
    assert terminated and reward in (-1.0, 0.0, 1.0) and steps > 3


@pytest.mark.parametrize("heuristic_side", [0, 1])
def test_the_test_scenario_heuristic_against_mcts(heuristic_side):
    """The generic Force on Force heuristic and MCTS play the file to the end on either side."""
    from agents import make_agent
    from evaluation.match import play_game

    game = fof_env.make_game("force_on_force", scenario=str(CROSSROADS))
    agents = [make_agent("mcts", game, p, seed=p, simulations=8) for p in (0, 1)]
    agents[heuristic_side] = make_agent("heuristic", game, heuristic_side, seed=3)
    result = play_game(game, agents, seed=11)
    assert result.returns[0] == -result.returns[1] and result.decisions > 10


def test_the_test_scenario_in_a_tournament_of_mcts_and_random(tmp_path):
    from evaluation.replay import replay
    from evaluation.tournament import run_tournament

    result = run_tournament("force_on_force", {"scenario": str(CROSSROADS)}, ["mcts:8", "random"], 1,
                            seed=3, records_dir=tmp_path, progress=False, mirror=False)  # fmt: skip
    assert len(result.outcomes) == 2 and result.pairings == [("mcts:8", "random"), ("random", "mcts:8")]
    records = sorted(tmp_path.rglob("*.json"))
    assert records
    for path in records:
        replayed = replay(path)
        assert replayed.verified and replayed.state.is_terminal
        assert replayed.state.game.options["scenario"] == str(CROSSROADS)


def test_the_documented_scenario_is_valid_and_plays(tmp_path):
    """The JSON block of docs/games.md's "write your own scenario" is a scenario that plays."""
    import random
    import re

    page = (Path(__file__).parents[2] / "docs" / "games.md").read_text()
    section = page.split("## Force on Force: write your own scenario", 1)[1]
    block = re.search(r"```json\n(.*?)\n```", section, re.S).group(1)
    path = tmp_path / "farmhouse.json"
    path.write_text(block)
    game = fof_env.make_game("force_on_force", scenario=str(path), rules="full")
    state = game.new_initial_state(7)
    rng = random.Random(7)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    assert set(state.score) == {"red_vp", "blue_vp"}
