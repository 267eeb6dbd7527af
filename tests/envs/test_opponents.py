"""The env's opponent named by a spec is built by the agents, found without the env importing them."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from fof_env.envs import opponents


def test_a_fresh_process_plays_a_named_opponent_through_the_entry_point():
    """No ``import agents`` first: the ``fof_env.agents`` entry point brings the agents' factory."""
    code = (
        "import sys, fof_env\n"
        "from fof_env.envs.gym_env import WargameEnv\n"
        "assert 'agents' not in sys.modules\n"
        "env = WargameEnv(fof_env.list_games()[0], side=1, opponent='heuristic')\n"
        "env.reset(seed=0)\n"
        "print(type(env.opponent_agent).__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert out.stdout.strip().startswith("agents.")


def test_without_the_agents_a_named_opponent_is_one_clear_error(monkeypatch):
    monkeypatch.setattr(opponents, "_factory", None)
    monkeypatch.setattr(opponents, "_entry_points", lambda: [])
    with pytest.raises(LookupError, match="no agents to play an opponent named by a spec"):
        opponents.make_opponent("random", None, 1, seed=0)


def test_importing_the_agents_registers_their_factory(monkeypatch):
    import agents
    from agents.specs import build_agent

    monkeypatch.setattr(opponents, "_factory", None)
    monkeypatch.setattr(opponents, "_entry_points", lambda: [])
    importlib.reload(agents)  # what a first ``import agents`` does
    assert opponents.agent_factory() is build_agent  # reads a whole spec, arguments and all
