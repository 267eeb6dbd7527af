"""The Force on Force ruleset record, registered on import (:mod:`fof_env.core.ruleset`): the shipped
scenarios as games of their own names and ``force_on_force`` for any scenario file."""

from __future__ import annotations

from fof_env.core.registry import register_ruleset
from fof_env.core.ruleset import FuzzPlan, GameSpec, Ruleset, ScenarioFiles, Variant
from fof_env.force_on_force.endings import Termination
from fof_env.force_on_force.help import HELP, LOST_AND_FOUND

_PACKAGE = "fof_env.force_on_force"
_CHECK_POSITION = f"{_PACKAGE}.fuzzing:check_position"
# the engine's speed targets (validated decisions/s, median ms per random game)
_TARGETS = {"decisions_target": 10_000, "median_ms_target": 50.0}

LOST_AND_FOUND_GAME = GameSpec(
    name="lost_and_found",
    factory=f"{_PACKAGE}.game:LostAndFoundGame",
    title="Lost & Found",
    env_name="LostAndFound",
    potential=f"{_PACKAGE}.potential:lost_and_found_potential",
    invariants=_CHECK_POSITION,
    heuristic="agents.lost_and_found_heuristic:make_lost_and_found_heuristic",
    help=LOST_AND_FOUND,
    fuzz=FuzzPlan(modes=({}, {"rules": "quick"}, {"taliban_teams": 3, "fog_of_war": False},
                         {"ambush": False, "capture": False}), games=5_000),  # fmt: skip
    position_fuzz=({}, {"rules": "quick"}, {"taliban_teams": 3, "fog_of_war": False}),
    bench=(Variant("Lost & Found", **_TARGETS), Variant("Lost & Found, quick rules", {"rules": "quick"}, **_TARGETS)),
    featured=True,
    endings={"auto victory": "the pilot still on the table at the end of turn 8",
             "air strike": "the pilot's air strike called in", "turn limit": "turn 9 ended"},
    examples={
        "play": ("fof play lost_and_found --taliban random --usmc human --option rules=quick",),
        "evaluate": (
            "fof evaluate --game lost_and_found --option rules=quick --agents heuristic mcts:200 ppo --games 50",
            "fof evaluate --resume reports/lost_and_found-20250101-120000     # after Ctrl-C, SIGTERM, a kill",
        ),
        "train": (
            "fof train --game lost_and_found --side taliban --imitate heuristic --opponent heuristic random \\\n"
            "      --opponent-weights 0.8 0.2 --out runs/laf-taliban",
            "fof train --game lost_and_found --side usmc --imitate heuristic --imitation-coef 1.0 \\\n"
            "      --steps 2000000 --stop-at 300000 --out runs/laf-usmc   # pause at 300k; the anchor decays to 2M",
            "fof train --resume runs/laf-usmc --best   # finish from its best evaluated checkpoint",
            "fof train --game lost_and_found --side usmc --init ppo --opponent random heuristic \\\n"
            "      --learning-rate 1e-4 --out runs/laf-usmc-tuned   # fine-tune the shipped model",
        ),
    },
)

RULESET = register_ruleset(
    Ruleset(
        name="force_on_force",
        title="Force on Force",
        package=_PACKAGE,
        games=(
            LOST_AND_FOUND_GAME,
            GameSpec(
                name="compound_raid",
                factory=f"{_PACKAGE}.game:CompoundRaidGame",
                title="Compound Raid",
                env_name="CompoundRaid",
                invariants=_CHECK_POSITION,
                fuzz=FuzzPlan(games=5_000),
                bench=(Variant("Compound Raid", **_TARGETS),),
                demo=(4, 5),
            ),
            GameSpec(
                name="wwii_hedgerow_hamlet",
                factory=f"{_PACKAGE}.game:WwiiHedgerowHamletGame",
                title="Hedgerow Hamlet",
                env_name="WwiiHedgerowHamlet",
                fuzz=FuzzPlan(games=5_000),
                bench=(Variant("Hedgerow Hamlet", decisions_target=10_000),),
                demo=(4, 5),
            ),
            GameSpec(
                name="force_on_force",
                factory=f"{_PACKAGE}.game:ForceOnForceGame",
                title="a scenario file",
                env_name="ForceOnForce",
            ),
        ),
        state=f"{_PACKAGE}.state:ForceOnForceState",
        view=f"{_PACKAGE}.view:ForceOnForceView",
        observation_bounds=(-1.0, 1.0),
        potential=f"{_PACKAGE}.potential:force_on_force_potential",
        invariants=f"{_PACKAGE}.fuzzing:check_cards",
        random_position=f"{_PACKAGE}.fuzzing:random_position",
        position_value=f"{_PACKAGE}.potential:position_value",
        heuristic="agents.force_on_force_heuristic:make_force_on_force_heuristic",
        help=HELP,
        scenario_files=ScenarioFiles(f"{_PACKAGE}.scenario", "force_on_force", claims_unmarked=True),
        terminations=tuple(Termination),
    )
)
