"""Fixtures shared across the test packages."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture
def soviet_model_only(tmp_path, monkeypatch):
    """The shipped models as if only Strike Force One's Soviet model shipped (a game with one side's
    model, whichever models really ship)."""
    import agents.ppo as ppo

    for suffix in (".safetensors", ".json"):
        name = f"strike_force_one-soviet{suffix}"
        shutil.copy(ppo.MODELS_DIR / name, tmp_path / name)
    monkeypatch.setattr(ppo, "MODELS_DIR", tmp_path)
    return tmp_path
