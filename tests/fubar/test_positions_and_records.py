"""Positions, records, scenario files and bad input: one clear line, nothing changed."""

import copy
import json

import numpy as np
import pytest

import fof_env
from fof_env import IllegalActionError, PositionError
from fof_env.core.errors import OptionError
from fof_env.core.game import State
from fof_env.fubar.render import render_rgb
from fof_env.fubar.scenario import scenario_from_dict

from .helpers import figures, game, infantry, position, scenario, vehicle, write

RED = infantry("r.1", (3, 11), figures(4))
BLUE = infantry("b.1", (15, 11), figures(4))


def played(name: str, seed: int, steps: int):
    g = fof_env.make_game(name)
    s = g.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if s.is_terminal:
            break
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))
    return s


@pytest.mark.parametrize("name", ["fubar_lost_and_found", "fubar_village_patrol"])
def test_records_replay_to_the_same_state(name):
    s = played(name, 3, 150)
    again = State.from_json(s.to_json())
    assert again.fingerprint() == s.fingerprint() and again.legal_actions() == s.legal_actions()
    assert again.digest() == s.digest()


@pytest.mark.parametrize("name", ["fubar_lost_and_found", "fubar_village_patrol"])
def test_positions_between_activations_round_trip(name):
    g = fof_env.make_game(name)
    rng = np.random.default_rng(5)
    s = g.new_initial_state(5)
    seen = 0
    while not s.is_terminal and seen < 12:
        if s.decision.kind == "select_unit" and s.stack == [(8,)]:
            pos = s.to_position()
            again = g.state_from_position(json.loads(json.dumps(pos)))
            assert again.to_position() == pos
            assert again.legal_actions() == s.legal_actions()
            seen += 1
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))
    assert seen
    assert g.state_from_position(g.new_initial_state(1).to_position()).decision.kind == "deploy"


def test_same_seed_same_actions_same_game():
    a = played("fubar_village_patrol", 11, 400)
    b = played("fubar_village_patrol", 11, 400)
    assert a.digest() == b.digest() and a.history == b.history


def test_an_illegal_action_changes_nothing():
    g = game(RED, BLUE)
    s = position(g, dice=[5])
    before = s.fingerprint()
    with pytest.raises(IllegalActionError, match="select_unit"):
        s.apply("b.1")
    with pytest.raises(IllegalActionError, match="legal: \\[r.1\\]"):
        s.apply("x99y99")
    assert s.fingerprint() == before


@pytest.mark.parametrize(
    ("units", "message"),
    [
        ({"r.9": {"at": "x03y03"}}, "must be a unit id"),
        ({"r.1": {"at": "x04y03"}}, "no point 'x04y03'"),
        ({"r.1": {"figures": ["ok"]}}, "must list 4 statuses"),
        ({"r.1": {"figures": ["suppressed"] * 4}}, "Suppress limit is 3"),
        ({"r.1": {"engaged": "b.1"}}, "must be engaged with it too"),
        ({"r.1": {"at": "x15y11"}}, "both stand on x15y11"),
        ({"r.1": {"status": ["stunned"]}}, "are for vehicles"),
        ({"r.1": {"colour": "red"}}, "unknown keys"),
    ],
)
def test_bad_positions_are_refused_in_one_line(units, message):
    g = game(RED, BLUE)
    with pytest.raises(PositionError, match=message) as err:
        position(g, units)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("units", "message"),
    [
        ({"b.1": {"at": "x03y11", "in": "r.9"}}, "is not a vehicle of its side"),
        ({"r.1": {"at": "x03y11", "in": "r.2"}}, "is not a vehicle of its side"),
        ({"r.9": {"status": ["destroyed"]}, "r.1": {"in": "r.9"}}, "is not a vehicle of its side"),
        ({"r.9": {"at": None}, "r.1": {"in": "r.9"}}, "is not a vehicle of its side"),
        ({"r.1": {"figures": ["ok"] * 6 + ["casualty"], "in": "r.9"}, "r.2": {"in": "r.9"}}, "carries 2 units"),
        ({"r.1": {"figures": ["ok"] * 7, "in": "r.9"}}, "does not fit"),
    ],
)
def test_bad_passengers_are_refused(units, message):
    g = game(vehicle("r.9", (3, 11), capacity=6), infantry("r.1", (5, 11), figures(7)),
             infantry("r.2", (5, 15), figures(2)), infantry("b.1", (15, 11), figures(2)))  # fmt: skip
    with pytest.raises(PositionError, match=message):
        position(g, units)
    ok = position(g, {"r.1": {"figures": ["ok"] * 6 + ["casualty"], "in": "r.9"}})
    assert ok.carried[1] == 0 and ok.pos[1] == ok.pos[0]


def test_bad_stage_and_turn():
    g = game(RED, BLUE)
    with pytest.raises(PositionError, match="stage must be one of"):
        g.state_from_position({"stage": "lunch"})
    with pytest.raises(PositionError, match="turn must be an integer 1..6"):
        g.state_from_position({"stage": "activation", "turn": 7})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["units"][0]["figures"][0].update(weapons=["laser"]),
         r"units\[0\].figures\[0\].weapons\[0\]: 'laser' is not allowed; allowed: pistol, "),
        (lambda d: d["units"][0].update(training="heroic"), r"units\[0\].training: 'heroic' is not allowed"),
        (lambda d: d["units"][0]["deployment"].update(at=[4, 11]), r"units\[0\].deployment.at: \[4, 11\] is not a grid"),
        (lambda d: d["units"][1].update(id="r.1"), r"units\[1\].id: 'r.1' is used twice"),
        (lambda d: d["units"][0].update(side="green"), r"units\[0\].side: 'green' is not a side"),
        (lambda d: d.update(ruleset="force_on_force"), r"ruleset: 'force_on_force' is not allowed; it must be 'fubar'"),
        (lambda d: d["table"]["features"].append({"id": "w", "kind": "woods", "rect": [30, 0, 40, 4]}),
         r"table: feature 'w' .* extends beyond"),
        (lambda d: d["victory"]["terms"].append({"side": "red", "kind": "pilot_exit", "vp": 3}),
         r"victory.terms\[2\].kind: 'pilot_exit' needs rules.downed_pilot"),
    ],
    ids=["weapon", "training", "point", "duplicate", "side", "ruleset", "feature", "term"],
)  # fmt: skip
def test_bad_scenario_files_name_the_file_and_the_field(change, message):
    data = scenario(infantry("r.1", (3, 11), figures(4)), infantry("b.1", (15, 11), figures(4)))
    change(data)
    path = write(data)
    with pytest.raises((PositionError, OptionError), match=message) as err:
        fof_env.make_game("fubar", scenario=path)
    assert str(err.value).startswith(path) and "\n" not in str(err.value)


def test_scenario_keys_in_order_and_files_that_are_not_there():
    data = scenario(RED, BLUE)
    reordered = {"id": data["id"], **{k: v for k, v in data.items() if k != "id"}}
    with pytest.raises(PositionError, match="keys out of order"):
        scenario_from_dict(reordered, "x.json")
    with pytest.raises(PositionError, match="cannot read scenario file"):
        fof_env.make_game("fubar", scenario="no/such/file.json")
    with pytest.raises(PositionError, match="not a shipped scenario"):
        fof_env.make_game("fubar", scenario="atlantis")
    with pytest.raises(OptionError, match="taliban_teams"):
        fof_env.make_game("fubar_lost_and_found", taliban_teams=5)


@pytest.mark.parametrize("name", ["fubar_lost_and_found", "fubar_village_patrol"])
def test_observations_are_bounded_and_shaped(name):
    s = played(name, 2, 60)
    for player in (0, 1):
        obs = s.observation(player)
        assert obs.shape == s.game.observation_shape and obs.dtype == np.float32
        assert obs.min() >= -1.0 and obs.max() <= 1.0


def test_action_strings_round_trip():
    s = played("fubar_village_patrol", 4, 30)
    for a in range(s.game.num_actions):
        assert s.str_to_action(s.action_to_str(a)) == a
    for bad in ("f99", "c01", "s", "x1y1", 5):
        with pytest.raises(ValueError):
            s.str_to_action(bad)


def test_text_and_rgb_pictures():
    s = played("fubar_village_patrol", 6, 40)
    text = str(s)
    assert "pV" in text and "VP patrol" in text and text == s.view_text(0) == s.view_text(1)
    image = render_rgb(s)
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8


def test_pilot_positions():
    g = fof_env.make_game("fubar_lost_and_found")
    with pytest.raises(PositionError, match="position\\['pilot'\\] takes"):
        g.state_from_position({"stage": "activation", "units": {}, "pilot": {"at": "x21y17", "colour": "orange"}})
    s = g.state_from_position({"stage": "activation", "units": {"tal.1": {"at": "x19y11"}}, "pilot": {"at": "x01y01"}})
    assert s.to_position()["pilot"] == {"at": "x01y01", "with": None, "contact": False, "exited_turn": 0}


def test_deployment_rect_without_points_and_the_file_cache_bound():
    data = copy.deepcopy(scenario(RED, BLUE))
    data["units"][0]["deployment"] = {"rect": [0, 0, 0.5, 0.5]}
    with pytest.raises(PositionError, match=r"units\[0\].deployment.rect: holds no grid point"):
        scenario_from_dict(data, "x.json")
    from fof_env.fubar import scenario as sc

    for turns in range(1, 30):
        fof_env.make_game("fubar", scenario=write(scenario(RED, BLUE, turns=turns)))
    for turns in range(1, 30):
        fof_env.make_game("fubar", scenario=write(scenario(RED, infantry("b.1", (17, 11), figures(4)), turns=turns)))
    for turns in range(1, 15):
        fof_env.make_game("fubar", scenario=write(scenario(RED, infantry("b.1", (19, 11), figures(4)), turns=turns)))
    assert len(sc._FILE_CACHE) <= 65
