"""The report's figures as PNG bytes: win-rate matrix, ratings with error bars, PPO training curves.

matplotlib is imported inside each function and used through its object API with
the Agg canvas (no pyplot, no global backend switch), so importing this module is
cheap and drawing works without a display.

Every text is drawn as typed: agent specs are file paths and may hold ``$``, ``_``,
``^`` or ``\\``, so each figure is made with mathtext parsing and TeX off
(:func:`_plain_text`).
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from evaluation.ratings import Ratings
from evaluation.tallies import PairingTally

F = TypeVar("F", bound=Callable[..., Any])


def _plain_text(draw: F) -> F:
    """Run ``draw`` with ``text.parse_math`` and ``text.usetex`` off (texts are read as they are
    created and drawn, both inside ``draw``)."""

    @functools.wraps(draw)
    def wrapper(*args, **kwargs):
        import matplotlib

        with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):
            return draw(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _png(fig) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    return buf.getvalue()


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def matrix_cells(
    agents: Sequence[str],
    tallies: Sequence[PairingTally],
    player_names: Sequence[str],
    sides: Mapping[str, Sequence[str]] | None = None,
) -> tuple[list[list[float]], list[list[str]]]:
    """The win-rate matrix's numbers and texts: row = the agent on side 0, column = the agent on
    side 1; rate = side 0's win rate (NaN where not played), text = the rate with its 95 % interval
    (and the draws). A pairing not played reads "n/a" where an agent cannot play its side there
    (``sides``: agent -> the sides it plays; default both), "not played" otherwise (a mirror
    pairing left out)."""
    index = {a: i for i, a in enumerate(agents)}

    def plays(agent: str, player: int) -> bool:
        return sides is None or player_names[player] in sides.get(agent, player_names)

    rates = [[math.nan for _ in agents] for _ in agents]
    text = [["n/a" if not (plays(a, 0) and plays(b, 1)) else "not played" for b in agents] for a in agents]
    for t in tallies:
        i, j = index[t.agents[0]], index[t.agents[1]]
        side = t.side(0)
        lo, hi = side.win_interval
        rates[i][j] = side.win_rate
        text[i][j] = f"{100 * side.win_rate:.0f}%\n[{100 * lo:.0f}, {100 * hi:.0f}]"
        if t.draws:
            text[i][j] += f"\n{t.draws} draws"
    return rates, text


@_plain_text
def win_rate_matrix(
    agents: Sequence[str],
    tallies: Sequence[PairingTally],
    player_names: Sequence[str],
    sides: Mapping[str, Sequence[str]] | None = None,
) -> bytes:
    """Heatmap of :func:`matrix_cells`: colour = side 0's win rate, grey where not played."""
    import numpy as np

    k = len(agents)
    cells, text = matrix_cells(agents, tallies, player_names, sides)
    rates = np.array(cells, dtype=float)
    size = 1.4 + 1.3 * k
    fig = _figure(size + 1.5, size)
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(rates), cmap="RdYlBu", vmin=0.0, vmax=1.0)
    ax.set_facecolor("#dddddd")
    ax.set_xticks(range(k), agents, rotation=30, ha="right")
    ax.set_yticks(range(k), agents)
    ax.set_xlabel(f"side 1: {player_names[1]}")
    ax.set_ylabel(f"side 0: {player_names[0]}")
    ax.set_title(f"{player_names[0]} (side 0) win rate, 95% interval")
    for i in range(k):
        for j in range(k):
            rate = rates[i, j]
            colour = "#555555" if math.isnan(rate) else "white" if rate < 0.2 or rate > 0.8 else "black"
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=8, color=colour)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label=f"{player_names[0]} win rate")
    return _png(fig)


@_plain_text
def ratings_chart(ratings: Ratings) -> bytes:
    """Horizontal bars: each agent's rating (Elo) with its 95 % interval, best on top."""
    rows = list(reversed(ratings.ratings))
    fig = _figure(7.0, 1.2 + 0.45 * len(rows))
    ax = fig.add_subplot()
    ys = range(len(rows))
    ax.errorbar([r.elo for r in rows], ys, xerr=[r.interval for r in rows], fmt="o", capsize=4)
    ax.set_yticks(list(ys), [r.agent for r in rows])
    ax.axvline(0.0, color="grey", lw=0.8, ls=":")
    anchor = f"{ratings.anchor} = 0" if ratings.anchor else "mean = 0"
    ax.set_xlabel(f"rating (Elo, {anchor}; bars: 95% interval)")
    ax.set_title(
        f"Bradley-Terry ratings; side advantage {ratings.side_advantage:+.0f} "
        f"+/- {1.96 * ratings.side_advantage_se:.0f} Elo"
    )
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def curve_points(curve: Sequence[dict[str, Any]], side: str | None = None) -> list[dict[str, Any]]:
    """The points of a card's curve for ``side``: those marked with that ``"side"`` (a model trained
    on both sides has one point per side per evaluation), or all when none is marked so."""
    mine = [p for p in curve if side is not None and p.get("side") == side]
    return mine or [p for p in curve if p.get("side") in (None, side)] or list(curve)


@_plain_text
def training_curve(curve: Sequence[dict[str, Any]], title: str, side: str | None = None,
                   shipped: float | None = None) -> bytes:
    """A PPO model's learning curve from its card: win rate (with its interval) against timesteps,
    one line per evaluation opponent; ``shipped``: the step of the checkpoint the model is (a dotted
    vertical line).

    ``curve`` points have ``timesteps``, ``win_rate`` and optionally ``low``/``high``
    (the interval), ``games``, ``opponent`` and ``side`` (see :func:`curve_points`).
    """
    by_opponent: dict[Any, list[dict[str, Any]]] = {}
    for point in curve_points(curve, side):
        by_opponent.setdefault(point.get("opponent"), []).append(point)
    fig = _figure(7.0, 3.6)
    ax = fig.add_subplot()
    for opponent, points in by_opponent.items():
        points.sort(key=lambda p: float(p["timesteps"]))
        xs = [float(p["timesteps"]) for p in points]
        against = f" vs {opponent}" if opponent is not None else ""
        rates = [float(p["win_rate"]) for p in points]
        line = ax.plot(xs, rates, "o-", label=f"win rate{against}")[0]
        if all("low" in p and "high" in p for p in points):
            lows, highs = [float(p["low"]) for p in points], [float(p["high"]) for p in points]
            if len(points) == 1:  # an area of one point has no width: an error bar
                ax.errorbar(xs, rates, yerr=[[rates[0] - lows[0]], [highs[0] - rates[0]]], fmt="none",
                            capsize=8, color=line.get_color(), label=f"95% interval{against}")
            else:
                ax.fill_between(xs, lows, highs, alpha=0.2, color=line.get_color(), label=f"95% interval{against}")
    if shipped is not None:
        ax.axvline(float(shipped), color="black", ls=":", lw=1.2, label=f"model shipped ({float(shipped):.0f} steps)")
    ax.set_ylim(-0.02, 1.02)
    steps = sorted({float(p["timesteps"]) for points in by_opponent.values() for p in points})
    if len(steps) == 1:  # one evaluation point (a run of no PPO step): no axis of fractional steps
        ax.set_xticks(steps)
        ax.set_xlim(steps[0] - 1.0, steps[0] + 1.0)
    ax.set_xlabel("timesteps")
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    return _png(fig)
