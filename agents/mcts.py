"""The ``mcts`` agent: Single-Observer Information Set MCTS with random rollouts, for any game.

``MCTSAgent(game, player, seed=None, simulations=200, time_budget=None, exploration=1.0,
rollout_limit=None)``; the agent spec ``"mcts:200"`` is ``simulations=200``, and
``"mcts:time_budget=0.05,exploration=1.4"`` sets keywords (strings from the command line
are read as numbers; ``"none"`` leaves ``time_budget``/``rollout_limit`` unset).

**Algorithm** (SO-ISMCTS, Cowling, Powley & Whitehouse, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 2012). One search per decision, a fresh tree each time. Each
iteration:

1. *Determinize*: ``world = state.determinize(player, rng)``, a copy of the real state in
   which everything the agent's player may not know is re-sampled from the agent's own
   RNG (see "No peeking" below).
2. *Select*: from the root, walk down the tree playing ``world``. A node's children are
   keyed by (player to move, decision kind, action): the action path, as seen by the
   searching player. Only the children legal in this ``world`` compete; each of them has
   its *availability* count raised, and the one with the best
   ``mean + exploration * sqrt(ln(availability) / visits)`` is played
   (``apply_unchecked`` of an action from ``world.legal_actions()``). ``mean`` is the
   average reward of the player who makes that choice, so opponent nodes maximise the
   opponent's reward (two-player zero-sum: +1 win, -1 loss, 0 draw, from ``returns()``).
3. *Expand*: at the first node with legal actions not tried yet, one of them (uniformly
   at random) is added and played.
4. *Roll out*: uniformly random legal actions until the game ends, or until
   ``rollout_limit`` decisions have been played (``None``: until the end, capped at the
   game's ``max_decisions``). A game that has not ended scores 0 for both players: a
   game-agnostic agent has no evaluation of an unfinished position, and 0 is the draw
   value, between a win and a loss.
5. *Back up*: every node on the path counts a visit and adds the reward of the player
   who chose it.

Chance (dice) is not a node: the dice are part of the determinization, so the tree is
"open loop", its statistics average over the rolls. The action played is the root child
with the most visits (ties: the higher mean, then the first in ``legal_actions()``). A
decision with one legal action is returned at once, without search.

**Budget.** ``simulations`` iterations per decision (at least 1); with ``time_budget``
seconds the search instead runs until that time is spent (at least one iteration) and
``simulations`` is ignored; such a search is not reproducible. Cost: about
``simulations x (remaining game length)`` engine steps. Measured (one core of the 2-core CI
machine, mean over whole games against ``random``, both sides): Strike Force One 10 / 30 /
50 / 200 simulations: about 8 / 15 / 40 / 130-180 ms per decision; Lost & Found 10 / 15 /
50 / 200: about 13 / 17 / 65 / 270-290 ms. Random rollouts give a weak signal where random
play almost always loses (the Soviet side of Strike Force One): expect real play from a few
hundred simulations, not from a few dozen.

**No peeking.** The search reads nothing its player may not know:

* *Future dice.* A clone carries the state's dice RNG, so searching on clones would know
  the coming rolls. Every determinization gets fresh dice seeded from the agent's RNG
  (:meth:`fof_env.core.game.State.determinize`; the search then swaps in the faster
  :class:`_SearchDice`, seeded from the agent's RNG as well), so two states that differ
  only in their dice get the same search, the same statistics and the same action.
* *Hidden units* (Force on Force: a Hidden Taliban team and the Taliban's secret set-up,
  hidden from the USMC): ``determinize`` re-samples them from public facts only
  (:meth:`fof_env.force_on_force.state.ForceOnForceState.determinize`: its point among
  the woods of its deployment zone, its strength from its order of battle). The real
  state is only cloned, never played, and the search reads only the determinized copies
  and its own tree; two states that differ only in hidden facts give the same search.
* The real state itself is left exactly as it was (its position, history and dice).

A known simplification of the single-observer variant: inside the tree, the searching
player's later nodes are keyed by the opponent's earlier actions even when it could not
see them (a Hidden team's activation or Overwatch), as if it would learn them. That is not
a leak (those actions are made in worlds drawn from the searching player's own
information, never in the real one); MO-ISMCTS would remove it at some cost in speed.

``last_search`` holds the statistics of the latest search (:class:`SearchStats`): the
iterations run, the tree size, and per root action its visits and total reward.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from fof_env.core.errors import OptionError


@dataclass(frozen=True)
class SearchStats:
    """What one search did: iterations, tree nodes, and per root action (in ``legal_actions()``
    order) its visit count and total reward for the searching player."""

    iterations: int
    nodes: int
    visits: dict[int, int]
    rewards: dict[int, float]
    seconds: float

    def same_search(self, other: SearchStats) -> bool:
        """Equal statistics (everything but the wall time)."""
        return (self.iterations, self.nodes, self.visits, self.rewards) == (
            other.iterations,
            other.nodes,
            other.visits,
            other.rewards,
        )


class _SearchDice:
    """The dice of a searched world: ``random.Random(seed)``, faces uniform in 1..sides.

    Rolls about 30x faster than the engine's ``SeededDice`` (numpy), which makes Lost & Found
    rollouts about 40% faster. Search-only: it is never put on a real state or written to a
    record.
    """

    __slots__ = ("_gen", "_random")

    def __init__(self, seed: int | None = None):
        self._gen = random.Random(seed)
        self._random = self._gen.random

    def roll(self, sides: int = 6) -> int:
        return int(self._random() * sides) + 1

    def clone(self) -> _SearchDice:
        other = _SearchDice()
        other._gen.setstate(self._gen.getstate())
        return other


class _Node:
    """A tree node: reached by one action path. ``value`` sums the rewards of the player who
    chose the action leading here; ``kids[(mover, kind)][action]`` are its children."""

    __slots__ = ("visits", "value", "avail", "kids")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.kids: dict[tuple[int, str], dict[int, _Node]] = {}


def _optional_number(value: Any, kind: type, name: str) -> Any:
    """``value`` read as ``kind`` (int/float); ``None``, ``""`` or ``"none"`` give None."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null")):
        return None
    if isinstance(value, bool):
        raise OptionError(f"mcts: {name} must be a number, got {value!r}")
    try:
        return kind(float(value)) if kind is int and isinstance(value, str) else kind(value)
    except (TypeError, ValueError):
        raise OptionError(f"mcts: {name} must be a number, got {value!r}") from None


class MCTSAgent:
    """Single-Observer ISMCTS with random rollouts (see the module docstring).

    ``simulations`` iterations per decision, or ``time_budget`` seconds (then
    ``simulations`` is ignored); ``exploration`` is the UCB constant (rewards are in
    [-1, 1]); ``rollout_limit`` caps each rollout's decisions (``None``: play to the end).
    """

    def __init__(
        self,
        game,
        player: int,
        seed: int | None = None,
        simulations: int = 200,
        time_budget: float | None = None,
        exploration: float = 1.0,
        rollout_limit: int | None = None,
        **unknown: Any,
    ):
        if unknown:
            raise OptionError(
                f"unknown mcts option(s) {sorted(unknown)}; options: simulations (int), "
                "time_budget (seconds), exploration (float), rollout_limit (int)"
            )
        self.game = game
        self.player = int(player)
        self.seed = seed
        self.rng = random.Random(seed)
        sims = _optional_number(simulations, int, "simulations")
        self.simulations = max(1, 200 if sims is None else sims)
        self.time_budget = _optional_number(time_budget, float, "time_budget")
        if self.time_budget is not None and self.time_budget <= 0:
            raise OptionError(f"mcts: time_budget must be > 0 seconds, got {time_budget!r}")
        explore = _optional_number(exploration, float, "exploration")
        self.exploration = 1.0 if explore is None else explore
        self.rollout_limit = _optional_number(rollout_limit, int, "rollout_limit")
        if self.rollout_limit is not None and self.rollout_limit < 0:
            raise OptionError(f"mcts: rollout_limit must be >= 0, got {rollout_limit!r}")
        self.last_search: SearchStats | None = None

    def __repr__(self) -> str:
        extra = []
        if self.time_budget is not None:
            extra.append(f"time_budget={self.time_budget:g}")
        if self.exploration != 1.0:
            extra.append(f"exploration={self.exploration:g}")
        if self.rollout_limit is not None:
            extra.append(f"rollout_limit={self.rollout_limit}")
        if not extra:
            return f"mcts:{self.simulations}"
        if self.time_budget is None:
            extra.insert(0, f"simulations={self.simulations}")
        return "mcts:" + ",".join(extra)

    # ------------------------------------------------------------------ acting
    def act(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_search = None
            return legal[0]
        start = time.perf_counter()
        root = _Node()
        iterations, nodes = self._search(state, root, start)
        edges = root.kids.get((state.current_player, state.decision_kind), {})
        visits = {a: edges[a].visits for a in legal if a in edges}
        rewards = {a: edges[a].value for a in legal if a in edges}
        self.last_search = SearchStats(iterations, nodes, visits, rewards, time.perf_counter() - start)
        if not visits:  # cannot happen with >= 1 iteration; keep the contract anyway
            return legal[self.rng.randrange(len(legal))]
        return max(legal, key=lambda a: (visits.get(a, -1), rewards.get(a, 0.0) / max(1, visits.get(a, 1))))

    def _determinize(self, state):
        """One world to search: ``state.determinize(player, rng)`` (the only way the search
        sees the real state; see "No peeking"), rolling :class:`_SearchDice` seeded from the
        agent's RNG."""
        world = state.determinize(self.player, self.rng)
        world.dice = _SearchDice(self.rng.getrandbits(64))
        return world

    def _search(self, state, root: _Node, start: float) -> tuple[int, int]:
        """Run the iterations; returns (iterations, nodes created)."""
        rng = self.rng
        rand = rng.random
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        limit = self.rollout_limit
        cap = getattr(self.game, "max_decisions", 10_000)
        limit = cap if limit is None else min(limit, cap)
        deadline = None if self.time_budget is None else start + self.time_budget
        budget = self.simulations
        clock = time.perf_counter
        determinize = self._determinize
        nodes = 1
        it = 0
        while True:
            if deadline is None:
                if it >= budget:
                    break
            elif it and clock() >= deadline:
                break
            it += 1
            world = determinize(state)
            node = root
            path: list[tuple[_Node, int]] = []
            # selection and expansion
            while not world.is_terminal:
                legal = world.legal_actions()
                mover = world.current_player
                key = (mover, world.decision_kind)
                edges = node.kids.get(key)
                if edges is None:
                    edges = node.kids[key] = {}
                untried = [a for a in legal if a not in edges]
                if untried:
                    action = untried[int(rand() * len(untried))]
                    child = edges[action] = _Node()
                    nodes += 1
                    for a in legal:
                        kid = edges.get(a)
                        if kid is not None:
                            kid.avail += 1
                    world.apply_unchecked(action)
                    path.append((child, mover))
                    break
                best = None
                best_score = -math.inf
                for a in legal:
                    kid = edges[a]
                    kid.avail += 1
                    score = kid.value / kid.visits + c * sqrt(log(kid.avail) / kid.visits)
                    if score > best_score:
                        best_score = score
                        best = a
                node = edges[best]  # type: ignore[index]
                world.apply_unchecked(best)  # type: ignore[arg-type]
                path.append((node, mover))
            # rollout
            steps = 0
            while not world.is_terminal and steps < limit:
                legal = world.legal_actions()
                n = len(legal)
                world.apply_unchecked(legal[int(rand() * n)] if n > 1 else legal[0])
                steps += 1
            reward = world.returns() if world.is_terminal else (0.0, 0.0)
            # back-up
            root.visits += 1
            for node, mover in path:
                node.visits += 1
                node.value += reward[mover]
        return it, nodes
