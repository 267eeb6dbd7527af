"""A finished game as a page of its own: the browser board's replay viewer with the game inside.

>>> replay_page("records/GAME/heuristic__vs__random/0000.json", "out/replays/game.html")  # doctest: +SKIP

The page is the board's own page (``fof_env/app/static/index.html``) with the replay
(:func:`fof_env.core.replay_frames.replay_frames`: each side's view and the umpire's, step by step,
from the one filtering layer) embedded as gzip-compressed base64 JSON; ``board.js`` finds it there and
opens the viewer without a server (move list, step back and forward, jump to a turn, the last decision
highlighted, each side's view or the umpire's). The board's script and style sheet are copied once
per report folder (:func:`write_viewer`) and linked relatively, so a report folder can be moved whole
and opened from disk.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import os
import shutil
from pathlib import Path
from typing import Any

import fof_env
from fof_env.core.files import write_text_atomic

STATIC = Path(fof_env.__file__).parent / "app" / "static"  # the board's files (read as data)
VIEWER_DIR = "viewer"


def write_viewer(folder: str | Path) -> Path:
    """Copy the board's script and style sheet into ``folder/viewer`` (made); returns that folder."""
    target = Path(folder) / VIEWER_DIR
    target.mkdir(parents=True, exist_ok=True)
    for name in ("board.js", "board.css"):
        shutil.copyfile(STATIC / name, target / name)
    return target


def embed(frames: dict[str, Any]) -> str:
    """The replay as the page carries it: JSON, gzip-compressed, base64."""
    raw = json.dumps(frames, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, mtime=0)).decode("ascii")


def page_html(frames: dict[str, Any], viewer: str) -> str:
    """The board's page with ``frames`` embedded; ``viewer``: the relative folder of ``board.js``/``board.css``."""
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    href = html.escape(f"{viewer}/board.css", quote=True)
    src = html.escape(f"{viewer}/board.js", quote=True)
    data = f'<script id="fof-replay-data" type="text/plain" data-encoding="gzip-base64">{embed(frames)}</script>'
    page = page.replace('href="/static/board.css"', f'href="{href}"')
    page = page.replace('<script src="/static/board.js"></script>', f'{data}\n<script src="{src}"></script>')
    return page.replace("<title>fof board</title>", f"<title>Replay: {html.escape(frames['title'])}</title>")


def replay_page(record: str | Path | dict[str, Any], page: str | Path, viewer_dir: str | Path | None = None) -> Path:
    """Write the replay page of ``record`` (path, JSON text or dict) to ``page``; ``viewer_dir``: where
    :func:`write_viewer` put the board's files (default: ``viewer`` beside the page's folder)."""
    from evaluation.replay import load_record
    from fof_env.core.narration import describe_event
    from fof_env.core.replay_frames import replay_frames

    page = Path(page)
    page.parent.mkdir(parents=True, exist_ok=True)
    viewer = Path(viewer_dir) if viewer_dir is not None else page.parent.parent / VIEWER_DIR
    frames = replay_frames(load_record(record), describe_event)
    relative = Path(os.path.relpath(viewer.resolve(), page.parent.resolve())).as_posix()
    return write_text_atomic(page, page_html(frames, relative))
