"""Shared helpers for the environment adapter tests."""

from __future__ import annotations

import numpy as np
import pytest

import fof_env
from agents.base import make_agent

GAME = "strike_force_one"
SIDES = ("soviet", "us")
LAF = "lost_and_found"
LAF_SIDES = ("taliban", "usmc")
GAMES = (GAME, LAF)
GAME_SIDES = {GAME: SIDES, LAF: LAF_SIDES}
# one option set per game that is not the default (both adapters pass options to make_game)
OTHER_RULES = {GAME: {"optional_rules": True}, LAF: {"rules": "quick"}}


def available_opponents(game_name: str = GAME) -> list[str]:
    """Agent kinds that can be built for this game today (``heuristic`` may not exist yet)."""
    game = fof_env.make_game(game_name)
    kinds = []
    for kind in ("random", "heuristic"):
        try:
            make_agent(kind, game, 1, seed=0)
            make_agent(kind, game, 0, seed=0)
        except (ImportError, AttributeError, ValueError, NotImplementedError):
            continue
        kinds.append(kind)
    return kinds


OPPONENTS = available_opponents(GAME)
LAF_OPPONENTS = available_opponents(LAF)
GAME_OPPONENTS = [(g, kind) for g in GAMES for kind in available_opponents(g)]


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.fixture(params=OPPONENTS)
def opponent(request) -> str:
    return request.param


@pytest.fixture(params=LAF_OPPONENTS)
def laf_opponent(request) -> str:
    return request.param


@pytest.fixture(params=GAME_OPPONENTS, ids=[f"{g}-{k}" for g, k in GAME_OPPONENTS])
def game_opponent(request) -> tuple[str, str]:
    """(game name, opponent kind) for every game and every agent kind it has today."""
    return request.param
