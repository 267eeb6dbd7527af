"""Text and picture renderings of a Strike Force One position.

``render_text(state)`` (also ``str(state)``) draws the hex map in ASCII, flat-topped
hexes as on the printed map, even columns half a hex lower::

       01      02      03
      ______          ______
     / 0101 \\        / 0301 \\
    /        \\______/ T      \\
    \\        / 0201 \\ uA     /
     \\______/        \\______/

Each hex shows its ``CCRR`` name; below it the terrain (``T`` town, ``W`` woods)
and markers of the decision in progress (``@`` the unit moving or retreating,
``X`` the declared attack's target, ``+`` hexes already committed to the attack);
then the units, side + letter: ``sA`` = Soviet unit A, ``uB`` = U.S. unit B.

``render_rgb(state)`` returns an RGB picture (H x W x 3 ``uint8``) drawn with
Pillow (imported lazily; it comes with matplotlib), using matplotlib's DejaVu
font when present. Neither module imports gymnasium.
"""

from __future__ import annotations

import math

import numpy as np

from fof_env.core.drawing import font, rgb
from fof_env.strike_force_one.data import SIDE_COLOURS, SIDES, UNIT_LETTERS, UNIT_NAMES, UNIT_SIDE

_SIDE_CODE = ("s", "u")
_SIDE_LABEL = ("Soviet", "U.S.")


def _unit_code(u: int) -> str:
    side = UNIT_SIDE[u]
    return _SIDE_CODE[side] + UNIT_LETTERS[side][u - (0 if side == 0 else 6)]


def _markers(state) -> dict[int, str]:
    """Hex -> marker characters for the decision in progress."""
    from fof_env.strike_force_one.constants import MOVE_TARGET, RETREAT_HEX

    marks: dict[int, str] = {}
    if state.kind == MOVE_TARGET and state.selected >= 0:
        marks[state.unit_hex[state.selected]] = "@"
    elif state.kind == RETREAT_HEX and state.retreat_queue:
        marks[state.unit_hex[state.retreat_queue[0]]] = "@"
    if state.target >= 0:
        marks[state.target] = marks.get(state.target, "") + "X"
    for h in state.attack_hexes:
        marks[h] = marks.get(h, "") + "+"
    return marks


# --------------------------------------------------------------------------- text
_HEX_W = 8  # column pitch in characters
_HEX_H = 4  # row pitch in lines; even columns sit _HEX_H // 2 lines lower
_LEFT = 1


def render_text(state) -> str:
    """ASCII hex map plus a status line (see the module docstring for the key)."""
    grid = state.sc.grid
    height = max(grid.odd_rows * _HEX_H, grid.even_rows * _HEX_H + _HEX_H // 2) + 1
    width = _LEFT + grid.columns * _HEX_W + 2
    canvas = [[" "] * width for _ in range(height)]

    def put(x: int, y: int, text: str) -> None:
        for i, ch in enumerate(text):
            canvas[y][x + i] = ch

    towns = set(state.sc.towns)
    marks = _markers(state)
    units_in: dict[int, list[int]] = {}
    for u, h in enumerate(state.unit_hex):
        if h >= 0:
            units_in.setdefault(h, []).append(u)
    for h, (c, r) in enumerate(grid.coords):
        x0 = _LEFT + (c - 1) * _HEX_W
        y0 = (r - 1) * _HEX_H + (_HEX_H // 2 if c % 2 == 0 else 0)
        put(x0 + 2, y0, "______")
        put(x0 + 1, y0 + 1, "/" + f" {grid.names[h]} " + "\\")
        terrain = "T" if h in towns else ("W" if state.sc.woods[h] else " ")
        put(x0, y0 + 2, "/" + f" {terrain} {marks.get(h, ''):<4} " + "\\")
        units = " ".join(_unit_code(u) for u in units_in.get(h, []))
        put(x0, y0 + 3, "\\" + f" {units:<6} " + "/")
        put(x0 + 1, y0 + 4, "\\______/")
    header = " " * _LEFT + "".join(f"    {c:02d}  " for c in range(1, grid.columns + 1))
    lines = [header.rstrip()] + ["".join(row).rstrip() for row in canvas]
    lines.append(
        "key: T town, W woods, sA Soviet unit A, uB U.S. unit B; @ acting unit, X target, + attacking"
    )
    lines.extend(_status_lines(state))
    return "\n".join(lines)


def _status_lines(state) -> list[str]:
    from fof_env.strike_force_one.constants import PHASES

    gone = [UNIT_NAMES[u] for u, h in enumerate(state.unit_hex) if h < 0]
    lost = f"eliminated: {', '.join(gone)}" if gone else "eliminated: none"
    if state.is_terminal:
        winner = _SIDE_LABEL[state.winner] if state.winner is not None else "nobody"
        return [f"Game over: {winner} win (Soviets hold {state.soviet_towns()} of 3 towns); {lost}"]
    d = state.decision
    ctx = ", ".join(f"{k}={v}" for k, v in d.context.items() if k not in ("turn", "phase"))
    return [
        f"Turn {state.turn}/{state.sc.turns}  {PHASES[state.phase]}  Soviet towns {state.soviet_towns()}/3  {lost}",
        f"{_SIDE_LABEL[d.player]} to decide: {d.kind}" + (f" ({ctx})" if ctx else ""),
    ]


# -------------------------------------------------------------------------- picture
_COLORS = {
    "background": (246, 243, 232),
    "clear": (232, 228, 201),
    "town": (196, 188, 170),
    "building": (92, 84, 76),
    "woods": (108, 143, 78),
    "tree": (62, 98, 46),
    "edge": (110, 104, 90),
    "name": (70, 66, 58),
    "soviet": rgb(SIDE_COLOURS[0]),
    "us": rgb(SIDE_COLOURS[1]),
    "counter_edge": (20, 20, 20),
    "focus": (255, 208, 0),
    "target": (220, 30, 30),
    "attack": (240, 140, 20),
    "text": (30, 30, 30),
}
_SS = 2  # supersampling factor (drawn large, then downscaled: cheap antialiasing)


def _fit(draw, text: str, space: float, size: int):
    """The largest font (at most ``size``) in which ``text`` fits in ``space`` pixels."""
    while size > 8 and draw.textlength(text, font=font(size)) > space:
        size -= 1
    return font(size)


def _hex_points(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    return [
        (cx + radius * math.cos(math.pi / 3 * k), cy + radius * math.sin(math.pi / 3 * k)) for k in range(6)
    ]


def render_rgb(state, hex_radius: int = 36) -> np.ndarray:
    """A picture of the position: hexes with names, towns, woods, unit counters,
    the decision in progress highlighted, and a status bar. ``uint8``, H x W x 3."""
    from PIL import Image, ImageDraw

    grid = state.sc.grid
    R = hex_radius * _SS
    rh = math.sqrt(3) * R / 2  # half the hex height
    margin = int(0.4 * R)
    bar = int(1.3 * R)
    width = int(1.5 * R * (grid.columns - 1) + 2 * R) + 2 * margin
    height = int(2 * rh * max(grid.odd_rows, grid.even_rows + 0.5)) + 2 * margin + 2 * bar
    image = Image.new("RGB", (width, height), _COLORS["background"])
    draw = ImageDraw.Draw(image)
    small, label, counter = font(int(0.27 * R)), font(int(0.36 * R)), font(int(0.42 * R), bold=True)

    def center(h: int) -> tuple[float, float]:
        x, y = grid.center(h, R)
        return margin + R + x, bar + margin + rh + y

    towns = set(state.sc.towns)
    for h in range(len(grid)):
        cx, cy = center(h)
        fill = _COLORS["town"] if h in towns else _COLORS["woods"] if state.sc.woods[h] else _COLORS["clear"]
        draw.polygon(_hex_points(cx, cy, R), fill=fill, outline=_COLORS["edge"], width=_SS)
        if h in towns:
            s = 0.13 * R
            for dx, dy in ((-0.38, 0.42), (-0.12, 0.50), (0.14, 0.42), (0.40, 0.50)):
                x, y = cx + dx * R, cy + dy * R
                draw.rectangle((x - s, y - s, x + s, y + s), fill=_COLORS["building"])
        elif state.sc.woods[h]:
            s = 0.12 * R
            for dx, dy in (
                (-0.45, 0.35),
                (-0.18, 0.52),
                (0.18, 0.52),
                (0.45, 0.35),
                (-0.55, -0.05),
                (0.55, -0.05),
            ):
                x, y = cx + dx * R, cy + dy * R
                draw.ellipse((x - s, y - s, x + s, y + s), fill=_COLORS["tree"])
        draw.text((cx, cy - 0.62 * rh), grid.names[h], fill=_COLORS["name"], font=small, anchor="mm")

    # the decision in progress
    marks = _markers(state)
    for h, m in marks.items():
        cx, cy = center(h)
        if "X" in m:
            draw.polygon(_hex_points(cx, cy, 0.93 * R), outline=_COLORS["target"], width=4 * _SS)
        elif "+" in m:
            draw.polygon(_hex_points(cx, cy, 0.93 * R), outline=_COLORS["attack"], width=3 * _SS)

    units_in: dict[int, list[int]] = {}
    for u, h in enumerate(state.unit_hex):
        if h >= 0:
            units_in.setdefault(h, []).append(u)
    half = 0.3 * R
    for h, units in units_in.items():
        cx, cy = center(h)
        focus = "@" in marks.get(h, "")
        for k, u in enumerate(units):
            x = cx + (0.0 if len(units) == 1 else (-0.34 + 0.68 * k) * R)
            y = cy + 0.05 * R
            side = UNIT_SIDE[u]
            draw.rectangle(
                (x - half, y - half, x + half, y + half),
                fill=_COLORS[SIDES[side]],
                outline=_COLORS["focus"] if focus else _COLORS["counter_edge"],
                width=(3 if focus else 1) * _SS,
            )
            draw.text(
                (x, y),
                UNIT_LETTERS[side][u - (0 if side == 0 else 6)],
                fill="white",
                font=counter,
                anchor="mm",
            )

    # legend (top right), status (top left), decision (bottom)
    x = width - margin
    for side in (1, 0):
        text = _SIDE_LABEL[side]
        x -= draw.textlength(text, font=label)
        draw.text((x, bar / 2), text, fill=_COLORS["text"], font=label, anchor="lm")
        x -= 0.5 * R
        draw.rectangle((x, bar / 2 - 0.15 * R, x + 0.3 * R, bar / 2 + 0.15 * R), fill=_COLORS[SIDES[side]])
        x -= 0.35 * R
    lines = _status_lines(state)
    room = (x - margin, width - 2 * margin)
    for line, y, space in ((lines[0], bar / 2, room[0]), (lines[-1], height - bar / 2, room[1])):
        if len(lines) == 1 and y != bar / 2:
            break
        fitted = _fit(draw, line, space, int(0.36 * R))
        draw.text((margin, y), line, fill=_COLORS["text"], font=fitted, anchor="lm")
    image = image.resize((width // _SS, height // _SS), Image.Resampling.LANCZOS)
    return np.asarray(image, dtype=np.uint8).copy()
