"""Shared helpers for the environment adapter tests."""

from __future__ import annotations

import numpy as np
import pytest

import fof_env
from agents.base import make_agent

GAME = "strike_force_one"
SIDES = ("soviet", "us")


def available_opponents() -> list[str]:
    """Agent kinds that can be built for this game today (``heuristic`` may not exist yet)."""
    game = fof_env.make_game(GAME)
    kinds = []
    for kind in ("random", "heuristic"):
        try:
            make_agent(kind, game, 1, seed=0)
            make_agent(kind, game, 0, seed=0)
        except (ImportError, AttributeError, ValueError, NotImplementedError):
            continue
        kinds.append(kind)
    return kinds


OPPONENTS = available_opponents()


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.fixture(params=OPPONENTS)
def opponent(request) -> str:
    return request.param
