"""Rulesets as plugins: every game comes from a ruleset record, and the generic layers ask the record."""

from __future__ import annotations

import inspect

import pytest

import fof_env
from agents.heuristic import has_heuristic, make_heuristic
from fof_env.core import registry
from fof_env.core.registry import (
    game_hook,
    game_spec,
    is_scenario_engine,
    register_ruleset,
    ruleset_of,
    rulesets,
)
from fof_env.core.ruleset import GameSpec, Ruleset, resolve
from fof_env.core.view import RulesetView, view_for
from fof_env.envs.registration import env_id
from fof_env.envs.support import game_support, potential_fn
from fof_env.strike_force_one.game import StrikeForceOneGame

# hooks every ruleset resolves inside its own package, and the one it names in the agents package
PACKAGE_HOOKS = ("state", "view", "observation", "potential", "renderer", "invariants", "random_position",
                 "position_value", "narration", "termination")
GAME_HOOKS = ("potential", "invariants")


def test_every_game_is_a_game_of_exactly_one_ruleset():
    declared = [spec.name for r in rulesets() for spec in r.games]
    assert sorted(declared) == fof_env.list_games() and len(set(declared)) == len(declared)
    for r in rulesets():
        for spec in r.games:
            assert ruleset_of(spec.name) is r and game_spec(spec.name) is spec
            game = fof_env.make_game(spec.name)  # a scenario engine's default scenario may be a game of its own
            assert ruleset_of(game) is r and (game.name == spec.name or is_scenario_engine(spec.name))


def test_every_hook_resolves_in_its_rulesets_package_and_the_heuristic_in_the_agents_package():
    for r in rulesets():
        hooks = [getattr(r, h) for h in PACKAGE_HOOKS] + [getattr(s, h) for s in r.games for h in GAME_HOOKS]
        for hook in filter(None, hooks):
            assert hook.startswith(r.package + "."), hook
            assert resolve(hook) is not None
        for hook in filter(None, [r.heuristic] + [s.heuristic for s in r.games]):
            assert hook.startswith("agents.") and callable(resolve(hook)), hook
        if r.scenario_files is not None:
            assert inspect.ismodule(resolve(r.scenario_files.catalog)) and r.scenario_files.game in r.game_names()


def test_gym_ids_are_distinct_and_every_game_has_a_view_a_potential_and_a_heuristic():
    ids = [env_id(name) for name in fof_env.list_games()]
    assert len(set(ids)) == len(ids)
    for name in fof_env.list_games():
        r = ruleset_of(name)
        assert isinstance(view_for(name), resolve(r.view))
        game = fof_env.make_game(name)  # the hooks of the game it builds (a scenario engine: its scenario's)
        assert potential_fn(game) is r.hook(game.name, "potential")
        assert has_heuristic(name)


class _ToyGame(StrikeForceOneGame):
    name = "toy_game"


@pytest.fixture
def toy_ruleset(monkeypatch):
    """A ruleset registered by a test, as a plugin package would; the registry is restored afterwards."""
    for table in ("_GAMES", "_RULESETS", "_OWNER", "_HOOKS"):
        monkeypatch.setattr(registry, table, dict(getattr(registry, table)))
    toy = Ruleset(name="toy", title="Toy", package=__name__, games=(GameSpec("toy_game", _ToyGame, "Toy", "ToyGame"),),
                  observation_bounds=(-1.0, 1.0))  # fmt: skip
    register_ruleset(toy)
    return toy


def test_a_registered_ruleset_reaches_every_generic_layer_without_its_name_anywhere(toy_ruleset):
    assert "toy_game" in fof_env.list_games() and ruleset_of("toy_game") is toy_ruleset
    game = fof_env.make_game("toy_game")
    assert type(game) is _ToyGame
    assert type(view_for("toy_game")) is RulesetView  # the ruleset names no view: the generic one
    support = game_support("toy_game")
    assert support.env_name == "ToyGame" and support.observation_bounds == (-1.0, 1.0) and support.potential is None
    assert game_hook(game, "potential") is None and not has_heuristic(game)
    with pytest.raises(ValueError, match="no heuristic agent for game 'toy_game'"):
        make_heuristic(game, 0)


def test_a_game_name_belongs_to_one_ruleset(toy_ruleset):
    thief = Ruleset(name="thief", title="Thief", package=__name__, games=(GameSpec("toy_game", _ToyGame, "Toy"),))
    with pytest.raises(ValueError, match="game 'toy_game' of ruleset 'thief' is already ruleset 'toy'"):
        register_ruleset(thief)
