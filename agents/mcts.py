"""The ``mcts`` agent: Single-Observer Information Set MCTS with random rollouts, for any game,
optionally guided by the game's heuristic bot and a position evaluation.

``MCTSAgent(game, player, seed=None, simulations=200, time_budget=None, exploration=1.0,
rollout_limit=None, rollout="random", epsilon=0.0, evaluation="none", prior="none",
prior_mix=0.25, batch=1, critic="both", opponent="tree", setup="draw", root="tree", considered=16,
value_scale=0.1, q_scale="bounds", gumbel_scale=1.0)``; the agent spec ``"mcts:200"`` is ``simulations=200``, and
``"mcts:time_budget=0.05,exploration=1.4"`` sets keywords (strings from the command line
are read as numbers; ``"none"`` leaves ``time_budget``/``rollout_limit`` unset). Options:

* ``simulations`` (int), ``time_budget`` (seconds), ``exploration`` (the UCB / PUCT constant),
  ``rollout_limit`` (int: decisions per rollout, ``None``: to the end of the game);
* ``rollout=random|heuristic``: the rollout policy (see "Guided search"); ``epsilon`` (0..1):
  with ``rollout=heuristic``, the chance of a uniformly random action instead of the heuristic's;
* ``evaluation=none|score|ppo|value``: the value of a rollout cut off by ``rollout_limit`` before the
  end: ``none`` 0 (a draw), ``score`` :func:`agents.position_values.position_value`, ``ppo`` the shipped
  PPO models' critics, ``value`` the searching side's shipped value net (:mod:`agents.value_net`);
* ``opponent=tree|heuristic``: ``tree`` (default) searches the opponent's decisions as the other
  player of a zero-sum tree; ``heuristic`` plays them by the opponent's heuristic bot, in the tree
  and in the rollouts (see "Opponent model");
* ``prior=none|heuristic|ppo``: ``heuristic`` selects in the tree by PUCT with the heuristic's
  choice as prior, ``ppo`` with the shipped PPO model's action probabilities for each side that has
  one (the heuristic's choice for a side without); ``prior_mix`` (0..1) is the prior's share spread
  evenly over all actions;
* ``batch`` (int): with ``prior=ppo`` or ``evaluation=ppo``, the descents whose network calls are
  made together (see "Batched network calls");
* ``setup=draw|search``: who makes the side's unseen placements (``state.is_unseen_placement()``:
  an ambusher's hidden set-up, a secret one; :mod:`agents.mixed_setup`). ``draw`` (default): they are
  not searched but drawn as the side's other bots draw them, with a generator seeded from the
  agent's RNG: with ``prior=ppo`` and a model shipped for the side, by that ``ppo`` bot (its set-up
  book, else the heuristic's draw), otherwise by the game's heuristic (its draw among its four best
  points); a game without a heuristic searches them. ``search``: searched like any decision. A
  search guided by a sharp prior puts every unit at one point game after game (the Lost & Found
  Taliban at ``prior=ppo``, 64 simulations: each team at one point in 40 of 40 games, from which
  the search won 46 of 100 against the heuristic USMC, and 84 from the drawn set-up: docs/fair_play.md).
* ``root=tree|gumbel``: ``tree`` (default) selects at the root as at every node; ``gumbel`` by
  sequential halving over the Gumbel-top-``considered`` actions (default 16) of the root's prior,
  weighing the values by ``value_scale`` (default 0.1), their Q mapped to [0, 1] from the rewards'
  bounds (``q_scale=bounds``, default) or from the node's least and largest (``q_scale=minmax``, as
  mctx), the Gumbel noise times ``gumbel_scale`` (default 1: the move played is a sample; 0: the
  best, as mctx evaluates) (see "Gumbel root"); needs ``simulations``, not ``time_budget``.

A bad option or value raises one line (:class:`~fof_env.core.errors.OptionError`) naming the
valid options. The defaults are the plain search below (same statistics for the same seed), but
that an unseen placement is drawn (``setup=draw``), not searched.

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

**Guided search** (any non-default ``rollout``/``evaluation``/``prior``).
At the start of each search, one heuristic bot per player (``make_heuristic``) is built,
seeded from the agent's RNG; the bots only ever act on determinized worlds, never on
the real state, and every random choice comes from the agent's RNG, so a search with a fixed
``simulations`` is reproducible and blind exactly like the plain one.

* ``rollout=heuristic``: both players' rollout actions are their heuristic bot's (with
  probability ``1 - epsilon``; a decision with one legal action costs nothing).
* ``evaluation=score``: a rollout stopped by ``rollout_limit`` scores
  ``(v, -v)``, ``v = position_value(world)`` in [-1, 1] for player 0 (Strike Force One: towns
  held and units left; victory-point games: the VP margin and, in Lost & Found, the pilot still
  on the table), computed on the determinized world only.
* ``prior=heuristic``: at every tree node the mover's heuristic names its choice ``h`` in this
  world; the children legal there compete by PUCT,
  ``Q + exploration * P(a) * sqrt(N + 1) / (1 + n)`` with ``P(h) = 1 - prior_mix +
  prior_mix / |legal|`` and ``P(a) = prior_mix / |legal|`` otherwise, ``N`` the visits of the
  available children and an untried child's ``Q`` the mean of its tried siblings (first-play
  urgency), so the search follows the heuristic until the rollouts say otherwise. A child is
  created when first chosen (no need to try every action first). The action played: most
  visits, ties to the action the heuristic chose most often at the root, then the mean.
* ``evaluation=ppo``: a rollout stopped by ``rollout_limit`` scores ``(v, -v)``, ``v`` the critic
  (value head) of the shipped PPO model of each side that has one, read for player 0 (a player-1
  critic's value negated; two critics averaged), clipped to [-1, 1]; each critic reads its own
  side's observation of the determinized world. With ``rollout_limit=0`` the search values every
  new leaf by the critic alone, as AlphaZero does. ``critic=SIDE`` reads that side's critic
  alone (default ``both``): the critics of models trained on different rewards (the shipped
  U.S. model's shaped reward) need not agree on a scale.
* ``prior=ppo``: the same PUCT with ``P(a) = (1 - prior_mix) * pi(a) / pi(legal) + prior_mix /
  |legal|``, ``pi`` the mover's shipped PPO policy (:mod:`agents.ppo`) on the mover's own
  observation of the world. The policy is called once per tree node and mover (its probabilities
  over the whole action space are kept at the node; a later world renormalises them over its own
  legal actions), so the network costs one call per node created, not per visit. A side with no
  shipped model uses the heuristic's choice as above. The policy sees only the determinized world,
  through the same observation any agent of that side gets.
* ``evaluation=value``: a rollout stopped by ``rollout_limit`` scores ``(v, -v)`` for the searching
  player ``p`` (``v`` negated for player 1), ``v`` the value net shipped for ``p``'s side
  (``agents/models/values``) on ``p``'s own observation of the determinized world: a net trained on
  game results, not on a shaped return, in games against the opponent its card names.

**Gumbel root** (``root=gumbel``, :mod:`agents.gumbel_root`; Danihelka et al., "Policy improvement
by planning with Gumbel", ICLR 2022). The root's prior ``P`` is read on one determinized world as
any node's is: the PPO policy as it is (the Gumbel noise explores; with ``prior_mix=0.25`` spread
at the root as well the Lost & Found Taliban search at 64 simulations won 49 of 100 against the
heuristic USMC, without it 88), the heuristic's choice with ``prior_mix`` spread evenly, uniform with
``prior=none``; its raw value is the evaluation of that world (none without ``evaluation``). Each
root action draws a Gumbel variable ``g`` from the agent's RNG (times ``gumbel_scale``); simulation ``k`` descends through
the root action the halving table names (the Gumbel-top-``considered`` actions of ``g + log P`` once
each, then the better half by ``g + log P + sigma(q)`` again, ...), and below it as the tree does.
The action played is, among the most visited, the largest ``g + log P + sigma(q)``, not simply the
most visited: with few simulations PUCT under a sharp prior plays the prior's move (99.5% of the
Lost & Found Taliban's decisions at 64 simulations), where here the values can overrule it. With
``g`` the move is a sample, as a policy sampled at temperature 1 (the expert-iteration search games
want the spread); ``gumbel_scale=0`` considers the prior's top actions and plays the best.
``last_search.policy`` is the improved policy ``softmax(log P + sigma(q))``, the expert-iteration
target. Actions outside the ``considered`` are never tried: with a uniform prior and more legal
actions than that, a one-in-35 move is found about half the time (tests/agents/test_mcts.py).

**Opponent model.** With ``opponent=heuristic`` the tree holds only the searching player's decisions:
wherever the opponent decides (in the tree or in a rollout), it plays its heuristic bot's choice in
that world, as the dice are played, so the search is a best response to the heuristic rather than a
minimax over it. A value net trained in games against the heuristic then values the positions the
search assumes. The opponent's bot sees only the determinized world, as every bot here.

**Budget.** ``simulations`` iterations per decision (at least 1); with ``time_budget``
seconds the search instead runs until that time is spent (at least one iteration) and
``simulations`` is ignored; such a search is not reproducible. Cost: about
``simulations x (remaining game length)`` engine steps (docs/search.md has the costs measured). A server stops a search
by setting the agent's ``stop`` (a ``threading.Event``, checked before every iteration and every 32
rollout steps): ``act`` then raises :class:`~agents.base.DecisionStopped`.

Guided searches cost more per iteration (the heuristic bots decide in every rollout step
and tree node). With ``time_budget`` the guided search also stops when one more
iteration (as long as the mean one so far) would overrun the budget.

**Batched network calls.** With ``batch=K`` (and ``prior=ppo`` or ``evaluation=ppo``) the
search makes K descents before it calls the networks: each descent takes a virtual loss
(one visit, reward -1) on every node of its path so the next descents spread out; then the
priors of the nodes created and the critics' values of the K leaves come from one call per
model, and the real rewards replace the virtual losses. ``batch=1`` (the default) is the
unbatched search, call for call.

**No peeking.** The search reads nothing its player may not know:

* *Future dice.* A clone carries the state's dice RNG, so searching on clones would know
  the coming rolls. Every determinization gets fresh dice seeded from the agent's RNG
  (:meth:`fof_env.core.game.State.determinize`; the search then swaps in the faster
  :class:`_SearchDice`, seeded from the agent's RNG as well), so two states that differ
  only in their dice get the same search, the same statistics and the same action.
* *Hidden units* (Force on Force: a Hidden Taliban team and the Taliban's secret set-up,
  hidden from the USMC): ``determinize`` re-samples them from public facts only
  (the Force on Force state's ``determinize``: its point among
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

import functools
import math
import random
import time
from dataclasses import dataclass
from typing import Any

from agents.base import DecisionStopped
from fof_env.core.errors import OptionError
from fof_env.core.events import DiscardedEvents


@dataclass(frozen=True)
class SearchStats:
    """What one search did: iterations, tree nodes, and per root action (in ``legal_actions()``
    order) its visit count and total reward for the searching player."""

    iterations: int
    nodes: int
    visits: dict[int, int]
    rewards: dict[int, float]
    seconds: float
    policy: dict[int, float] | None = None  # root=gumbel: the improved policy over the root's legal actions

    def same_search(self, other: SearchStats) -> bool:
        """Equal statistics (everything but the wall time)."""
        return (self.iterations, self.nodes, self.visits, self.rewards, self.policy) == (
            other.iterations,
            other.nodes,
            other.visits,
            other.rewards,
            other.policy,
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

    __slots__ = ("visits", "value", "avail", "kids", "priors")

    def __init__(self) -> None:
        self.visits = 0
        self.value = 0.0
        self.avail = 0
        self.kids: dict[tuple[int, str], dict[int, _Node]] = {}
        self.priors: dict[tuple[int, str], Any] | None = None  # prior=ppo: (mover, kind) -> probabilities


def _optional_number(value: Any, kind: type, name: str) -> Any:
    """``value`` read as ``kind`` (int/float); ``None``, ``""`` or ``"none"`` give None; OptionError for
    anything else that is not a finite number (``inf``, ``nan``)."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "null")):
        return None
    if isinstance(value, bool):
        raise OptionError(f"mcts: {name} must be a number, got {value!r}")
    try:
        number = float(value)
        out = kind(number) if kind is int and isinstance(value, str) else kind(value)
    except (TypeError, ValueError, OverflowError):
        raise OptionError(f"mcts: {name} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise OptionError(f"mcts: {name} must be a finite number, got {value!r}")
    return out


_OPTIONS = (
    "simulations (int), time_budget (seconds), exploration (float), rollout_limit (int), "
    "rollout (random|heuristic), epsilon (0..1), evaluation (none|score|ppo|value), prior (none|heuristic|ppo), "
    "prior_mix (0..1), batch (int: leaves per network call), critic (both|SIDE: whose critics value a leaf), "
    "opponent (tree|heuristic), setup (draw|search: an unseen placement drawn as the side's bots draw it, or searched), "
    "root (tree|gumbel: the root selects as every node, or by Gumbel sequential halving), considered (int: "
    "root=gumbel's actions sampled), value_scale (float > 0: root=gumbel's weight of the values against the prior), "
    "q_scale (bounds|minmax: root=gumbel's Q mapped to [0, 1] from [-1, 1] or from the node's least and largest), "
    "gumbel_scale (float >= 0: root=gumbel's noise; 0 plays the best, not a sample)"
)


def _choice(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    """``value`` as one of ``allowed`` (case-insensitive), or an OptionError naming them."""
    text = str(value).strip().lower() if value is not None else allowed[0]
    if text not in allowed:
        raise OptionError(f"mcts: {name} must be one of {'|'.join(allowed)}, got {value!r}")
    return text


def _fraction(value: Any, name: str, default: float) -> float:
    """``value`` as a float in [0, 1] (``None``/``"none"``: ``default``)."""
    number = _optional_number(value, float, name)
    if number is None:
        return default
    if not 0.0 <= number <= 1.0:
        raise OptionError(f"mcts: {name} must be in [0, 1], got {value!r}")
    return number


# The options a spec names only when they differ from these defaults, in the order it names them.
_SPEC_DEFAULTS = (
    ("time_budget", None), ("exploration", 1.0), ("rollout_limit", None), ("rollout", "random"), ("epsilon", 0.0),
    ("evaluation", "none"), ("prior", "none"), ("prior_mix", 0.25), ("batch", 1), ("critic", "both"),
    ("opponent", "tree"), ("setup", "draw"), ("root", "tree"), ("considered", 16), ("value_scale", 0.1),
    ("q_scale", "bounds"), ("gumbel_scale", 1.0),
)  # fmt: skip

class MCTSAgent:
    """Single-Observer ISMCTS, random rollouts by default (see the module docstring).

    ``simulations`` iterations per decision, or ``time_budget`` seconds (then
    ``simulations`` is ignored); ``exploration`` is the UCB (or PUCT) constant (rewards are in
    [-1, 1]); ``rollout_limit`` caps each rollout's decisions (``None``: play to the end);
    ``rollout``, ``epsilon``, ``evaluation``, ``prior`` and ``prior_mix`` guide the search with
    the game's heuristic bot and a position evaluation ("Guided search").
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
        rollout: str = "random",
        epsilon: float = 0.0,
        evaluation: str = "none",
        prior: str = "none",
        prior_mix: float = 0.25,
        batch: int = 1,
        critic: str = "both",
        opponent: str = "tree",
        setup: str = "draw",
        root: str = "tree",
        considered: int = 16,
        value_scale: float = 0.1,
        q_scale: str = "bounds",
        gumbel_scale: float = 1.0,
        **unknown: Any,
    ):
        if unknown:
            raise OptionError(f"unknown mcts option(s) {sorted(unknown)}; options: {_OPTIONS}")
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
        self.rollout = _choice(rollout, "rollout", ("random", "heuristic"))
        self.evaluation = _choice(evaluation, "evaluation", ("none", "score", "ppo", "value"))
        self.opponent = _choice(opponent, "opponent", ("tree", "heuristic"))
        self.prior = _choice(prior, "prior", ("none", "heuristic", "ppo"))
        self.setup = _choice(setup, "setup", ("draw", "search"))
        self._setup_bot: Any = None  # built at the first unseen placement (setup=draw)
        self.root = _choice(root, "root", ("tree", "gumbel"))
        if self.root == "gumbel" and self.time_budget is not None:
            raise OptionError("mcts: root=gumbel plans its halving for a number of simulations: give simulations, "
                              "not time_budget")
        count = _optional_number(considered, int, "considered")
        if count is not None and count < 1:
            raise OptionError(f"mcts: considered must be >= 1, got {considered!r}")
        self.considered = 16 if count is None else count
        scale = _optional_number(value_scale, float, "value_scale")
        if scale is not None and scale <= 0:
            raise OptionError(f"mcts: value_scale must be > 0, got {value_scale!r}")
        self.value_scale = 0.1 if scale is None else scale
        self.q_scale = _choice(q_scale, "q_scale", ("bounds", "minmax"))
        noise = _optional_number(gumbel_scale, float, "gumbel_scale")
        if noise is not None and noise < 0:
            raise OptionError(f"mcts: gumbel_scale must be >= 0, got {gumbel_scale!r}")
        self.gumbel_scale = 1.0 if noise is None else noise
        self._gumbel: Any = None  # root=gumbel: the latest search's GumbelRoot
        self.epsilon = _fraction(epsilon, "epsilon", 0.0)
        self.prior_mix = _fraction(prior_mix, "prior_mix", 0.25)
        size = _optional_number(batch, int, "batch")
        if size is not None and size < 1:
            raise OptionError(f"mcts: batch must be >= 1, got {batch!r}")
        self.batch = 1 if size is None else size
        self._nets: list | None = None
        if self.prior == "ppo" or self.evaluation == "ppo":
            self._nets = self._shipped_policies(game)
        sides = [name.lower() for name in game.player_names]
        self.critic = _choice(critic, "critic", ("both", *sides))
        self._critic_player = None if self.critic == "both" else game.side_in_any_case(self.critic)
        self._check_critic()
        self._value_net = self._shipped_value_net(game, self.player) if self.evaluation == "value" else None
        if (self.rollout == "heuristic" or self.prior == "heuristic" or self._heuristic_prior_needed
                or self.opponent == "heuristic"):
            from agents.heuristic import heuristic_games

            if game.name not in heuristic_games():
                raise OptionError(
                    f"mcts: rollout=heuristic / prior=heuristic / opponent=heuristic (or prior=ppo for a side "
                    f"without a model) need "
                    f"a game with a heuristic bot ({', '.join(heuristic_games())}), not {game.name!r}"
                )
        if self.evaluation == "score":
            from agents.position_values import has_position_value

            if not has_position_value(game):
                raise OptionError(f"mcts: evaluation=score has no position value for game {game.name!r}")
        self.last_search: SearchStats | None = None
        self._root_hints: dict[int, int] = {}
        self.stop = None  # a threading.Event: set, the search raises DecisionStopped (see agents.base.Agent)

    def __repr__(self) -> str:
        extra = [f"{name}={value:g}" if isinstance(value, float) else f"{name}={value}"
                 for name, default in _SPEC_DEFAULTS if (value := getattr(self, name)) != default]
        if not extra:
            return f"mcts:{self.simulations}"
        if self.time_budget is None:
            extra.insert(0, f"simulations={self.simulations}")
        return "mcts:" + ",".join(extra)

    @staticmethod
    def _shipped_policies(game) -> list:
        """``prior=ppo`` / ``evaluation=ppo``: per player, a :class:`~agents.ppo.PPOAgent` of the model
        shipped for that side, or None where none ships (an OptionError when no side has one)."""
        from agents.ppo import PPOAgent, shipped_model_path, shipped_models

        nets = [
            PPOAgent(game, p) if shipped_model_path(game.name, game.player_names[p]).exists() else None
            for p in (0, 1)
        ]
        if nets == [None, None]:
            have = ", ".join(m.stem for m in shipped_models()) or "none"
            raise OptionError(
                f"mcts: prior=ppo / evaluation=ppo need a shipped model for a side of {game.name!r} "
                f"(shipped: {have})"
            )
        return nets

    @staticmethod
    def _shipped_value_net(game, player: int):
        """``evaluation=value``: the value net shipped for ``player``'s side, checked to fit the game."""
        from agents.policy_io import ModelFileError
        from agents.value_net import check_fits, load_value_net, shipped_value_path

        side = game.player_names[player]
        path = shipped_value_path(game.name, side.lower())
        if not path.exists():
            raise OptionError(f"mcts: evaluation=value needs a value net shipped for {side} of {game.name!r} ({path})")
        try:
            net = load_value_net(path)
            check_fits(net, game, player, str(path))
        except ModelFileError as exc:
            raise OptionError(f"mcts: evaluation=value: {exc}") from None
        return net

    def _check_critic(self) -> None:
        """``critic=SIDE`` needs ``evaluation=ppo`` and that side's shipped model."""
        side = self._critic_player
        if side is None:
            return
        if self.evaluation != "ppo":
            raise OptionError(f"mcts: critic={self.critic} needs evaluation=ppo")
        if (self._nets or [None, None])[side] is None:
            name = self.game.player_names[side]
            raise OptionError(f"mcts: critic={self.critic}: no model ships for {name}")

    @property
    def _critics(self) -> list:
        """Per player, the model whose critic values a leaf for ``evaluation=ppo`` (None: not read):
        each shipped model with ``critic=both``, else the named side's alone."""
        nets = self._nets or [None, None]
        if self._critic_player is None:
            return nets
        return [net if p == self._critic_player else None for p, net in enumerate(nets)]

    @property
    def _heuristic_prior_needed(self) -> bool:
        """Whether a player's prior is the heuristic's choice (prior=heuristic, or prior=ppo without its model)."""
        return self.prior == "heuristic" or (self.prior == "ppo" and None in self._nets)  # type: ignore[operator]

    # ------------------------------------------------------------------ acting
    def act(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_search = None
            return legal[0]
        if self.setup == "draw" and state.is_unseen_placement():
            bot = self._setup_drawer()
            if bot is not None:
                self.last_search = None
                return bot.act(state)
        start = time.perf_counter()
        root = _Node()
        iterations, nodes = self._search(state, root, start)
        edges = root.kids.get((state.current_player, state.decision_kind), {})
        visits = {a: edges[a].visits for a in legal if a in edges}
        rewards = {a: edges[a].value for a in legal if a in edges}
        gumbel = self._gumbel
        policy = gumbel.improved_policy(visits, rewards) if gumbel is not None else None
        self.last_search = SearchStats(iterations, nodes, visits, rewards, time.perf_counter() - start, policy)
        if not visits:  # cannot happen with >= 1 iteration; keep the contract anyway
            return legal[self.rng.randrange(len(legal))]
        if gumbel is not None:
            return gumbel.choose(visits, rewards)
        if self.prior != "none":  # ties: the action the heuristic chose most often, then the mean
            hints = self._root_hints
            return max(
                legal,
                key=lambda a: (
                    visits.get(a, -1),
                    hints.get(a, 0),
                    rewards.get(a, 0.0) / max(1, visits.get(a, 1)),
                ),
            )
        return max(legal, key=lambda a: (visits.get(a, -1), rewards.get(a, 0.0) / max(1, visits.get(a, 1))))

    def _setup_drawer(self):
        """The bot that draws this side's unseen placements (``setup=draw``), seeded once from the
        agent's RNG: with ``prior=ppo`` where the side has a model, the ``ppo`` bot the prior reads,
        else the game's heuristic; None for a game without a heuristic."""
        if self._setup_bot is None:
            from agents.heuristic import heuristic_games, make_heuristic

            seed = self.rng.getrandbits(63)
            if self.prior == "ppo" and self._nets is not None and self._nets[self.player] is not None:
                self._setup_bot = self._nets[self.player]  # its probabilities do not depend on its seed
                self._setup_bot.reseed(seed)
            elif self.game.name in heuristic_games():
                self._setup_bot = make_heuristic(self.game, self.player, seed=seed)
            else:
                self._setup_bot = False
        return self._setup_bot or None

    @property
    def _plain(self) -> bool:
        """The unguided search (random rollouts, no evaluation, no prior, the opponent in the tree)."""
        return self.rollout == "random" and self.evaluation == "none" and self.prior == "none" and self.opponent == "tree"

    def _policies(self) -> list | None:
        """Fresh heuristic bots of both players for one search, seeded from the agent's RNG; they
        only ever see determinized worlds."""
        if self.rollout != "heuristic" and not self._heuristic_prior_needed and self.opponent != "heuristic":
            return None
        from agents.heuristic import make_heuristic

        return [make_heuristic(self.game, p, seed=self.rng.getrandbits(32)) for p in (0, 1)]

    def _search(self, state, root: _Node, start: float) -> tuple[int, int]:
        """Run the iterations; returns (iterations, nodes created). UCT with uniformly random
        rollouts, or with the options: a heuristic prior (PUCT), heuristic rollouts (with
        ``epsilon`` random actions) and/or an evaluation at the rollout cut-off."""
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
        bots = self._policies()
        look_ahead = not self._plain  # a guided iteration is costly: stop before it would overrun
        use_prior = self.prior != "none"
        nets = self._nets
        mix = self.prior_mix
        heuristic_rollout = self.rollout == "heuristic"
        eps = self.epsilon
        me = self.player
        modelled = me if self.opponent == "heuristic" else -1  # the opponent plays its bot: only ``me`` branches
        batched = nets is not None and self.batch > 1
        critic_leaves = batched and self.evaluation == "ppo"
        critics = self._critics if self.evaluation == "ppo" else None  # built once per search, read at every leaf
        pending: list[tuple[list[tuple[_Node, int]], Any]] = []  # batched: descents awaiting back-up
        new_nodes: list[tuple[_Node, tuple[int, str], Any, Any, Any]] = []  # batched: priors to compute
        if self.evaluation == "score":
            from agents.position_values import position_value
        elif self.evaluation == "ppo":
            position_value = functools.partial(self._critic_value, critics=critics)
        elif self.evaluation == "value":
            value_of = self._value_net.state_value  # type: ignore[union-attr]

            def position_value(world) -> float:  # for player 0, from ``me``'s own observation
                v = value_of(world, me)
                return v if me == 0 else -v
        else:
            position_value = None
        hints: dict[int, int] = {}  # root action -> how often it was the heuristic's choice
        self._root_hints = hints
        gumbel = self._gumbel = self._gumbel_root(state, bots, position_value) if self.root == "gumbel" else None
        root_pending: dict[int, int] = {}  # root=gumbel, batched: root action -> descents awaiting back-up
        stopped = self.stop.is_set if self.stop is not None else None
        nodes = 1
        it = 0
        while True:
            if stopped is not None and stopped():
                raise DecisionStopped("mcts: the search was stopped")
            if deadline is None:
                if it >= budget:
                    break
            elif it and clock() + ((clock() - start) / it if look_ahead else 0.0) >= deadline:
                break  # guided: the next iteration (as long as the mean so far) would overrun the budget
            it += 1
            world = determinize(state)
            node = root
            path: list[tuple[_Node, int]] = []
            # selection and expansion
            while not world.is_terminal:
                legal = world.legal_actions()
                mover = world.current_player
                if modelled >= 0 and mover != modelled:  # the opponent model decides, as a die would
                    world.apply_unchecked(legal[0] if len(legal) == 1 else bots[mover].act(world))  # type: ignore[index]
                    continue
                key = (mover, world.decision_kind)
                edges = node.kids.get(key)
                if edges is None:
                    edges = node.kids[key] = {}
                forced = _gumbel_action(gumbel, it - 1, edges, root_pending, legal) if node is root and gumbel else None
                if forced is not None or use_prior:
                    if forced is not None:  # root=gumbel: sequential halving names the root action
                        best = forced
                        if batched:
                            root_pending[forced] = root_pending.get(forced, 0) + 1
                    else:
                        # PUCT: Q + c * P * sqrt(N) / (1 + n), P = the heuristic's choice in this world
                        # (1 - prior_mix) or the PPO policy's probabilities, plus prior_mix spread evenly;
                        # an untried action has the mean of its tried siblings.
                        net = nets[mover] if nets is not None else None
                        policy = None
                        if net is not None and len(legal) > 1:
                            policy = self._node_prior(node, key, net, world, legal)
                            hint = max(legal, key=policy.__getitem__)
                        else:
                            hint = bots[mover].act(world) if len(legal) > 1 else legal[0]  # type: ignore[index]
                        if node is root:
                            hints[hint] = hints.get(hint, 0) + 1
                        spread = mix / len(legal)
                        total = 0
                        value = 0.0
                        for a in legal:
                            kid = edges.get(a)
                            if kid is not None:
                                kid.avail += 1
                                total += kid.visits
                                value += kid.value
                        root_n = sqrt(total + 1)
                        fpu = value / total if total else 0.0  # an untried action: the mean of its tried siblings
                        best = None
                        best_score = -math.inf
                        for a in legal:
                            kid = edges.get(a)
                            if policy is None:
                                p = spread + (1.0 - mix if a == hint else 0.0)
                            else:
                                p = spread + (1.0 - mix) * policy[a]
                            if kid is None or not kid.visits:
                                score = fpu + c * p * root_n
                            else:
                                score = kid.value / kid.visits + c * p * root_n / (1 + kid.visits)
                            if score > best_score:
                                best_score = score
                                best = a
                    child = edges.get(best)  # type: ignore[arg-type]
                    world.apply_unchecked(best)  # type: ignore[arg-type]
                    if child is None:
                        child = edges[best] = _Node()  # type: ignore[index]
                        child.avail = 1
                        nodes += 1
                        path.append((child, mover))
                        if batched and not world.is_terminal:
                            _queue_prior(child, world, nets, new_nodes)
                        break
                    node = child
                    path.append((node, mover))
                    continue
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
                if stopped is not None and not steps & 31 and stopped():
                    raise DecisionStopped("mcts: the search was stopped")
                legal = world.legal_actions()
                n = len(legal)
                if n == 1:
                    action = legal[0]
                elif (modelled >= 0 and world.current_player != modelled) or (
                    heuristic_rollout and (not eps or rand() >= eps)
                ):  # the opponent model, or a heuristic rollout step
                    action = bots[world.current_player].act(world)  # type: ignore[index]
                else:
                    action = legal[int(rand() * n)]
                world.apply_unchecked(action)
                steps += 1
            if world.is_terminal:
                reward = world.returns()
            elif critic_leaves:
                reward = None  # the critics read it in the batch: keep each side's observation
                leaf = [net.observe(world) if net is not None else None for net in critics]  # type: ignore[union-attr]
            elif position_value is not None:
                v = position_value(world)
                reward = (v, -v)
            else:
                reward = (0.0, 0.0)
            # back-up
            root.visits += 1
            if batched:  # a virtual loss until the batch is evaluated steers the next descents elsewhere
                for node, _mover in path:
                    node.visits += 1
                    node.value -= 1.0
                pending.append((path, reward if reward is not None else leaf))
                if len(pending) >= self.batch:
                    self._evaluate_batch(pending, new_nodes)
                    root_pending.clear()
                continue
            for node, mover in path:
                node.visits += 1
                node.value += reward[mover]
        if pending:
            self._evaluate_batch(pending, new_nodes)
        return it, nodes

    def _gumbel_root(self, state, bots: list | None, position_value):
        """``root=gumbel``: the root's plan (:class:`agents.gumbel_root.GumbelRoot`) over the real
        state's legal actions, its prior read on one determinized world as every node's is (the PPO
        policy as it is, the heuristic's choice with ``prior_mix`` spread evenly, or uniform with
        ``prior=none``), its raw value the evaluation of that world for the searching player (None
        without one)."""
        from agents.gumbel_root import GumbelRoot

        legal = state.legal_actions()
        world = self._determinize(state)
        me = self.player
        net = self._nets[me] if self._nets is not None and self.prior == "ppo" else None
        if net is not None:  # the policy as it is: the Gumbel noise explores
            prior = self._node_prior(_Node(), (me, world.decision_kind), net, world, legal)
        elif self.prior != "none":  # one choice: prior_mix spread evenly, or no other action could win
            hint = bots[me].act(world)  # type: ignore[index]
            spread = self.prior_mix / len(legal)
            prior = {a: spread + (1.0 - self.prior_mix if a == hint else 0.0) for a in legal}
        else:
            prior = dict.fromkeys(legal, 1.0 / len(legal))
        plan = GumbelRoot(legal, prior, self.rng, self.simulations, self.considered, self.value_scale,
                          minmax=self.q_scale == "minmax", gumbel_scale=self.gumbel_scale)
        if position_value is not None:
            v = position_value(world)
            plan.raw_value = v if me == 0 else -v
        return plan

    def _evaluate_batch(self, pending: list, new_nodes: list) -> None:
        """``batch``: the priors of the nodes created and the critics' values of the leaves of the
        pending descents, one network call per model; then take back the virtual losses and back up
        the rewards. Empties both lists."""
        import numpy as np

        nets = self._nets or []
        for net in {id(n): n for n in nets if n is not None}.values():
            rows = [row for row in new_nodes if row[2] is net]
            if rows:
                probs = net.probabilities_of(np.stack([r[3] for r in rows]), np.stack([r[4] for r in rows]))
                for (node, key, _net, _obs, _mask), p in zip(rows, probs, strict=True):
                    node.priors.setdefault(key, p)
        waiting = [i for i, (_path, reward) in enumerate(pending) if isinstance(reward, list)]
        if waiting:
            columns = [
                net.values_of(np.stack([pending[i][1][p] for i in waiting])) if net is not None else None
                for p, net in enumerate(self._critics)
            ]
            for row, i in enumerate(waiting):
                v = _value_for_player_0([None if c is None else float(c[row]) for c in columns])
                pending[i] = (pending[i][0], (v, -v))
        for path, reward in pending:
            for node, mover in path:
                node.value += 1.0 + reward[mover]
        pending.clear()
        new_nodes.clear()

    def _critic_value(self, world, critics: list | None = None) -> float:
        """``evaluation=ppo``: the critics' value of ``world`` for player 0, in [-1, 1] (``critics``:
        :attr:`_critics`, passed in by a search that built them once)."""
        critics = self._critics if critics is None else critics
        return _value_for_player_0([net.state_value(world) if net else None for net in critics])

    @staticmethod
    def _node_prior(node: _Node, key: tuple[int, str], net, world, legal: list[int]) -> dict[int, float]:
        """The PPO prior over ``legal`` at ``node``: the policy's probabilities kept at the node
        (computed on the first world to ask), renormalised over this world's legal actions."""
        if node.priors is None:
            node.priors = {}
        probs = node.priors.get(key)
        if probs is None:
            probs = node.priors[key] = net.action_probabilities(world)
        mass = [float(probs[a]) for a in legal]
        total = sum(mass)
        if total <= 0.0:  # another world's legal actions: nothing known, spread evenly
            return dict.fromkeys(legal, 1.0 / len(legal))
        return {a: m / total for a, m in zip(legal, mass, strict=True)}

    def _determinize(self, state):
        """One world to search: ``state.determinize(player, rng)`` (the only way the search
        sees the real state; see "No peeking"), rolling :class:`_SearchDice` seeded from the
        agent's RNG."""
        world = state.determinize(self.player, self.rng)
        world.dice = _SearchDice(self.rng.getrandbits(64))
        world.events = DiscardedEvents()  # nobody reads a searched world's events: none are kept
        return world


def _value_for_player_0(critics: list[float | None]) -> float:
    """Each player's critic value (None: no model) as one value for player 0: player 1's negated,
    two averaged, clipped to [-1, 1]."""
    values = [v if p == 0 else -v for p, v in enumerate(critics) if v is not None]
    return max(-1.0, min(1.0, sum(values) / len(values)))


def _gumbel_action(gumbel, simulation: int, edges: dict, pending: dict[int, int], legal: list[int]) -> int | None:
    """``root=gumbel``: the root action of this simulation, its Q from the root's backed-up visits
    (a batched search's virtual losses taken out); None if this world does not allow it."""
    counts = {a: kid.visits for a, kid in edges.items()}
    visits = {a: kid.visits - pending.get(a, 0) for a, kid in edges.items()}
    rewards = {a: kid.value + pending.get(a, 0) for a, kid in edges.items()}
    action = gumbel.select(simulation, counts, visits, rewards)
    return action if action in legal else None


def _queue_prior(node: _Node, world, nets: list, queue: list) -> None:
    """``batch``: queue the prior of a node just created, on its first world (the mover's
    observation and legal mask now, before the rollout moves the world on)."""
    mover = world.current_player
    net = nets[mover]
    if net is None:
        return
    mask = world.legal_mask()
    if mask.sum() > 1:
        if node.priors is None:
            node.priors = {}
        queue.append((node, (mover, world.decision_kind), net, net.observe(world), mask))
