"""The Strike Force One ruleset record, registered on import (:mod:`fof_env.core.ruleset`)."""

from __future__ import annotations

from fof_env.core.registry import register_ruleset
from fof_env.core.ruleset import FuzzPlan, GameSpec, Ruleset, Variant
from fof_env.strike_force_one.endings import Termination
from fof_env.strike_force_one.help import HELP

_PACKAGE = "fof_env.strike_force_one"

GAME = GameSpec(
    name="strike_force_one",
    factory=f"{_PACKAGE}.game:StrikeForceOneGame",
    title="Strike Force One",
    env_name="StrikeForceOne",
    fuzz=FuzzPlan(modes=({"optional_rules": False}, {"optional_rules": True}), games=10_000),
    position_fuzz=({}, {"optional_rules": True}),
    bench=(Variant("Strike Force One"), Variant("Strike Force One, optional rules", {"optional_rules": True})),
    featured=True,
    examples={
        "play": (
            "fof play strike_force_one --soviet heuristic --us random --seed 1 --optional-rules",
            "fof play strike_force_one --soviet human --us heuristic",
            "fof play strike_force_one --soviet heuristic --us heuristic --quiet --record game.json",
        ),
        "evaluate": (
            "fof evaluate --game strike_force_one --agents random heuristic mcts:100 --games 50",
            "fof evaluate --game strike_force_one --agents random heuristic --backend ray --address HEAD:6379",
        ),
        "train": (
            "fof train --game strike_force_one --side soviet --steps 300000 --out runs/sfo-soviet",
            "fof train --game strike_force_one --side both --opponent self heuristic --out runs/sfo-selfplay",
            "fof train --resume runs/sfo-soviet        # continue after an interruption",
        ),
    },
)

RULESET = register_ruleset(
    Ruleset(
        name="strike_force_one",
        title="Strike Force One",
        package=_PACKAGE,
        games=(GAME,),
        state=f"{_PACKAGE}.state:StrikeForceOneState",
        view=f"{_PACKAGE}.view:StrikeForceOneView",
        observation_bounds=(-1.0, 1.0),
        potential=f"{_PACKAGE}.potential:potential",
        invariants=f"{_PACKAGE}.fuzzing:check_position",
        random_position=f"{_PACKAGE}.fuzzing:random_position",
        position_value=f"{_PACKAGE}.potential:position_value",
        heuristic="agents.strike_force_one_heuristic:make_strike_force_one_heuristic",
        help=HELP,
        terminations=tuple(Termination),
    )
)
