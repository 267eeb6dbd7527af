"""The envs warn once when torch runs on several threads (small policies crawl there; issue 14)."""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")

from fof_env.envs import TorchThreadsWarning, _common  # noqa: E402
from fof_env.envs.aec_env import env as aec_env  # noqa: E402
from fof_env.envs.gym_env import WargameEnv  # noqa: E402


@pytest.fixture
def threads(monkeypatch):
    saved = torch.get_num_threads()
    monkeypatch.setattr(_common, "_threads_warned", False)
    yield torch.set_num_threads
    torch.set_num_threads(saved)


@pytest.mark.parametrize("make", [lambda: WargameEnv("strike_force_one"), lambda: aec_env(game="strike_force_one")],
                         ids=["gym", "aec"])
def test_a_reset_warns_once_when_torch_has_several_threads(threads, make):
    threads(2)
    env = make()
    with pytest.warns(TorchThreadsWarning, match=r"torch uses 2 threads: .*torch.set_num_threads\(1\)"):
        env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=1)  # once per process


def test_one_thread_is_silent(threads):
    threads(1)
    env = WargameEnv("strike_force_one")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset(seed=0)
