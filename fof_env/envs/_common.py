"""Helpers shared by the Gymnasium and PettingZoo adapters."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np

from fof_env.core.errors import IllegalActionError, OptionError, UnknownOptionError
from fof_env.core.game import Game, State
from fof_env.core.registry import make_game

RENDER_MODES = ("human", "ansi", "rgb_array")
REWARDS = ("win", "shaped", "margin")
MARGIN_SCALE = 20.0  # victory points per unit of the "margin" reward
ILLEGAL_ACTION_MODES = ("raise", "loss")
SEED_LIMIT = 2**63 - 1
MAX_RESET_ATTEMPTS = 100


def build_game(game: str | Game, options: dict[str, Any], adapter: str, own_kwargs: str) -> Game:
    """``make_game(game, **options)``; an unknown option names the adapter's own kwargs too.

    Keyword arguments the game does not take raise :class:`UnknownOptionError` (an
    ``OptionError`` and a ``TypeError`` worded like Python's, ``WargameEnv() got an unexpected
    keyword argument 'frameskip'``), so libraries that probe which keywords an env accepts
    (TorchRL's ``GymEnv``) drop the keyword and go on. Other option errors stay ``OptionError``.
    """
    if isinstance(game, Game):
        if options:
            raise OptionError(
                f"{adapter} got a Game object and scenario options {sorted(options)}; "
                "pass options to make_game instead, or pass the game by name"
            )
        return game
    if not isinstance(game, str):
        raise OptionError(f"{adapter}: game must be a game name or a Game, got {game!r}")
    try:
        return make_game(game, **options)
    except UnknownOptionError as exc:
        known = f"{exc.known} (game {game!r}); {adapter} itself takes: {own_kwargs}"
        raise UnknownOptionError(adapter, exc.unknown, known) from None
    except OptionError as exc:
        raise OptionError(f"{exc} (the {adapter} keyword arguments themselves are: {own_kwargs})") from None


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``; ``ValueError`` naming ``name`` and the choices otherwise."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def check_flag(value: Any, name: str) -> bool:
    """``value`` as a bool (NumPy bools accepted); :class:`OptionError` for anything else (``"no"``)."""
    if isinstance(value, np.bool_):
        value = bool(value)
    if not isinstance(value, bool):
        raise OptionError(f"{name} must be True or False, got {value!r}")
    return value


def margin_potential(state: State, player: int) -> float:
    """``player``'s victory-point lead over ``MARGIN_SCALE``: the ``"margin"`` reward's potential."""
    vp = state.victory_points()
    return (vp[player] - vp[1 - player]) / MARGIN_SCALE


def reward_terms(game: Game, reward: str, potential) -> tuple[Any, bool]:
    """``(phi, counts_result)`` for the reward mode ``reward``: the potential whose differences are
    added after each step (None: none) and whether the +1 / -1 / 0 result is paid at the end.
    ``"win"``: the result only; ``"shaped"``: the result plus the game's ``potential``; ``"margin"``:
    the victory-point lead only (:func:`margin_potential`, for sides that all but always lose, where
    the result says nothing). ValueError for an unknown mode or one the game cannot give."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
    if reward == "shaped":
        if potential is None:
            raise ValueError(
                "this game defines no shaping potential; use reward='win' (see fof_env.envs.support)"
            )
        return potential, True
    if reward == "margin":
        if not callable(getattr(game.new_initial_state(0), "victory_points", None)):
            raise ValueError(f"{game.name} counts no victory points; use reward='win'")
        return margin_potential, False
    return None, True


def derive_seed(*parts: int) -> int:
    """A 63-bit seed derived from integers (reset seed, purpose tag ...)."""
    return int(np.random.SeedSequence(list(parts)).generate_state(1, dtype=np.uint64)[0] >> 1)


def new_state(game: Game, game_seed: int, position: dict[str, Any] | None) -> State:
    """The initial state for ``game_seed``, or ``position`` with dice seeded from ``game_seed``
    when the position does not name its own seed."""
    if position is None:
        return game.new_initial_state(game_seed)
    if isinstance(position, dict) and position.get("seed") is None:
        position = {**position, "seed": game_seed}  # set-up rolls too come from the episode's dice
    return game.state_from_position(position)


def coerce_action(action: Any) -> int | str:
    """An action index from an int, a NumPy integer, a one-element array, or a canonical string."""
    if type(action) is int:  # the common case first
        return action
    if isinstance(action, np.ndarray) and action.size == 1 and np.issubdtype(action.dtype, np.integer):
        return int(action.reshape(()))
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    if isinstance(action, str):
        return action
    raise IllegalActionError(
        action, "(not an action)", ["an int index in the action space or a canonical string"]
    )


def apply_checked(
    state: State, action: Any, who: str, error: type[IllegalActionError] = IllegalActionError
) -> None:
    """``state.apply(action)``; an illegal action raises ``error`` (an ``IllegalActionError``) whose message names the decision and every legal action as
    ``index=text`` (a NumPy integer action shown as the plain int). The state is unchanged then."""
    try:
        action = coerce_action(action)
        state.apply(action)
    except IllegalActionError as exc:
        if state.is_terminal:
            raise error(action, "terminal", []) from exc
        legal = [f"{a}={state.action_to_str(a)}" for a in state.legal_actions()]
        raise error(action, f"{state.decision.kind} ({who} to decide)", legal) from exc


class TorchThreadsWarning(UserWarning):
    """Torch runs on several threads while a policy steps these envs: small networks crawl."""


_threads_warned = False


def warn_if_torch_threads_crawl() -> None:
    """Warn once per process when torch is loaded with more than one intra-op thread.

    These envs step in microseconds, so a training loop's time goes to small policy networks, and
    torch's default (one thread per core) makes them slower, not faster: raw Stable-Baselines3 on
    Lost & Found ran 96 steps/s with torch's default threads and 521 after ``torch.set_num_threads(1)``
    on 2 cores. ``fof train`` sets one thread (``--torch-threads``). The envs never import
    torch; this only reads it when the caller already has.
    """
    global _threads_warned
    torch = sys.modules.get("torch")
    if _threads_warned or torch is None or not hasattr(torch, "get_num_threads"):
        return
    threads = torch.get_num_threads()
    if threads > 1:
        _threads_warned = True
        warnings.warn(
            f"torch uses {threads} threads: a small policy on these envs trains several times faster with "
            "torch.set_num_threads(1) (README, 'Training throughput'); silence with "
            "warnings.simplefilter('ignore', fof_env.envs.TorchThreadsWarning)",
            TorchThreadsWarning,
            stacklevel=3,
        )
