"""Set-ups that vary: a bot's unseen placements are a mixed strategy.

A bot that hides the same team at the same point every game is beaten by anyone who has played
it once. So wherever a state asks for a placement the other side has nothing to answer with
(``state.is_unseen_placement()``: a deployment made while no enemy unit is on the table, as an
ambusher's, or a point kept secret such as a WWII Hunted! sniper team's), the heuristic bots draw
the point uniformly from their :data:`SETUP_CHOICES` best points by their own value of a point
(:func:`choose_among_best`), and a learned bot samples its policy's own distribution over the
points; both with the bot's own seeded generator: the same seed, the same set-up, another seed,
most likely another. Every other placement (a side that sets up facing the enemy already on the
table) is the bot's best point, as before.

Never the state's dice: a draw from them would move every roll that follows, and a bot's choice
would then shape the game's chance events. A server seeds its bots with its own entropy
(:mod:`fof_env.app.entropy`), so a client cannot work out the draw; a tournament seeds each game's
bots from that game's seed, so any executor replays it exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

SETUP_CHOICES = 4  # unseen placements are drawn among this many best points (1/4 each where a unit has 4)


def is_unseen_placement(state) -> bool:
    """Whether ``state`` asks for an unseen placement (``State.is_unseen_placement``: False for games
    that have none)."""
    return state.is_unseen_placement()


def setup_choices(state) -> int:
    """How many best points a heuristic draws the current placement among: :data:`SETUP_CHOICES` for an
    unseen placement, else 1 (its best point)."""
    return SETUP_CHOICES if is_unseen_placement(state) else 1


@contextmanager
def best_point_setups() -> Iterator[None]:
    """Within this block every bot takes its best point at its unseen placements too, as before they
    were mixed (:mod:`evaluation.setup_cost` measures what mixing costs with it). Not thread-safe: it
    sets :data:`SETUP_CHOICES` for the whole process."""
    global SETUP_CHOICES
    saved, SETUP_CHOICES = SETUP_CHOICES, 1
    try:
        yield
    finally:
        SETUP_CHOICES = saved


def choose_among_best(actions: Iterable[int], score: Callable[[int], float], draw: Callable[[int], int],
                      k: int = SETUP_CHOICES) -> int:
    """One of the ``k`` best ``actions`` by ``score`` (ties to the lower action), each equally
    likely: ``draw(n)`` returns an index in ``[0, n)`` from the caller's own generator."""
    ranked = sorted(actions, key=lambda a: (-score(a), a))[:k]
    if not ranked:
        raise ValueError("no action to choose from")
    return ranked[draw(len(ranked))] if len(ranked) > 1 else ranked[0]
