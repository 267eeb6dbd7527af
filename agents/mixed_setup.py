"""Set-ups that vary: a bot's set-up placements are a mixed strategy.

A bot that hides the same team at the same point every game is beaten by anyone who has played
it once. So wherever a state asks for a set-up placement (``state.is_placement()``: a unit's
deployment point, or a point kept secret from the other side such as the WWII Hunted! sniper's),
the heuristic and learned bots draw the point uniformly from their :data:`SETUP_CHOICES` best
points by their own score (the heuristic's value of the point, the policy's probability), with
the bot's own seeded generator: the same seed, the same set-up; another seed, most likely
another.

Never the state's dice: a draw from them would move every roll that follows, and a bot's choice
would then shape the game's chance events. A server seeds its bots with its own entropy
(:mod:`fof_env.app.entropy`), so a client cannot work out the draw; a tournament seeds each game's
bots from that game's seed, so any executor replays it exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

SETUP_CHOICES = 4  # placements drawn among, each with chance 1/4 when a unit has 4 or more points


def is_placement(state) -> bool:
    """Whether ``state`` asks for a set-up placement (False for games that have none)."""
    ask = getattr(state, "is_placement", None)
    return bool(callable(ask) and ask())


def choose_among_best(actions: Iterable[int], score: Callable[[int], float], draw: Callable[[int], int],
                      k: int = SETUP_CHOICES) -> int:
    """One of the ``k`` best ``actions`` by ``score`` (ties to the lower action), each equally
    likely: ``draw(n)`` returns an index in ``[0, n)`` from the caller's own generator."""
    ranked = sorted(actions, key=lambda a: (-score(a), a))[:k]
    if not ranked:
        raise ValueError("no action to choose from")
    return ranked[draw(len(ranked))]
