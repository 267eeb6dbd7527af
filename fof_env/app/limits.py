"""The protocol's limits: one set, read by the engine, the server, the JSON Schema and ``hello``.

Every number a client sends or makes the server spend is bounded here. The JSON Schema
(``schemas/protocol.schema.json``) repeats the caps that belong to a message (``budget``,
``count``, ``id``, ``since``); a test keeps the two equal, and ``hello`` reports them all
(:func:`report`). Defaults that an operator may change (``fof serve`` / ``fof engine`` flags)
are the ``DEFAULT_*`` values; the rest are fixed.
"""

from __future__ import annotations

from typing import Any

MAX_MESSAGE_BYTES = 1 << 20  # one request; on WebSocket also the largest message read at all
MAX_JSON_DEPTH = 32  # arrays and objects nested in one request
MAX_ID = 2**53 - 1  # an integer request id (JSON numbers every client reads exactly)
MAX_INDEX = 1_000_000  # "since" / "played_since"
MAX_SIMULATIONS = 20_000  # MCTS iterations per decision ("mcts:N", budget.simulations)
MAX_TIME_BUDGET_S = 600.0  # budget.time and mcts time_budget; the engine's --bot-timeout caps it further
MAX_BOT_COUNT = 1_000  # decisions one 'bot' request may ask for
MAX_ROLLOUT_LIMIT = 10_000  # mcts rollout_limit (decisions)
MAX_BATCH = 256  # mcts batch (leaves per network call)
MAX_CONSIDERED = 1_024  # mcts considered (root=gumbel: root actions sampled)
MAX_EXPLORATION = 100.0  # mcts exploration constant
MAX_SPEC_NUMBER = 1e6  # any other number in an agent spec (its absolute value)
MAX_SPEC_INTS = {"simulations": (1, MAX_SIMULATIONS), "rollout_limit": (0, MAX_ROLLOUT_LIMIT), "batch": (1, MAX_BATCH),
                 "considered": (1, MAX_CONSIDERED)}
MAX_SPEC_FLOATS = {"exploration": (0.0, MAX_EXPLORATION), "epsilon": (0.0, 1.0), "prior_mix": (0.0, 1.0)}
BOT_REQUESTS_IN_FLIGHT = 1  # bot decisions one connection may have running at once
MAX_SPECTATORS_PER_GAME = 16  # connections watching one game through its spectator link

DEFAULT_BOT_TIMEOUT_S = 30.0
DEFAULT_MAX_GAMES = 200  # games held at once, all connections together
DEFAULT_MAX_GAMES_PER_CONNECTION = 20
DEFAULT_MAX_SAVES = 2_000  # saves held at once, all connections together
DEFAULT_MAX_SAVES_PER_CONNECTION = 50  # per connection, or per token on a later connection
DEFAULT_GAME_IDLE_S = 3_600.0  # a game nobody asked about for this long is forgotten
DEFAULT_SAVE_IDLE_S = 7 * 24 * 3_600.0  # a save not loaded for this long is deleted (memory and --save-dir)
DEFAULT_MAX_CONNECTIONS = 256  # fof serve: WebSocket connections at once
DEFAULT_HEADER_TIMEOUT_S = 10.0  # fof serve: seconds a connection may take to send its HTTP request head
END_OF_INPUT_GRACE_S = 0.5  # fof engine: bot decisions still running this long after end of input are stopped
MAX_SCENARIO_FILE_BYTES = 1 << 20  # an operator's scenario file


def report(**engine_limits: Any) -> dict[str, Any]:
    """The ``limits`` object of ``hello``: the fixed caps and the engine's own (``engine_limits``)."""
    return {
        "max_message_bytes": MAX_MESSAGE_BYTES,
        "max_json_depth": MAX_JSON_DEPTH,
        "max_simulations": MAX_SIMULATIONS,
        "max_time_budget_s": MAX_TIME_BUDGET_S,
        "max_bot_count": MAX_BOT_COUNT,
        "max_rollout_limit": MAX_ROLLOUT_LIMIT,
        "max_batch": MAX_BATCH,
        "max_considered": MAX_CONSIDERED,
        "max_exploration": MAX_EXPLORATION,
        "max_spec_number": MAX_SPEC_NUMBER,
        "bot_requests_in_flight": BOT_REQUESTS_IN_FLIGHT,
        "max_spectators_per_game": MAX_SPECTATORS_PER_GAME,
        **engine_limits,
    }
