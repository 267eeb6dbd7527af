"""The Strike Force One :class:`~fof_env.core.game.Game`."""

from __future__ import annotations

from typing import Any

from fof_env.core.game import Game
from fof_env.core.options import OptionSpec, check_options
from fof_env.strike_force_one.constants import NUM_ACTIONS
from fof_env.strike_force_one.data import SIDES, Scenario, scenario
from fof_env.strike_force_one.observation import OBS_SIZE, OBS_VERSION
from fof_env.strike_force_one.state import StrikeForceOneState


class StrikeForceOneGame(Game):
    """Strike Force One. Options:

    * ``optional_rules`` (bool, default False): rules 7.0 stacking, 8.0 woods and
      9.0 combat differential, all together ("All of these optional rules must be
      used if any are used").
    """

    name = "strike_force_one"
    state_class = StrikeForceOneState
    player_names = SIDES
    num_actions = NUM_ACTIONS
    observation_shape = (OBS_SIZE,)
    observation_version = OBS_VERSION
    max_decisions = 600

    OPTIONS = (OptionSpec("optional_rules", False, bool, doc="rules 7.0 stacking, 8.0 woods, 9.0 differential"),)

    def __init__(self, **options: Any):
        self.options = check_options(self.name, self.OPTIONS, options)
        self.optional_rules = self.options["optional_rules"]
        self.scenario: Scenario = scenario()
        self._template: StrikeForceOneState | None = None

    def initial_position(self) -> dict[str, Any]:
        sc = self.scenario
        from fof_env.strike_force_one.data import SIDE_UNITS, UNIT_LETTERS

        return {
            "turn": 1,
            "phase": "soviet_move",
            "units": {
                SIDES[s]: {UNIT_LETTERS[s][i]: sc.grid.names[sc.setup[u]] for i, u in enumerate(SIDE_UNITS[s])}
                for s in (0, 1)
            },
        }

    def state_from_position(self, position: dict[str, Any], *, dice=None) -> StrikeForceOneState:
        from fof_env.strike_force_one.position import state_from_position

        return state_from_position(self, position, dice)
