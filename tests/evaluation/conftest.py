"""Small tournaments shared by the evaluation tests (random and heuristic, both games, records saved)."""

from __future__ import annotations

import pytest

from evaluation.tournament import TournamentResult, run_tournament

GAMES_PER_PAIRING = 3


@pytest.fixture(scope="session")
def small_tournaments(tmp_path_factory) -> dict[str, TournamentResult]:
    """game name -> a 3-games-per-pairing random/heuristic tournament with its records on disk."""
    out = {}
    for game in ("strike_force_one", "lost_and_found"):
        records = tmp_path_factory.mktemp(f"records-{game}")
        out[game] = run_tournament(
            game, {}, ["random", "heuristic"], GAMES_PER_PAIRING, seed=5, records_dir=records, progress=False
        )
    return out
