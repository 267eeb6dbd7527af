"""Shared set-up of the integration tests: every game of ``fof_env.list_games()``."""

from __future__ import annotations

import fof_env
from fof_env.envs.registration import env_id, register_envs

register_envs()  # ids for games registered after import fof_env, too

GAMES = tuple(fof_env.list_games())
SIDES = {game: tuple(fof_env.make_game(game).player_names) for game in GAMES}
IDS = {game: env_id(game) for game in GAMES}
# games whose random episodes run longer than the step budgets below assume: budgets are multiplied
LONGER = {"fubar_village_patrol": 3, "wwii_hedgerow_hamlet": 3}
