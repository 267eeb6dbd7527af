"""Position evaluations for search cut-offs: ``position_value(state) -> float`` in [-1, 1], the
value of an unfinished game for player 0 (player 1's value is its negation; zero-sum).

Used by :class:`agents.mcts.MCTSAgent` with ``evaluation=score`` where a rollout stops at
``rollout_limit``. The search only ever evaluates *determinized* worlds (``state.determinize``
from the searching player's view), so reading the whole state here leaks nothing: every fact
the searching player may not know has already been re-sampled. A terminal state is worth its
``returns()``.

A game's ruleset may name its own evaluation (the ``position_value`` hook of
:class:`fof_env.core.ruleset.Ruleset`); otherwise a game whose states count
``victory_points()`` is worth its victory-point margin squashed by ``tanh``
(:func:`fof_env.core.potentials.margin_value`).
"""

from __future__ import annotations

from fof_env.core.potentials import margin_value
from fof_env.core.registry import game_hook


def has_position_value(game) -> bool:
    """Whether :func:`position_value` knows how to score ``game``'s states."""
    if game_hook(game, "position_value") is not None:
        return True
    state_cls = type(game.new_initial_state(seed=0))
    return hasattr(state_cls, "victory_points")


def position_value(state) -> float:
    """Value in [-1, 1] of ``state`` for player 0 (see the module docstring)."""
    if state.is_terminal:
        return state.returns()[0]
    value = game_hook(state.game, "position_value")
    if value is not None:
        return value(state)
    return margin_value(*state.victory_points())
