"""The :class:`~fof_env.app.protocol.Engine` keywords of the ``fof engine`` / ``fof serve`` flags."""

from __future__ import annotations

from typing import Any


def engine_options(args, *, connections: int | None = None) -> dict[str, Any]:
    """The :class:`~fof_env.app.protocol.Engine` keywords of ``fof engine`` / ``fof serve`` flags
    (``connections=1``: stdio, where the one client may hold every game and save)."""
    per_game = args.max_games if connections == 1 else args.max_games_per_connection
    per_save = args.max_saves if connections == 1 else args.max_saves_per_connection
    return {
        "bot_timeout": args.bot_timeout,
        "save_dir": args.save_dir,
        "max_line": args.max_message,
        "max_games": args.max_games,
        "max_games_per_owner": per_game,
        "max_saves": args.max_saves,
        "max_saves_per_owner": per_save,
        "game_idle_s": args.game_idle,
        "save_idle_s": args.save_idle,
        "scenario_dirs": args.scenarios,
        "model_dirs": args.models,
    }
