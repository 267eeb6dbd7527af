"""Bradley-Terry ratings on the Elo scale, with a side advantage, fitted by (penalized) maximum likelihood.

Model. Agent ``i`` has strength ``r_i`` (logits); the game has one side
parameter ``h`` (logits: how much side 0 is favoured over side 1; the games are
asymmetric). When agent ``a`` plays side 0 against agent ``b`` on side 1,

    P(side 0 wins) = sigmoid(r_a - r_b + h).

A draw counts as half a win and half a loss (the likelihood term is
``s log p + (1 - s) log(1 - p)`` with ``s`` = 1, 0.5 or 0). A mirror game (an
agent against itself) informs only ``h``.

Prior. Every parameter (each ``r_i`` and ``h``) has an independent Gaussian prior
N(0, ``prior_sd``^2), ``prior_sd`` = 1000 Elo by default (about 5.8 logits: the
information of roughly an eighth of one even game). It makes the fit unique
(ratings are otherwise only defined up to a common shift) and finite for a
perfect record (an agent that won every game gets a large but finite rating
whose size then reflects the prior and the number of games: read it as "much
stronger", with its wide interval). The fit is the posterior mode, found by
Newton's method with a backtracking line search (the objective is strictly
concave).

Scale and anchor. Ratings are reported in Elo: ``400 / ln 10`` (about 173.7)
Elo per logit, so a 400-point gap means 10:1 odds. They are shifted so the
anchor agent is at 0: ``anchor="random"`` by default when an agent of that name
took part, otherwise the mean rating is 0. The side advantage ``h`` is reported
in Elo too (positive: side 0 is favoured).

Uncertainty. Standard errors come from the inverse of the negative Hessian of
the log posterior at the mode (the Laplace approximation); an agent's SE is that
of its rating *relative to the anchor* (``r_i - r_anchor``, or ``r_i - mean(r)``),
so the anchor itself has SE 0. ``interval`` is +/- 1.96 SE (95 %).

Order independence: the games are first summed into per-(side 0 agent, side 1
agent) counts and points (sums of 0, 0.5 and 1 are exact in floating point) and
the agents are sorted by name, so the fit does not depend on the order in which
the games are listed. Pure numpy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

ELO_PER_LOGIT = 400.0 / math.log(10.0)
DEFAULT_PRIOR_SD = 1000.0  # Elo
Z95 = 1.96


@dataclass(frozen=True)
class Rating:
    """One agent's rating (Elo, relative to the anchor) and its standard error."""

    agent: str
    elo: float
    se: float
    games: int
    points: float  # wins + draws / 2 over both sides; a mirror game counts once, as half a point

    @property
    def interval(self) -> float:
        """Half-width of the 95 % interval (1.96 SE)."""
        return Z95 * self.se

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "elo": self.elo,
            "se": self.se,
            "interval95": self.interval,
            "games": self.games,
            "points": self.points,
        }


@dataclass(frozen=True)
class Ratings:
    """A fitted rating table (see the module docstring for the model)."""

    ratings: tuple[Rating, ...]  # best first
    side_advantage: float  # Elo, positive: side 0 favoured
    side_advantage_se: float
    anchor: str | None  # the agent rated 0, or None: the mean rating is 0
    prior_sd: float  # Elo
    games: int
    iterations: int
    log_likelihood: float  # of the data at the fitted ratings (without the prior)

    def __getitem__(self, agent: str) -> Rating:
        for r in self.ratings:
            if r.agent == agent:
                return r
        raise KeyError(agent)

    def elo(self) -> dict[str, float]:
        """Agent -> rating (Elo)."""
        return {r.agent: r.elo for r in self.ratings}

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": "Bradley-Terry with a side-0 advantage; draws = half wins; Elo scale "
            "(400/ln10 per logit); Gaussian prior N(0, prior_sd^2) on every parameter",
            "ratings": [r.to_dict() for r in self.ratings],
            "side_advantage": self.side_advantage,
            "side_advantage_se": self.side_advantage_se,
            "anchor": self.anchor,
            "prior_sd": self.prior_sd,
            "games": self.games,
            "iterations": self.iterations,
            "log_likelihood": self.log_likelihood,
        }


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -x)


class _Data:
    """Games summed per (side 0 agent, side 1 agent): counts ``n`` and side-0 points ``s``."""

    def __init__(self, agents: Sequence[str], games: Iterable[tuple[str, str, float]]):
        self.agents = list(agents)
        index = {a: i for i, a in enumerate(self.agents)}
        k = len(self.agents)
        self.n = np.zeros((k, k))
        self.s = np.zeros((k, k))
        for a, b, points in games:
            if points not in (0, 0.5, 1):
                raise ValueError(f"game result must be 0, 0.5 or 1 for side 0, got {points!r}")
            i, j = index[a], index[b]
            self.n[i, j] += 1
            self.s[i, j] += points
        self.cells = np.argwhere(self.n > 0)  # row-major: independent of the order of the games

    def objective(self, theta: np.ndarray, prior_var: float) -> tuple[float, float]:
        """(log posterior up to a constant, log likelihood) at ``theta`` = (r_0..r_{k-1}, h)."""
        r, h = theta[:-1], theta[-1]
        i, j = self.cells[:, 0], self.cells[:, 1]
        mu = r[i] - r[j] + h
        n, s = self.n[i, j], self.s[i, j]
        ll = float(np.sum(s * _log_sigmoid(mu) + (n - s) * _log_sigmoid(-mu)))
        return ll - float(theta @ theta) / (2 * prior_var), ll

    def gradient_hessian(self, theta: np.ndarray, prior_var: float) -> tuple[np.ndarray, np.ndarray]:
        k = len(self.agents)
        r, h = theta[:-1], theta[-1]
        grad = -theta / prior_var
        hess = -np.eye(k + 1) / prior_var
        for i, j in self.cells:
            n, s = self.n[i, j], self.s[i, j]
            p = 1.0 / (1.0 + math.exp(-(r[i] - r[j] + h)))
            x = np.zeros(k + 1)
            x[i] += 1.0
            x[j] -= 1.0
            x[k] = 1.0
            grad += (s - n * p) * x
            hess -= n * p * (1.0 - p) * np.outer(x, x)
        return grad, hess


def fit_ratings(
    games: Iterable[tuple[str, str, float]],
    agents: Sequence[str] | None = None,
    *,
    anchor: str | None = "random",
    prior_sd: float = DEFAULT_PRIOR_SD,
    tol: float = 1e-12,
    max_iter: int = 200,
) -> Ratings:
    """Fit the ratings of the module docstring.

    Args:
        games: ``(side 0 agent, side 1 agent, side 0 points)`` per game, points 1 (side 0
            won), 0.5 (draw) or 0 (side 1 won).
        agents: every agent to rate (default: those in ``games``); one without games
            gets the prior mode, 0 before anchoring, with a wide SE.
        anchor: the agent rated 0 if it is among ``agents``; otherwise (or None) the mean is 0.
        prior_sd: standard deviation of the Gaussian prior of every parameter, in Elo.
        tol: stop when the largest Newton step is below this (logits).
        max_iter: at most this many Newton steps.

    Returns :class:`Ratings`, best first (ties by name).
    """
    games = list(games)
    names = sorted(set(agents) if agents is not None else {x for g in games for x in g[:2]})
    if not names:
        raise ValueError("no agents to rate")
    if prior_sd <= 0:
        raise ValueError(f"prior_sd must be positive, got {prior_sd}")
    unknown = {x for g in games for x in g[:2]} - set(names)
    if unknown:
        raise ValueError(f"games name agents not in the agent list: {', '.join(sorted(unknown))}")
    data = _Data(names, games)
    k = len(names)
    prior_var = (prior_sd / ELO_PER_LOGIT) ** 2
    theta = np.zeros(k + 1)
    value, _ = data.objective(theta, prior_var)
    iterations = 0
    for iterations in range(1, max_iter + 1):  # noqa: B007 - reported
        grad, hess = data.gradient_hessian(theta, prior_var)
        step = np.linalg.solve(hess, -grad)  # hess is negative definite
        t = 1.0
        while True:  # backtracking: never decrease the (concave) objective
            candidate = theta + t * step
            new_value, _ = data.objective(candidate, prior_var)
            if new_value >= value - 1e-12 * abs(value) or t < 1e-10:
                break
            t *= 0.5
        theta, value = candidate, new_value
        if np.max(np.abs(t * step)) < tol:
            break
    _, hess = data.gradient_hessian(theta, prior_var)
    cov = np.linalg.inv(-hess)
    anchor_index = names.index(anchor) if anchor is not None and anchor in names else None
    contrast = np.zeros((k, k + 1))
    for i in range(k):
        contrast[i, i] = 1.0
        if anchor_index is not None:
            contrast[i, anchor_index] -= 1.0
        else:
            contrast[i, :k] -= 1.0 / k
    rel = contrast @ theta
    var = np.einsum("ij,jk,ik->i", contrast, cov, contrast)
    se = np.sqrt(np.clip(var, 0.0, None))
    # a mirror game counts once, for half a point
    mirror = np.diag(data.n)
    games_of = data.n.sum(axis=0) + data.n.sum(axis=1) - mirror
    points_of = data.s.sum(axis=1) + (data.n - data.s).sum(axis=0) - mirror / 2
    table = [
        Rating(
            agent=name,
            elo=float(rel[i] * ELO_PER_LOGIT),
            se=float(se[i] * ELO_PER_LOGIT),
            games=int(games_of[i]),
            points=float(points_of[i]),
        )
        for i, name in enumerate(names)
    ]
    table.sort(key=lambda r: (-r.elo, r.agent))
    _, ll = data.objective(theta, prior_var)
    return Ratings(
        ratings=tuple(table),
        side_advantage=float(theta[-1] * ELO_PER_LOGIT),
        side_advantage_se=float(math.sqrt(max(cov[-1, -1], 0.0)) * ELO_PER_LOGIT),
        anchor=names[anchor_index] if anchor_index is not None else None,
        prior_sd=prior_sd,
        games=len(games),
        iterations=iterations,
        log_likelihood=ll,
    )


def expected_score(ratings: Ratings, side0: str, side1: str) -> float:
    """The model's expected points of ``side0`` (on side 0) against ``side1`` (on side 1)."""
    diff = ratings[side0].elo - ratings[side1].elo + ratings.side_advantage
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))
