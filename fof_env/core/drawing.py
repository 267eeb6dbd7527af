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
