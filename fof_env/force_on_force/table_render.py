"""Text and picture renderings of a Force on Force table (:class:`fof_env.core.tabletop.Table`).

``render_table_ascii(table, marks)`` draws one 3-character cell per grid point,
north at the top, with x (inches) across the top and y down the left::

       01 03 05 07
    01  .  .  T  T
    03  . |~  T_ T
    05  #  .  B  .

Cell = separator + terrain/mark + extra: ``T`` woods, ``B`` building, ``~`` stream
bank, ``I`` / ``F`` / ``R`` improved / fortified position / reinforced fortification, ``.`` open. Walls: a wall running between two columns is drawn ``|`` between
them, one running between two rows as ``_`` after the cell north of it, any other
wall as ``#`` on the points nearest to it and on every point within 0.75" of it.
``marks`` (point -> 1-2 characters, e.g. unit letters) override the terrain letter.

``render_table_rgb(table, units, pilot)`` returns an RGB picture (H x W x 3
``uint8``, ``scale`` pixels per inch) drawn with Pillow (imported lazily; it comes
with matplotlib) using matplotlib's DejaVu font when present.
"""

from __future__ import annotations

import math

import numpy as np

from fof_env.core.drawing import font
from fof_env.core.tabletop import Table

_TERRAIN_CHAR = {"woods": "T", "building": "B", "stream_bank": "~", "open": ".", "improved_position": "I",
                 "fortified_position": "F", "reinforced_fortification": "R"}
_POSITION_KEY = {"improved_position": "I improved position", "fortified_position": "F fortified position",
                 "reinforced_fortification": "R reinforced fortification"}  # keyed only on tables that have them
_TOL = 1e-6
WALL_MARK_IN = 0.75  # a point this close to a wall is drawn '#'


def _wall_cells(table: Table) -> tuple[set[tuple[int, int]], set[int], set[int]]:
    """(separator slots ``(row, col)`` with a '|', points with a '_' after them, points drawn '#')."""
    s = table.spacing_in
    bars: set[tuple[int, int]] = set()
    unders: set[int] = set()
    hashes: set[int] = set()
    for f in table.features:
        if f.segment is None:
            continue
        ax, ay, bx, by = f.segment
        drawn = False
        if abs(ax - bx) < _TOL:  # vertical: between columns c-1 and c when x = c * s
            c = ax / s
            if abs(c - round(c)) < _TOL:
                lo, hi = min(ay, by), max(ay, by)
                for r, y in enumerate(table.row_y):
                    if lo - _TOL < y < hi + _TOL:
                        bars.add((r, int(round(c))))
                        drawn = True
        elif abs(ay - by) < _TOL:  # horizontal: between rows r and r+1 when y = (r + 1) * s
            r = ay / s - 1
            if abs(r - round(r)) < _TOL and 0 <= round(r) < table.nrows:
                lo, hi = min(ax, bx), max(ax, bx)
                for c, x in enumerate(table.col_x):
                    if lo - _TOL < x < hi + _TOL:
                        unders.add(int(round(r)) * table.ncols + c)
                        drawn = True
        for p, (x, y) in enumerate(table.xy):
            if f.distance_to(x, y) <= WALL_MARK_IN + _TOL:
                hashes.add(p)
                drawn = True
        if not drawn:
            length = math.hypot(bx - ax, by - ay)
            steps = max(1, math.ceil(length / 0.25))
            for k in range(steps + 1):
                t = k / steps
                hashes.add(table.nearest(ax + t * (bx - ax), ay + t * (by - ay)))
    return bars, unders, hashes


def _label(v: float) -> str:
    return f"{int(round(v)):02d}" if abs(v - round(v)) < 1e-9 else f"{v:04.1f}"


def render_table_ascii(table: Table, marks: dict[int, str] | None = None) -> str:
    """A text map of the table (see the module docstring for the key).

    ``marks`` maps point indices to 1-2 character labels drawn over the terrain
    letter; a longer label raises ValueError. Returns the lines joined by newlines,
    ending with a key line.
    """
    marks = marks or {}
    for p, m in marks.items():
        if not (1 <= len(m) <= 2) or not (0 <= p < table.n):
            raise ValueError(f"mark {m!r} at point {p}: marks are 1-2 characters on a point of the table")
    bars, unders, hashes = _wall_cells(table)
    xl = [_label(x) for x in table.col_x]
    yl = [_label(y) for y in table.row_y]
    cw = max(len(v) for v in xl)
    lw = max(len(v) for v in yl)
    lines = [" " * lw + "".join(" " + v.ljust(max(cw, 2)) for v in xl).rstrip()]
    for r in range(table.nrows):
        cells = []
        for c in range(table.ncols):
            p = r * table.ncols + c
            sep = "|" if (r, c) in bars else " "
            body = ["#" if p in hashes else _TERRAIN_CHAR[table.kind_at[p]], "_" if p in unders else " "]
            body += [" "] * (max(cw, 2) - 2)
            m = marks.get(p)
            if m:
                body[: len(m)] = list(m)
            cells.append(sep + "".join(body))
        tail = "|" if (r, table.ncols) in bars else ""
        lines.append((yl[r].rjust(lw) + "".join(cells) + tail).rstrip())
    kinds = {f.kind for f in table.features}
    extra = "".join(f", {text}" for kind, text in _POSITION_KEY.items() if kind in kinds)
    lines.append(f"key: T woods, B building, ~ stream bank{extra}, . open, walls | _ #; x across, y down (inches)")
    return "\n".join(lines)


# -------------------------------------------------------------------------- picture
_COLORS = {
    "open": (222, 211, 170),
    "woods": (46, 94, 40),
    "tree": (30, 66, 28),
    "building": (128, 98, 72),
    "building_edge": (70, 66, 62),
    "stream_bank": (110, 160, 215),
    "stream": (60, 110, 190),
    "position": (176, 150, 100),
    "position_edge": (96, 78, 48),
    "wall": (120, 120, 120),
    "grid": (190, 180, 146),
    "usmc": (40, 80, 200),
    "taliban": (200, 40, 40),
    "unit_edge": (20, 20, 20),
    "text": (255, 255, 255),
    "count": (20, 20, 20),
    "pilot": (250, 210, 20),
}
_STATUS_COLORS = {
    "pinned": (255, 140, 0),
    "hidden": (215, 215, 215),
    "overwatch": (0, 210, 230),
    "spotted": (255, 255, 255),
    "escorting": (250, 210, 20),
    "rapid": (170, 60, 200),
}
_DEFAULT_STATUS_COLOR = (240, 240, 240)


def render_table_rgb(
    table: Table,
    units: list[dict],
    pilot: tuple[float, float] | None,
    scale: int = 16,
) -> np.ndarray:
    """A picture of the table, ``scale`` pixels per inch: ``uint8`` array of shape
    ``(round(height_in * scale), round(width_in * scale), 3)``, north at the top.

    Terrain: open ground tan, woods dark green, buildings brown with a grey edge,
    stream banks a blue strip, walls thick grey lines, grid points faint dots.
    Each unit dict needs ``x``, ``y`` (inches), ``player`` (0 or 1; or ``side`` ``"usmc"``/``"taliban"``;
    ``colour``, an RGB triple, when given, is its fill),
    ``label``, ``effective``, ``casualties`` and ``status`` (words separated by spaces
    or commas, e.g. ``"pinned"``, ``"hidden overwatch"``; ``""`` for none); it is drawn
    as a disc (blue for player 1, e.g. the USMC; red for player 0, e.g. the Taliban) with the label, ``"effective/total"`` below it
    (total = effective + casualties unless the dict has ``total``) and one coloured
    ring per status word. ``pilot`` (inches) is a yellow diamond marked ``P``.
    The output depends only on the arguments (deterministic).
    """
    from PIL import Image, ImageDraw

    if scale < 4:
        raise ValueError(f"scale must be at least 4 pixels per inch, got {scale}")
    width, height = int(round(table.width_in * scale)), int(round(table.height_in * scale))
    image = Image.new("RGB", (width, height), _COLORS["open"])
    draw = ImageDraw.Draw(image)

    def px(x: float, y: float) -> tuple[float, float]:
        return x * scale, y * scale

    for f in table.features:  # stream banks first, woods, then buildings on top
        if f.kind == "stream_bank" and f.rect is not None:
            x0, y0, x1, y1 = f.rect
            draw.rectangle((*px(x0, y0), *px(x1, y1)), fill=_COLORS["stream_bank"])
            if x1 - x0 <= y1 - y0:
                xm = (x0 + x1) / 2
                draw.line((*px(xm, y0), *px(xm, y1)), fill=_COLORS["stream"], width=max(1, scale // 5))
            else:
                ym = (y0 + y1) / 2
                draw.line((*px(x0, ym), *px(x1, ym)), fill=_COLORS["stream"], width=max(1, scale // 5))
    for f in table.features:
        if f.kind == "woods" and f.rect is not None:
            x0, y0, x1, y1 = f.rect
            draw.rectangle((*px(x0, y0), *px(x1, y1)), fill=_COLORS["woods"])
            rad = 0.35 * scale
            yy = y0 + 0.75
            while yy < y1 - 0.25:
                xx = x0 + (0.75 if int((yy - y0) / 1.5) % 2 == 0 else 1.5)
                while xx < x1 - 0.25:
                    cx, cy = px(xx, yy)
                    draw.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=_COLORS["tree"])
                    xx += 1.5
                yy += 1.5
    for f in table.features:  # prepared positions: sandbags and logs
        if f.kind in _POSITION_KEY and f.rect is not None:
            x0, y0, x1, y1 = f.rect
            draw.rectangle((*px(x0, y0), *px(x1, y1)), fill=_COLORS["position"], outline=_COLORS["position_edge"],
                           width=max(2, scale // 4))
    for f in table.features:
        if f.kind == "building" and f.rect is not None:
            x0, y0, x1, y1 = f.rect
            draw.rectangle(
                (*px(x0, y0), *px(x1, y1)),
                fill=_COLORS["building"],
                outline=_COLORS["building_edge"],
                width=max(2, scale // 6),
            )
    for f in table.features:
        if f.segment is not None:
            ax, ay, bx, by = f.segment
            draw.line((*px(ax, ay), *px(bx, by)), fill=_COLORS["wall"], width=max(3, scale // 3))
    dot = max(1, scale // 12)
    for p, (x, y) in enumerate(table.xy):
        cx, cy = px(x, y)
        color = _COLORS["grid"] if table.kind_at[p] == "open" else _COLORS["tree"]
        draw.ellipse((cx - dot, cy - dot, cx + dot, cy + dot), fill=color)

    label_font = font(max(6, int(0.8 * scale)), bold=True)
    count_font = font(max(6, int(0.6 * scale)), bold=True)
    radius = 0.9 * scale
    for u in units:
        cx, cy = px(float(u["x"]), float(u["y"]))
        words = [w for w in str(u.get("status", "")).replace(",", " ").split() if w]
        ring = max(2, scale // 6)
        for k, w in enumerate(words):
            r = radius + ring * (k + 1)
            draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r),
                outline=_STATUS_COLORS.get(w, _DEFAULT_STATUS_COLOR),
                width=ring,
            )
        player = u.get("player", 1 if u.get("side") == "usmc" else 0)
        fill = u.get("colour") or (_COLORS["usmc"] if player == 1 else _COLORS["taliban"])
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            fill=fill,
            outline=_COLORS["unit_edge"],
            width=1,
        )
        text = str(u["label"])
        size = max(6, int(0.8 * scale))
        while size > 6 and draw.textlength(text, font=font(size, bold=True)) > 1.9 * radius:
            size -= 1  # a long label ("Sherman") in a smaller font
        draw.text((cx, cy), text, fill=_COLORS["text"], font=font(size, bold=True), anchor="mm")
        effective = int(u["effective"])
        total = int(u.get("total", effective + int(u["casualties"])))
        ty = cy + radius + ring * len(words) + 0.4 * scale
        text = f"{effective}/{total}"
        box = draw.textbbox((cx, ty), text, font=count_font, anchor="mm")
        draw.rectangle(box, fill=(255, 255, 255))
        draw.text((cx, ty), text, fill=_COLORS["count"], font=count_font, anchor="mm")

    if pilot is not None:
        cx, cy = px(*pilot)
        r = 0.9 * scale
        draw.polygon(
            [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=_COLORS["pilot"], outline=(0, 0, 0)
        )
        draw.text((cx, cy), "P", fill=(0, 0, 0), font=label_font, anchor="mm")
    return np.asarray(image, dtype=np.uint8).copy()
