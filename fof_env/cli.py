"""The ``fof`` command's old module path: the command is :mod:`fof_env.app.cli` (the application shell).

``python -m fof_env.cli ...`` still runs it, and the names scripts imported from here still resolve.
"""

from __future__ import annotations

import sys

from fof_env.app.cli import PLUGIN_COMMANDS, build_parser, main
from fof_env.app.terminal import default_kind, game_sides
from fof_env.app.terminal import game_options as _game_options
from fof_env.app.terminal import wrap_legal as _wrap_legal

__all__ = ["PLUGIN_COMMANDS", "_game_options", "_wrap_legal", "build_parser", "default_kind", "game_sides", "main"]

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
