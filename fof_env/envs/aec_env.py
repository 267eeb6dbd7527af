"""PettingZoo AEC adapter: both sides of any registered game.

::

    from fof_env.envs.aec_env import env
    e = env(game=name, **options)       # name: one of fof_env.list_games()
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

**Agents** are the side names (``game.player_names``). ``agent_selection``
follows the engine's ``state.current_player``: turns do **not** alternate (a
player makes many decisions in a row; the defender chooses retreat hexes in the
middle of the attacker's combat phase).

**Observations** per agent: ``{"observation": Box(game.observation_shape, float32),
"action_mask": Box(0, 1, (num_actions,), int8)}``; ``observe(agent)`` is
``state.observation(player)`` and the mask is ``state.legal_mask()`` for the
agent to act (all zeros for the other agent and after the end).

**Rewards**: ``reward="win"`` gives +1 / -1 / 0 to each agent on the step that
ends the game; ``"shaped"`` adds the potential-based shaping of
:mod:`fof_env.envs.shaping` to both agents after every step; ``"margin"`` (games that
count victory points) gives no result, only the change in each agent's victory-point
lead over 20 after every step. Both agents are then
terminated (or truncated at ``game.max_decisions``) and must each be stepped with
``None``, as usual in PettingZoo.

**Illegal actions** raise ``IllegalActionError`` (state unchanged), or with
``illegal_action="loss"`` end the game as a loss for the agent that played it:
-1 to it, +1 to the other, both terminated, the state left as it was (libraries
whose env checks step unmasked random actions, such as RLlib's, need this).

**Infos** (:mod:`fof_env.envs.infos`). ``infos="minimal"`` (default): numbers only and
the same keys at every step, per agent ``acting`` (1 for the agent to decide),
``result`` (the agent's game result once the game is over, else 0.0) and ``illegal``
(1 if an illegal action ended the game): TorchRL's ``PettingZooWrapper`` makes a
tensor of every entry. ``infos="full"``: ``decision`` (the kind, for the agent to
act; None for the other), and once the game is over ``winner`` (side name, None for
a draw), ``returns``, ``score`` and, after an illegal action, ``illegal_action``.

**Rendering.** ``render_mode="human"`` prints the text map on ``render()`` (which
returns None; PettingZoo's ``render_test`` and ``CaptureStdoutWrapper`` use it),
``"ansi"`` returns it, ``"rgb_array"`` returns an image. These are the umpire's picture:
every unit, Hidden ones included, and both sides' Fog of War hands.
``render(player=agent)`` (text modes; through wrappers ``env.unwrapped.render(player=agent)``)
shows only what that agent may know.

Seeding: ``reset(seed=s)`` plays ``game.new_initial_state(s)``; ``reset()`` draws the game
seed from the env's own generator. ``reset(options={"position": {...}})`` starts
from a position dict; other option keys are ignored with a warning.
``auto_single=True`` (default False here) applies every decision with exactly
one legal action automatically. Unknown keyword arguments raise
:class:`~fof_env.core.errors.UnknownOptionError` (an ``OptionError`` and a ``TypeError``).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from fof_env.core.errors import IllegalActionError
from fof_env.core.game import Game
from fof_env.envs._common import (
    ILLEGAL_ACTION_MODES,
    MAX_RESET_ATTEMPTS,
    RENDER_MODES,
    SEED_LIMIT,
    apply_checked,
    build_game,
    check_choice,
    check_flag,
    check_render_mode,
    new_state,
    reward_terms,
    warn_if_torch_threads_crawl,
)
from fof_env.envs.infos import INFO_MODES, EpisodeEnd, aec_infos, forfeit_outcome, game_outcome
from fof_env.envs.support import StateRenderer, observation_bounds, potential_fn

_OWN_KWARGS = "game, reward, auto_single, render_mode, illegal_action, infos"


class WargameAECEnv(AECEnv):
    """Both sides of a registered game as a PettingZoo AEC env (see the module docstring).

    Args:
        game: a game name from ``fof_env.list_games()`` (or a ``Game``).
        reward: ``"win"``, ``"shaped"`` or ``"margin"``.
        auto_single: apply every single-choice decision automatically.
        render_mode: ``None``, ``"human"`` (prints the text map), ``"ansi"`` or ``"rgb_array"``.
        illegal_action: ``"raise"`` (default) or ``"loss"``.
        infos: ``"minimal"`` (default: numbers only, same keys every step) or ``"full"``.
        **options: scenario options for ``make_game``.
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "fof_env_wargame_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str | Game,
        reward: str = "win",
        auto_single: bool = False,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        infos: str = "minimal",
        **options: Any,
    ):
        super().__init__()
        # per instance: wrappers such as CaptureStdoutWrapper append to metadata["render_modes"]
        self.metadata = {**type(self).metadata, "render_modes": list(RENDER_MODES)}
        self.game = build_game(game, options, "WargameAECEnv", _OWN_KWARGS)
        self._potential, self._counts_result = reward_terms(self.game, reward, potential_fn(self.game))
        self.reward_mode = reward
        self.auto_single = check_flag(auto_single, "auto_single")
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.illegal_action = check_choice(illegal_action, "illegal_action", ILLEGAL_ACTION_MODES)
        self.info_mode = check_choice(infos, "infos", INFO_MODES)
        self.possible_agents = list(self.game.player_names)
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = observation_bounds(self.game)
        n = self.game.num_actions
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, self.game.observation_shape, np.float32),
                    "action_mask": spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.game_state = None
        self.episode_seed: int | None = None
        self._outcome: EpisodeEnd | None = None
        self._np_random: np.random.Generator | None = None
        self._phi = [0.0, 0.0]
        self._renderer = StateRenderer(render_mode)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        warn_if_torch_threads_crawl()
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        position = None
        if options:
            unknown = set(options) - {"position"}
            if unknown:
                warnings.warn(
                    f"ignoring unknown reset option(s) {sorted(unknown)}; known: position", stacklevel=2
                )
            position = options.get("position")
        game_seed = seed if seed is not None else int(self._np_random.integers(SEED_LIMIT))
        for _ in range(MAX_RESET_ATTEMPTS):
            self.episode_seed = int(game_seed)
            self.game_state = new_state(self.game, self.episode_seed, position)
            self._auto_apply()
            if not self.game_state.is_terminal:
                break
            if position is not None:
                raise ValueError("the game is already over in this position")
            game_seed = int(self._np_random.integers(SEED_LIMIT))
        else:
            raise RuntimeError(f"{MAX_RESET_ATTEMPTS} games in a row ended before any decision")
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._outcome = None
        # "margin" counts from 0, so that an episode's rewards add up to the final lead itself
        self._phi = self._potentials() if self._counts_result else [0.0, 0.0]
        self.agent_selection = self.possible_agents[self.game_state.current_player]
        self._update_infos()

    # ------------------------------------------------------------------- step
    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        try:
            apply_checked(state, action, agent)
        except IllegalActionError as exc:
            if self.illegal_action != "loss":
                raise
            self._forfeit(agent, str(exc))
            return
        self._cumulative_rewards[agent] = 0.0
        self._auto_apply()
        rewards = [0.0, 0.0]
        if self._potential is not None:
            phi = self._potentials()
            rewards = [phi[i] - self._phi[i] for i in (0, 1)]
            self._phi = phi
        if state.is_terminal:
            self._outcome = game_outcome(state)
            if self._counts_result:
                rewards = [rewards[i] + self._outcome.returns[i] for i in (0, 1)]
            self.terminations = {a: True for a in self.agents}
        elif len(state.history) >= self.game.max_decisions:
            self.truncations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        self.rewards = {a: rewards[self.agent_name_mapping[a]] for a in self.agents}
        self._accumulate_rewards()
        self._update_infos()

    def _forfeit(self, agent: str, message: str) -> None:
        """``agent`` played an illegal action under ``illegal_action="loss"``: it loses the game."""
        self._outcome = forfeit_outcome(self.game_state, self.agent_name_mapping[agent], message)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: self._outcome.returns[self.agent_name_mapping[a]] for a in self.agents}
        self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()
        self._update_infos()

    @property
    def game_over(self) -> bool:
        """The game has ended (by its rules, or by an illegal action under ``illegal_action="loss"``)."""
        return self._outcome is not None or self.game_state.is_terminal

    def _auto_apply(self) -> None:
        if not self.auto_single:
            return
        state = self.game_state
        while not state.is_terminal and len(state.history) < self.game.max_decisions:
            legal = state.legal_actions()
            if len(legal) != 1:
                return
            state.apply_unchecked(legal[0])

    def _potentials(self) -> list[float]:
        if self._potential is None:
            return [0.0, 0.0]
        return [self._potential(self.game_state, p) for p in (0, 1)]

    def _update_infos(self) -> None:
        live = not self.game_over and not any(self.truncations.values())
        self.infos = aec_infos(
            self.info_mode, self.game_state, self.agents, self.agent_selection, self._outcome, live
        )

    # ---------------------------------------------------------- observations
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        player = self.agent_name_mapping[agent]
        if not self.game_over and state.current_player == player:
            mask = state.legal_mask().astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": np.asarray(state.observation(player), dtype=np.float32), "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """Boolean legal-action mask of ``agent`` (default: the agent to act)."""
        return self.observe(agent or self.agent_selection)["action_mask"].astype(bool)

    def render(self, player: str | int | None = None):
        """The game as the umpire sees it: every unit, Hidden ones included, and both sides' Fog of War
        hands. ``player`` (an agent name or index, text modes only) gives that player's own picture
        instead, with only what it may know; through PettingZoo's wrappers, which pass no arguments, call
        ``env.unwrapped.render(player=...)``."""
        if self.render_mode is None:
            warnings.warn("render() called with render_mode=None", stacklevel=2)
            return None
        return self._renderer(self.game_state, None if player is None else self.game.player_index(player))

    def close(self) -> None:
        """Nothing to release (PettingZoo's API test requires ``close`` beside ``render``)."""


raw_env = WargameAECEnv


def env(**kwargs: Any) -> AECEnv:
    """A :class:`WargameAECEnv` wrapped in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(WargameAECEnv(**kwargs))
