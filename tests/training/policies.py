"""A tiny policy architecture for tests that need a live MaskablePPO policy of a game."""

from __future__ import annotations


def tiny_arch(game, units: int = 16) -> dict:
    """The architecture block of a one-layer policy of ``units`` for ``game`` (one side)."""
    return {"policy": "MaskableActorCriticPolicy", "net_arch": {"pi": [units], "vf": [units]}, "activation": "Tanh",
            "features_extractor": "FlattenExtractor", "share_features_extractor": True,
            "observation_shape": list(game.observation_shape), "num_actions": game.num_actions,
            "both_sides": False}  # fmt: skip
