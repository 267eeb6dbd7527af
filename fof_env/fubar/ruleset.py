"""The FUBAR ruleset record, registered on import (:mod:`fof_env.core.ruleset`): the shipped scenarios
as games of their own names and ``fubar`` for any scenario file."""

from __future__ import annotations

from fof_env.core.registry import register_ruleset
from fof_env.core.ruleset import FuzzPlan, GameSpec, Help, Ruleset, ScenarioFiles, Variant
from fof_env.fubar.endings import Termination
from fof_env.fubar.help import DECISION_HELP, HUMAN_HELP

_PACKAGE = "fof_env.fubar"
# the engine's speed targets (validated decisions/s, median ms per random game)
_TARGETS = {"decisions_target": 20_000, "median_ms_target": 20.0}

RULESET = register_ruleset(
    Ruleset(
        name="fubar",
        title="FUBAR",
        package=_PACKAGE,
        games=(
            GameSpec(
                name="fubar_lost_and_found",
                factory=f"{_PACKAGE}.game:FubarLostAndFoundGame",
                title="Lost & Found",
                env_name="FubarLostAndFound",
                fuzz=FuzzPlan(modes=({}, {"taliban_teams": 3}), games=5_000, json_every=10),
                bench=(Variant("FUBAR Lost & Found", **_TARGETS),),
                counterpart="lost_and_found",
                demo=(4, 5),
            ),
            GameSpec(
                name="fubar_village_patrol",
                factory=f"{_PACKAGE}.game:FubarVillagePatrolGame",
                title="Village Patrol",
                env_name="FubarVillagePatrol",
                fuzz=FuzzPlan(modes=({}, {"optional_units": False}), games=5_000, json_every=10),
                bench=(Variant("FUBAR Village Patrol", **_TARGETS),),
                demo=(4, 5),
                examples={
                    "train": (
                        "fof train --game fubar_village_patrol --side both --opponent league heuristic random \\\n"
                        "      --opponent-weights 0.6 0.3 0.1 --keep-checkpoints 20 --checkpoint-every 25000 "
                        "--out runs/fvp-league",
                    ),
                },
            ),
            GameSpec(name="fubar", factory=f"{_PACKAGE}.game:FubarGame", title="a scenario file", env_name="Fubar"),
        ),
        state=f"{_PACKAGE}.state:FubarState",
        view=f"{_PACKAGE}.view:FubarView",
        observation_bounds=(-1.0, 1.0),
        potential=f"{_PACKAGE}.potential:potential",
        invariants=f"{_PACKAGE}.invariants:check_position",
        heuristic="agents.fubar_heuristic:make_fubar_heuristic",
        help=Help(HUMAN_HELP, DECISION_HELP),
        scenario_files=ScenarioFiles(f"{_PACKAGE}.scenario", "fubar"),
        terminations=tuple(Termination),
    )
)
