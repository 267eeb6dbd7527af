"""Pictures of a game: frames taken while a record is replayed, as PNG files or an animated GIF.

>>> gif = game_gif("records/GAME/heuristic__vs__random/0000.json")   # doctest: +SKIP

:class:`Frames` is the ``on_frame`` callback of :func:`evaluation.replay.replay`: it
draws each state it is given with the game's RGB renderer
(:func:`fof_env.envs.support.rgb_renderer`), optionally scaled down, and keeps it
as a PNG file in ``png_dir`` and/or an image for a GIF. :func:`game_gif` replays a
record with a handful of evenly spaced frames, each captioned with the turn, the
decision or the result and the sides' colours (:func:`captioned`), and returns a small
GIF (the report's picture of a game). Pillow and matplotlib are imported when drawing.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any


class Frames:
    """Collects the frames of a replay: PNG files in ``png_dir`` and/or images for a GIF.

    Called as ``frames(state, decisions)``. ``scale`` (0 < scale <= 1) shrinks every
    frame (box filter) before it is kept. With ``gif`` (a path for :meth:`write_gif`)
    each image is kept with its own adaptive palette (light on memory for long
    replays); with ``keep_images`` alone they are kept as RGB and :meth:`gif_bytes`
    gives all frames one palette (smaller files, for a handful of frames).
    """

    def __init__(self, png_dir: str | None = None, gif: str | None = None, *, scale: float = 1.0,
                 keep_images: bool = False, caption: bool = False, total: int | None = None,
                 width: int | None = None):
        if not 0 < scale <= 1:
            raise ValueError(f"scale must be in (0, 1], got {scale}")
        self.caption = caption
        self.width = width  # when given: the scale that makes frames this wide (at most 1)
        self.total = total
        self.png_dir = Path(png_dir) if png_dir else None
        self.gif = gif
        self.scale = scale
        self.keep_images = keep_images or bool(gif)
        self.images: list[Any] = []  # GIF frames: "P" images with ``gif``, else RGB
        self.exact: set[tuple[int, int, int]] = set()  # colours the shared palette keeps as they are
        self.files: list[Path] = []
        self._render = None
        if self.png_dir is not None:
            self.png_dir.mkdir(parents=True, exist_ok=True)

    def __call__(self, state, decisions: int) -> None:
        from PIL import Image

        from fof_env.envs.support import rgb_renderer

        if self._render is None:
            self._render = rgb_renderer(state)
        image = Image.fromarray(self._render(state))
        if self.width:
            self.scale, self.width = min(1.0, self.width / image.width), None
        if self.scale < 1:
            size = (max(1, round(image.width * self.scale)), max(1, round(image.height * self.scale)))
            image = image.convert("RGB").resize(size, Image.Resampling.BOX)
        if self.caption:
            image = captioned(image, state, decisions, self.total)
            self.exact.update(side_rgbs(state))
        if self.png_dir is not None:
            path = self.png_dir / f"frame_{decisions:05d}.png"
            image.save(path)
            self.files.append(path)
        if self.gif:
            self.images.append(image.convert("P", palette=Image.Palette.ADAPTIVE))
        elif self.keep_images:
            self.images.append(image.convert("RGB"))

    def gif_bytes(self, frame_ms: int | list[int], *, colors: int = 256) -> bytes:
        """The kept images as a looping animated GIF, ``frame_ms`` per frame (or one duration per
        frame). RGB images share one palette of ``colors`` taken from the last frame, without
        dithering; the sides' colours of the captions are in it exactly (a median cut alone may
        merge a side's swatch with the board's shades)."""
        if not self.images:
            raise ValueError("no frames taken")
        from PIL import Image

        frames = self.images
        if frames[0].mode == "RGB":
            palette = shared_palette(frames[-1], colors, sorted(self.exact))
            frames = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in frames]
        buf = io.BytesIO()
        frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=frame_ms,
                       loop=0, optimize=True)
        return buf.getvalue()

    def write_gif(self, frame_ms: int) -> Path | None:
        """Write the GIF to ``gif`` (None if no GIF was asked for or no frame taken)."""
        if not self.gif or not self.images:
            return None
        path = Path(self.gif)
        path.write_bytes(self.gif_bytes(frame_ms))
        return path


def shared_palette(image, colors: int, exact: list[tuple[int, int, int]]):
    """A "P" image whose palette is ``colors`` colours: the ``exact`` ones as they are, then a
    median cut of ``image`` for the rest (the ``palette`` argument of ``Image.quantize``)."""
    from PIL import Image

    cut = image.quantize(colors=max(1, colors - len(exact)), dither=Image.Dither.NONE)
    rgb = list(cut.getpalette() or [])[: 3 * (colors - len(exact))]
    flat = [c for colour in exact for c in colour] + rgb
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + flat[:3] * (256 - len(flat) // 3))  # padded with a colour it has
    return palette


def side_rgbs(state) -> list[tuple[int, int, int]]:
    """Each side's colour in ``state``'s board (:meth:`RulesetView.colours`) as RGB."""
    from fof_env.core.drawing import rgb
    from fof_env.core.view import view_for

    return [rgb(colour) for colour in view_for(state.game.name).colours(state).values()]


def game_gif(record: str | Path | dict[str, Any], *, frames: int = 10, width: int = 320,
             frame_ms: int = 700, colors: int = 64, caption: bool = True) -> bytes:
    """A small looping GIF of the game in ``record`` (path, JSON text or dict): about ``frames``
    evenly spaced pictures from the start to the final position, scaled to ``width`` pixels; with
    ``caption`` each has a band below it (:func:`captioned`: the turn, the decision, the result at
    the end, each side's colour). The last frame shows three times as long.

    Raises :class:`evaluation.replay.ReplayError` for a record that does not replay and
    ``NotImplementedError`` for a game without an RGB renderer."""
    from evaluation.replay import load_record, replay

    data = load_record(record)
    decisions = len(data["actions"])
    every = max(1, math.ceil(decisions / max(1, frames - 1)))
    collector = Frames(keep_images=True, caption=caption, total=decisions, width=width)
    replay(data, every=every, on_frame=collector)
    durations = [frame_ms] * (len(collector.images) - 1) + [3 * frame_ms]
    return collector.gif_bytes(durations, colors=colors)


def caption_line(state, decisions: int, total: int | None = None) -> str:
    """The caption's words: ``"turn 2 · decision 30/84"``, or ``"soviet wins (84 decisions)"`` at the end."""
    from fof_env.core.view import view_for

    if state.is_terminal:
        winner = (state.result() or {}).get("winner")
        return f"{winner + ' wins' if winner else 'draw'} ({decisions} decisions)"
    turn = view_for(state.game.name).turn(state)
    of = f"/{total}" if total else ""
    return (f"turn {turn} · " if turn is not None else "") + f"decision {decisions}{of}"


CAPTION_PX = 15  # the caption's font size: readable whatever the picture's scale


def captioned(image, state, decisions: int, total: int | None = None):
    """``image`` (a picture of ``state``) with a white band below it: the game's title, the turn and
    the decision (``decisions`` of ``total``), or the result once the game is over; then a swatch of
    each side's colour with its name (the board's colours: :meth:`RulesetView.colours`)."""
    from PIL import Image, ImageDraw

    from fof_env.core.drawing import font, rgb
    from fof_env.core.view import view_for

    rview = view_for(state.game.name)
    size = CAPTION_PX
    text_font, bold = font(size), font(size, bold=True)
    band = 2 * size + 14
    out = Image.new("RGB", (image.width, image.height + band), (255, 255, 255))
    out.paste(image.convert("RGB"), (0, 0))
    draw = ImageDraw.Draw(out)
    y = image.height + 3
    draw.text((4, y), caption_line(state, decisions, total), fill=(0, 0, 0), font=bold)
    x = 4
    y2 = y + size + 4
    for side, colour in rview.colours(state).items():
        draw.rectangle([x, y2 + 1, x + size - 2, y2 + size - 1], fill=rgb(colour), outline=(0, 0, 0))
        draw.text((x + size + 2, y2), side, fill=(0, 0, 0), font=text_font)
        x += size + 10 + int(draw.textlength(side, font=text_font))
    return out
