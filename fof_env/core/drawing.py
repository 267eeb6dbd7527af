"""Helpers shared by the RGB renderers (Pillow is imported lazily, only when drawing)."""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache


@lru_cache(maxsize=8)
def font(size: int, bold: bool = False):
    """DejaVu Sans from matplotlib's data (a dependency) at ``size`` pixels, else Pillow's default."""
    from PIL import ImageFont

    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.submodule_search_locations:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        path = os.path.join(spec.submodule_search_locations[0], "mpl-data", "fonts", "ttf", name)
        if os.path.exists(path):
            return ImageFont.truetype(path, size)
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


# Side colours (``#rrggbb``) where a scenario names none: side 0 red, side 1 green. The browser board
# and the RGB renderers (GIFs) read the same colours (a view's ``colours``; :func:`rgb`).
DEFAULT_SIDE_COLOURS = ("#b23426", "#3a6030")


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#3a6030"`` -> ``(58, 96, 48)``."""
    text = colour.lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
