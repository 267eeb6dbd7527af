"""Text and picture renderings of a Strike Force One position.

``render_text`` draws the hex map as ASCII: each hex shows its name and a
two-character content code (``S2`` = two Soviet units, ``U1`` = one U.S. unit,
``T`` = town, ``W`` = woods). ``render_rgb`` draws a picture with matplotlib
(imported lazily).
"""

from __future__ import annotations

import numpy as np

from fof_env.strike_force_one.data import UNIT_LETTERS, UNIT_SIDE


def _cell(state, h: int) -> str:
    here = [u for u, x in enumerate(state.unit_hex) if x == h]
    terrain = "T" if h in state.sc.towns else ("W" if state.sc.woods[h] else ".")
    if not here:
        return f"{terrain}   "
    side = UNIT_SIDE[here[0]]
    letters = "".join(UNIT_LETTERS[side][u - (0 if side == 0 else 6)] for u in here)
    return f"{terrain}{'s' if side == 0 else 'u'}{letters:<2}"


def render_text(state) -> str:
    """ASCII map: rows of hexes, even columns shown half a line lower.

    Each cell is ``CCRR`` over a content line: terrain (``T`` town, ``W`` woods,
    ``.`` clear), then ``s``/``u`` and unit letters (``sAB`` = Soviet A and B).
    """
    grid = state.sc.grid
    cols = grid.columns
    lines = []
    header = "     " + "".join(f"  col{c:02d}   " for c in range(1, cols + 1))
    lines.append(header)
    max_rows = max(grid.odd_rows, grid.even_rows)
    # Two text lines per half-row so even columns appear shifted by half a hex.
    for half in range(2 * max_rows + 1):
        row_text = []
        for c in range(1, cols + 1):
            shift = 0 if c % 2 else 1
            r2 = half - shift
            if r2 < 0 or r2 % 2 and False:
                row_text.append(" " * 11)
                continue
            r, part = divmod(r2, 2)
            name = f"{c:02d}{r + 1:02d}"
            if r2 < 0 or name not in grid.index:
                row_text.append(" " * 11)
                continue
            h = grid.index[name]
            row_text.append(f" [{name}]    " if part == 0 else f"  {_cell(state, h)}    ")
        lines.append("     " + "".join(row_text).rstrip())
    lines.append(_status(state))
    return "\n".join(line.rstrip() for line in lines)


def _status(state) -> str:
    from fof_env.strike_force_one.state import PHASES

    if state.is_terminal:
        winner = "Soviet" if state.winner == 0 else "U.S."
        return f"Game over: {winner} win (Soviets hold {state.soviet_towns()} of 3 towns)"
    d = state.decision
    ctx = {k: v for k, v in d.context.items() if k not in ("turn", "phase")}
    side = "Soviet" if d.player == 0 else "U.S."
    return (
        f"Turn {state.turn}/4  {PHASES[state.phase]}  Soviet towns {state.soviet_towns()}/3  "
        f"| {side} to decide: {d.kind} {ctx if ctx else ''}".rstrip()
    )


_COLORS = {"clear": "#e8e4c9", "town": "#b0b0b0", "woods": "#4f7a3a", "soviet": "#8b4513", "us": "#2e6b2e"}


def render_rgb(state, size: int = 512) -> np.ndarray:
    """An RGB picture (``size`` x ``size`` x 3, uint8) of the map and units."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure
    from matplotlib.patches import RegularPolygon

    grid = state.sc.grid
    fig = Figure(figsize=(size / 100, size / 100), dpi=100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_aspect("equal")
    ax.axis("off")
    for h, name in enumerate(grid.names):
        x, y = grid.center(h)
        y = -y
        fill = _COLORS["town"] if h in state.sc.towns else (_COLORS["woods"] if state.sc.woods[h] else _COLORS["clear"])
        ax.add_patch(RegularPolygon((x, y), 6, radius=1.0, orientation=np.pi / 6, facecolor=fill, edgecolor="#555555"))
        ax.text(x, y + 0.62, name, ha="center", va="center", fontsize=5, color="#333333")
        here = [u for u, v in enumerate(state.unit_hex) if v == h]
        for k, u in enumerate(here):
            side = UNIT_SIDE[u]
            dx = 0.0 if len(here) == 1 else (-0.3 + 0.6 * k)
            color = _COLORS["soviet"] if side == 0 else _COLORS["us"]
            ax.add_patch(
                RegularPolygon((x + dx, y - 0.1), 4, radius=0.45, orientation=np.pi / 4, facecolor=color, edgecolor="k")
            )
            letter = UNIT_LETTERS[side][u - (0 if side == 0 else 6)]
            ax.text(x + dx, y - 0.1, letter, ha="center", va="center", fontsize=7, color="white", weight="bold")
    xs = [grid.center(h)[0] for h in range(len(grid))]
    ys = [-grid.center(h)[1] for h in range(len(grid))]
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 1.2, max(ys) + 1.2)
    canvas = fig.canvas
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    image = np.asarray(canvas.buffer_rgba())[:, :, :3].copy()
    return image
