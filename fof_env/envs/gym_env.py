"""Gymnasium adapter: one learner against a pluggable opponent, for any registered game.

::

    import gymnasium as gym
    import fof_env  # registers the ids fof_env/<Game>-v0

    env = gym.make("fof_env/<Game>-v0", side=1, opponent="heuristic")  # fof list names the ids
    obs, info = env.reset(seed=0)
    mask = info["action_mask"]                       # == env.unwrapped.action_masks()
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))

Or directly: ``WargameEnv(game=name, side=side_name, **options)``, ``name`` one of
``fof_env.list_games()`` and ``options`` the game's own (``game.OPTIONS``). The observation is
``state.observation(learner)``, which never shows the learner a unit hidden from it.

**Spaces.** ``action_space = Discrete(game.num_actions)``: the game's flat action
space (its ranges documented by the ruleset's state module, the ``state`` of
:class:`fof_env.core.ruleset.Ruleset`).
``observation_space = Box(low, high, game.observation_shape, float32)``: the
learner's own view, ``state.observation(learner)``; bounds from
:func:`fof_env.envs.support.observation_bounds`.

**Turns.** The learner only sees its own decisions. ``reset`` and ``step`` play
the opponent's decisions (whenever ``state.current_player`` is the opponent,
including reactions in the middle of the learner's turn) until the learner must
decide or the game ends. With ``auto_single=True`` (default) learner decisions
that have exactly one legal action are applied by the env too, and counted in
``info["auto_actions"]``; the engine itself never skips a decision.

**Set-up.** ``learner_setup="heuristic"`` (an agent spec) plays the learner's unseen
placements for it (``state.is_unseen_placement()``: a unit placed while no enemy unit is
on the table, or in secret): the agent's mixed draw, seeded from the game seed like the
opponent, counted in ``info["auto_actions"]``. A policy trained so learns to play from the
set-ups it meets when ``agents.ppo.PPOAgent(setup="heuristic")`` (the default) plays them,
instead of sharpening one set-up a player learns by heart. ``None`` (default): the learner
makes them.

**Masks.** ``action_masks()`` (the method sb3-contrib's MaskablePPO reads) and
``info["action_mask"]`` are exactly ``state.legal_mask()`` of the learner's
current decision. Through ``gym.make`` wrappers use ``env.unwrapped.action_masks()``
or ``env.get_wrapper_attr("action_masks")()``. With ``end_mask="next"`` (default)
they are never all False: on the step that ends an episode (and until the next
reset) they are the first mask of the episode that an unseeded ``reset()`` starts
next, which the env prepares then (so the game seed of that episode is drawn from
``np_random`` at the end of this one; the sequence of episodes is the same).
``info["decision"]`` is ``"terminal"`` on that step. A loop that always resets with
a seed or a position discards that prepared episode (one episode start, the
opponent's decisions before the learner's first, per episode): ``end_mask="empty"``
prepares nothing and reports all-False masks once the episode is over.

**Vector envs.** Under Gymnasium's ``AutoresetMode.SAME_STEP`` the step that ends an
episode resets the sub-env at once: its ``infos["action_mask"]`` row is the new
episode's first mask and ``infos["final_info"]`` holds the finished episode's info.
Under the default ``NEXT_STEP`` that row is the next episode's first mask too (see
above), so a masked sampler always has a legal action for the reset step (whose
action the vector env ignores); the reset step's info then carries the same mask.
``AsyncVectorEnv`` re-raises an illegal action's error with its message (the env's
errors pickle and rebuild from one argument, :mod:`fof_env.core.errors`). Its workers
start with ``spawn`` once TorchRL is imported (it sets that start method): make them
with the id ``"fof_env:fof_env/<Game>-v0"``, which imports ``fof_env`` in the worker.

**Illegal actions** raise :class:`LearnerIllegalActionError` (an
``IllegalActionError``, so a ``ValueError``) naming the decision and every legal
action as ``index=text``; the game is unchanged and the step may be retried.
Nothing is ever substituted. ``illegal_action="loss"`` (or the
:class:`IllegalActionLoss` wrapper) ends the episode as a loss instead:
``terminated=True``, reward ``-1``, ``info["illegal_action"]`` says what was wrong.

**Rewards.** ``reward="win"``: +1 / -1 / 0 (win, loss, draw) on the step that
ends the game, 0 otherwise. ``reward="shaped"``: the same plus potential-based
shaping ``phi(s') - phi(s)`` between consecutive learner decisions
(:mod:`fof_env.envs.shaping` defines ``phi`` and its weights). ``reward="margin"``
(games that count victory points): no result, only the change in the learner's
victory-point lead over 20 (``(my VP - enemy VP) / 20``) between consecutive learner
decisions, so that an episode's rewards add up to its final margin over 20: for a
side that all but always loses, where only the margin tells play apart. The result reaches
the learner on the step in which the game ends, also when the opponent's
decision (or an auto-applied one) ends it.

**Seeding.** ``reset(seed=s)`` plays ``game.new_initial_state(s)``: the same
game a record with seed ``s`` would replay. ``reset()`` without a seed draws the
game seed from the env's ``np_random`` (so one seeded reset makes the whole
sequence of episodes reproducible). The opponent is rebuilt (named kinds) or
re-seeded (an Agent object with a ``seed(int)`` method) every reset with a seed
derived from the game seed: same seed + same learner actions = same episode.
``info["episode_seed"]`` is the game seed. An Agent object with a ``game_over(r)``
method hears the end of every episode that is not truncated, ``r`` its own return
(the training league's prioritised self-play counts its results that way). In the rare game where the learner
never gets a decision the env starts a new game with the next seed drawn from
``np_random``.

**Options.** ``reset(options={"position": {...}})`` starts from a position dict
(the game's position format); its dice are seeded from the reset seed unless the
position names its own ``seed``.

**Info.** ``infos="full"`` (default): ``action_mask``, ``decision`` (the kind of the
learner's decision, or ``"terminal"``), ``opponent_actions`` and ``auto_actions``
(decisions played by the env since the learner's last action), ``episode_seed``; at
the end also ``winner`` (side name, None for a draw), ``returns`` and ``score``.
``infos="minimal"``: numbers only and the same keys at every step (``action_mask``,
``opponent_actions``, ``auto_actions``, ``result``, ``illegal``), for libraries that
make a tensor of every entry (TorchRL's ``GymWrapper.auto_register_info_dict()``);
see :mod:`fof_env.envs.infos`.

**Rendering.** ``render_mode="ansi"`` returns the text map, ``"rgb_array"`` an image,
``"human"`` prints the text map on every ``reset`` and ``step`` (and on ``render()``,
which returns None). These are the umpire's picture: every unit, Hidden ones included, and
both sides' Fog of War hands. ``render(player=side)`` (text modes; through wrappers
``env.unwrapped.render(player=side)``) shows only what that side may know.

**Options.** A keyword argument that is neither the env's own nor a game option
raises :class:`~fof_env.core.errors.UnknownOptionError`, an ``OptionError`` that is
also a ``TypeError`` worded like Python's (``got an unexpected keyword argument
'frameskip'``): TorchRL's ``GymEnv`` probes keywords that way.

**Truncation.** ``truncated=True`` if the game reaches ``game.max_decisions``
decisions without ending (a safety net: real games end by their turn limit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from fof_env.core.errors import IllegalActionError
from fof_env.core.game import Game, State
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
    derive_seed,
    new_state,
    reward_terms,
    warn_if_torch_threads_crawl,
)
from fof_env.envs.infos import INFO_MODES, EpisodeEnd, forfeit_outcome, game_outcome, gym_info
from fof_env.envs.opponents import make_opponent
from fof_env.envs.support import StateRenderer, observation_bounds, potential_fn

_OPPONENT_SEED_TAG = 0x0FF0
_SETUP_SEED_TAG = 0x5E70
_OWN_KWARGS = ("game, side, opponent, reward, auto_single, render_mode, illegal_action, infos, end_mask, "
               "learner_setup")
END_MASKS = ("next", "empty")


@dataclass
class _Episode:
    """A started episode: its game seed, state at the learner's first decision, opponent,
    the decisions played to get there (opponent's, auto-applied) and the agent that plays
    the learner's unseen placements (None: the learner plays them)."""

    seed: int
    state: State
    opponent: Any
    counts: tuple[int, int]
    setup: Any = None


class LearnerIllegalActionError(IllegalActionError):
    """The learner's action is not legal now (the opponent's illegal actions raise the plain
    :class:`~fof_env.core.errors.IllegalActionError`, and are never turned into a learner
    loss). Rebuildable from one argument, so ``AsyncVectorEnv`` re-raises it with its message."""


class WargameEnv(gym.Env):
    """One side of a registered game against an opponent agent (see the module docstring).

    Args:
        game: a game name from ``fof_env.list_games()`` (or a ``Game``).
        side: the learner's side, a name (``"soviet"``) or index (0/1).
        opponent: an agent spec (``"random"``, ``"heuristic"``, ``"mcts:simulations=64"``:
            ``agents.specs.build_agent``) or an Agent object playing the other side.
        reward: ``"win"``, ``"shaped"`` or ``"margin"`` (see "Rewards").
        auto_single: apply the learner's single-choice decisions automatically.
        render_mode: ``None``, ``"human"`` (prints the text map), ``"ansi"`` (text map)
            or ``"rgb_array"``.
        illegal_action: ``"raise"`` (default) or ``"loss"``.
        infos: ``"full"`` (default) or ``"minimal"`` (numbers only, same keys every step).
        end_mask: ``"next"`` (default: once an episode is over, the masks are the next
            unseeded episode's first mask) or ``"empty"`` (all False).
        learner_setup: ``None`` (default) or an agent spec (``"heuristic"``,
            ``"ppo:path=m.safetensors,setup=book"``) that plays the learner's unseen placements
            (see "Set-up").
        **options: scenario options for ``make_game`` (e.g. ``optional_rules=True``);
            unknown names raise ``UnknownOptionError`` (an ``OptionError`` and a ``TypeError``).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        game: str | Game,
        side: str | int = 0,
        opponent: Any = "random",
        reward: str = "win",
        auto_single: bool = True,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        infos: str = "full",
        end_mask: str = "next",
        learner_setup: str | None = None,
        **options: Any,
    ):
        self.game = build_game(game, options, "WargameEnv", _OWN_KWARGS)
        self.player = self.game.player_index(side)
        self.side = self.game.player_names[self.player]
        self.opponent_player = 1 - self.player
        self.opponent_side = self.game.player_names[self.opponent_player]
        self._check_opponent(opponent)
        self._opponent_spec = opponent
        self._potential, self._counts_result = reward_terms(self.game, reward, potential_fn(self.game))
        self.reward_mode = reward
        self.auto_single = check_flag(auto_single, "auto_single")
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.illegal_action = check_choice(illegal_action, "illegal_action", ILLEGAL_ACTION_MODES)
        self.infos = check_choice(infos, "infos", INFO_MODES)
        self.end_mask = check_choice(end_mask, "end_mask", END_MASKS)
        if learner_setup is not None:
            if not isinstance(learner_setup, str):
                raise TypeError(f"learner_setup must be an agent spec or None, got {learner_setup!r}")
            make_opponent(learner_setup, self.game, self.player, seed=0)  # fail now on a bad kind
        self.learner_setup = learner_setup
        self.setup_agent = None
        low, high = observation_bounds(self.game)
        self.observation_space = spaces.Box(low, high, self.game.observation_shape, np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.game_state = None
        self.opponent_agent = None
        self.episode_seed: int | None = None
        self._done = True
        self._outcome: EpisodeEnd | None = None
        self._next: _Episode | None = None  # prepared when an episode ends (see "Masks")
        self._phi = 0.0
        self._renderer = StateRenderer(render_mode)

    # ------------------------------------------------------------------ set-up
    def _check_opponent(self, opponent: Any) -> None:
        if isinstance(opponent, str):
            make_opponent(opponent, self.game, self.opponent_player, seed=0)  # fail now on a bad kind
            return
        if not callable(getattr(opponent, "act", None)):
            raise TypeError(
                f"opponent must be an agent spec or an object with act(state), got {opponent!r}"
            )
        player = getattr(opponent, "player", self.opponent_player)
        if player != self.opponent_player:
            raise ValueError(
                f"the opponent agent plays player {player} but the learner is {self.side!r} "
                f"(player {self.player}); build it for player {self.opponent_player} ({self.opponent_side!r})"
            )

    def _make_opponent(self, seed: int):
        spec = self._opponent_spec
        if isinstance(spec, str):
            return make_opponent(spec, self.game, self.opponent_player, seed)
        reseed = getattr(spec, "seed", None)
        if callable(reseed):
            reseed(seed)
        return spec

    # -------------------------------------------------------------- core loop
    def _play_until_learner(self, state: State, opponent: Any, setup: Any = None) -> tuple[int, int]:
        """Play opponent (and auto single-choice learner, and ``setup``'s placement) decisions;
        return their counts."""
        limit = self.game.max_decisions
        opponent_actions = auto_actions = 0
        while not state.is_terminal and len(state.history) < limit:
            if state.current_player != self.player:
                apply_checked(state, opponent.act(state), f"opponent {self.opponent_side}")
                opponent_actions += 1
            elif setup is not None and state.is_unseen_placement():
                apply_checked(state, setup.act(state), f"set-up {self.learner_setup} for {self.side}")
                auto_actions += 1
            elif self.auto_single:
                legal = state.legal_actions()
                if len(legal) != 1:
                    break
                state.apply_unchecked(legal[0])
                auto_actions += 1
            else:
                break
        return opponent_actions, auto_actions

    def _truncated(self, state: State | None = None) -> bool:
        state = self.game_state if state is None else state
        return not state.is_terminal and len(state.history) >= self.game.max_decisions

    def _new_episode(self, seed: int | None, position: dict[str, Any] | None) -> _Episode:
        """The episode of game seed ``seed`` (None: drawn from ``np_random``) at the learner's
        first decision; games that give the learner none are skipped (next seed drawn)."""
        game_seed = seed if seed is not None else int(self.np_random.integers(SEED_LIMIT))
        for _ in range(MAX_RESET_ATTEMPTS):
            state = new_state(self.game, int(game_seed), position)
            opponent = self._make_opponent(derive_seed(int(game_seed), _OPPONENT_SEED_TAG))
            setup = None
            if self.learner_setup is not None:
                setup = make_opponent(self.learner_setup, self.game, self.player,
                                      derive_seed(int(game_seed), _SETUP_SEED_TAG))
            counts = self._play_until_learner(state, opponent, setup)
            if not state.is_terminal and not self._truncated(state):
                return _Episode(int(game_seed), state, opponent, counts, setup)
            if position is not None:
                raise ValueError(f"the learner ({self.side}) has no decision to make from this position")
            game_seed = int(self.np_random.integers(SEED_LIMIT))
        raise RuntimeError(f"{MAX_RESET_ATTEMPTS} games in a row gave the learner ({self.side}) no decision")

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        warn_if_torch_threads_crawl()
        position = None
        if options:
            unknown = set(options) - {"position"}
            if unknown:
                raise ValueError(f"unknown reset option(s) {sorted(unknown)}; reset options: position")
            position = options.get("position")
        prepared, self._next = self._next, None
        if prepared is not None and seed is None and position is None:
            episode = prepared  # what this reset would have built: its seed came from np_random too
        else:
            episode = self._new_episode(seed, position)
        self.episode_seed = episode.seed
        self.game_state = episode.state
        self.opponent_agent = episode.opponent
        self.setup_agent = episode.setup
        self._done = False
        self._outcome = None
        # "margin" counts from 0, so that an episode's rewards add up to the final lead itself
        self._phi = self._potential(self.game_state, self.player) if self._potential and self._counts_result else 0.0
        return self._observation(), self._info(*episode.counts)

    def step(self, action: Any):
        if self.game_state is None or self._done:
            raise gym.error.ResetNeeded("the episode is over (or never started): call reset() before step()")
        try:
            apply_checked(self.game_state, action, f"learner {self.side}", LearnerIllegalActionError)
        except LearnerIllegalActionError as exc:
            if self.illegal_action == "loss":
                return self.forfeit(str(exc))
            raise
        counts = self._play_until_learner(self.game_state, self.opponent_agent, self.setup_agent)
        state = self.game_state
        terminated = state.is_terminal
        truncated = self._truncated()
        reward = float(state.returns()[self.player]) if terminated and self._counts_result else 0.0
        if self._potential is not None:
            phi = self._potential(state, self.player)
            reward += phi - self._phi
            self._phi = phi
        if terminated or truncated:
            self._end(game_outcome(state))
        return self._observation(), reward, terminated, truncated, self._info(*counts)

    def forfeit(self, reason: str = "resigned"):
        """End the episode now as a loss for the learner; returns the ``step`` 5-tuple
        (reward -1, ``terminated=True``). The game state itself is left as it was."""
        if self.game_state is None or self._done:
            raise gym.error.ResetNeeded("the episode is over (or never started): call reset()")
        self._end(forfeit_outcome(self.game_state, self.player, reason))
        return self._observation(), -1.0, True, False, self._info(0, 0)

    def _end(self, outcome: EpisodeEnd | None) -> None:
        """Mark the episode over (``outcome`` None: truncated) and prepare the next one."""
        self._done = True
        self._outcome = outcome
        game_over = getattr(self.opponent_agent, "game_over", None)
        if outcome is not None and game_over is not None:  # e.g. the training league's PFSP scores
            game_over(outcome.returns[self.opponent_player])
        if self.end_mask == "next":
            self._next = self._new_episode(None, None)

    # ------------------------------------------------------------ accessors
    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions now: ``state.legal_mask()``; once the
        episode is over, the first mask of the next unseeded episode (module docstring, "Masks")."""
        if self.game_state is None:
            raise gym.error.ResetNeeded("call reset() before action_masks()")
        if self._done:
            if self._next is None:  # end_mask="empty"
                return np.zeros(self.game.num_actions, dtype=bool)
            return self._next.state.legal_mask()
        return self.game_state.legal_mask()

    def _observation(self) -> np.ndarray:
        return np.asarray(self.game_state.observation(self.player), dtype=np.float32)

    def _info(self, opponent_actions: int, auto_actions: int) -> dict[str, Any]:
        if self.render_mode == "human":
            self._renderer(self.game_state)  # Gymnasium's convention: "human" renders on every reset/step
        counts = (opponent_actions, auto_actions)
        return gym_info(
            self.infos, self.game_state, self.player, self.action_masks(), counts, self.episode_seed, self._outcome
        )

    def render(self, player: str | int | None = None):
        """The game as the umpire sees it: every unit, Hidden ones included, and both sides' Fog of War
        hands (what ``"human"`` prints on every step). ``player`` (a side name or index, text modes only)
        gives that player's own picture instead, with only what it may know; through Gymnasium's
        wrappers, which pass no arguments, call ``env.unwrapped.render(player=...)``."""
        if self.render_mode is None:
            gym.logger.warn(
                "render() called with render_mode=None; pass render_mode='human', 'ansi' or 'rgb_array'"
            )
            return None
        if self.game_state is None:
            raise gym.error.ResetNeeded("call reset() before render()")
        return self._renderer(self.game_state, None if player is None else self.game.player_index(player))


class IllegalActionLoss(gym.Wrapper):
    """Turn the learner's illegal action into a lost episode (``terminated``, reward -1)
    instead of an exception. Wrap a :class:`WargameEnv` directly (innermost wrapper).

    The opponent's illegal actions (a bug in the opponent agent) still raise.
    """

    def step(self, action: Any):
        try:
            return self.env.step(action)
        except LearnerIllegalActionError as exc:
            return self.env.unwrapped.forfeit(str(exc))
