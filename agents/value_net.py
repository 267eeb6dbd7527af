"""Value nets: one side's estimate of its game result from its own observation, as data.

A value net is a small multilayer perceptron trained on **game results** (+1 a win, -1 a loss,
0 a draw; never a shaped return) of positions from games between named agents
(:mod:`training.value_net` trains one; ``python -m training.value_net --help``). It reads the
observation its side gets (``state.observation(player)``), so it knows only what that side may know,
and predicts that side's result in [-1, 1] (a ``tanh`` output). The search reads it with
``mcts:evaluation=value`` (:mod:`agents.mcts`), where it values positions against the opponent the
games were played with (the card's ``games.opponent``; a search that models that opponent in its
tree, ``opponent=heuristic``, asks the question the net was trained to answer).

**Files.** ``NAME.safetensors`` holds float32 tensors ``layers.<i>.weight`` (``out x in``) and
``layers.<i>.bias`` with metadata ``{"format": WEIGHTS_FORMAT}``; the card ``NAME.json`` beside it
is mandatory: ``"format": CARD_FORMAT``, ``game``, ``side``, ``scenario`` (or null),
``observation_shape``, ``hidden`` (the hidden layers' widths, ``tanh`` between), ``"weights":
{"file", "sha256", "bytes"}``, and what it was trained on and how well it predicts held-out games
(``games``, ``metrics``, ``command``). Nothing is unpickled; the network is rebuilt from the card's
widths and the tensors must fit them exactly. Every problem raises
:class:`~agents.policy_io.ModelFileError` (one line naming the file).

Shipped nets live in ``agents/models/values/GAME-SIDE.safetensors`` (:func:`shipped_value_path`).
Inference is numpy (a few matrix products), cheap enough to call at every leaf of a search.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy_io import ModelFileError, parse_safetensors, sha256_of

__all__ = ["CARD_FORMAT", "VALUES_DIR", "ValueNet", "WEIGHTS_FORMAT", "check_fits", "load_value_net",
           "shipped_value_path"]

CARD_FORMAT = "fof-value-card/1"
WEIGHTS_FORMAT = "fof-value-weights/1"
VALUES_DIR = Path(__file__).with_name("models") / "values"
MAX_WIDTH = 4096  # a card cannot make us allocate more than this per layer
MAX_LAYERS = 8
MAX_INPUT = 1_000_000


def shipped_value_path(game_name: str, side: str) -> Path:
    """Where the package keeps the value net of ``game_name``/``side`` (its card beside it)."""
    return VALUES_DIR / f"{game_name}-{side}.safetensors"


class ValueNet:
    """A loaded value net: :meth:`value` of one observation, :meth:`values` of a batch.

    ``layers`` is a list of ``(weight, bias)`` float32 arrays (``out x in``, ``out``); every layer but
    the last is followed by ``tanh``, the last (one output) by ``tanh`` too, so values lie in [-1, 1].
    """

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], card: dict[str, Any] | None = None):
        self.layers = [(np.ascontiguousarray(w.T, dtype=np.float32), b.astype(np.float32)) for w, b in layers]
        self.card = card or {}
        self.input_size = self.layers[0][0].shape[0]

    def values(self, observations: np.ndarray) -> np.ndarray:
        """The values of ``B`` observations (``B x D``): ``B`` floats in [-1, 1]."""
        x = np.asarray(observations, dtype=np.float32)
        for w, b in self.layers:
            x = np.tanh(x @ w + b)
        return x[:, 0]

    def value(self, observation: np.ndarray) -> float:
        """The value of one observation (its side's expected result, in [-1, 1])."""
        return float(self.values(np.asarray(observation, dtype=np.float32)[None])[0])

    def state_value(self, state, player: int) -> float:
        """The value of ``state`` for ``player``, read from ``player``'s own observation."""
        return self.value(state.observation(player))


def _check_card(card: Any, source: str) -> tuple[int, list[int]]:
    """(input size, hidden widths) of a value card, or ModelFileError."""
    if not isinstance(card, dict) or card.get("format") != CARD_FORMAT:
        got = card.get("format") if isinstance(card, dict) else type(card).__name__
        raise ModelFileError(f"cannot use {source}: not a value-net card (format {got!r}, want {CARD_FORMAT!r})")
    shape = card.get("observation_shape")
    hidden = card.get("hidden")

    def sizes_ok(values: Any, limit: int, most: int) -> bool:
        return (isinstance(values, list) and len(values) <= most
                and all(type(v) is int and 0 < v <= limit for v in values))  # fmt: skip

    if not sizes_ok(shape, MAX_INPUT, 1) or len(shape) != 1:
        raise ModelFileError(f"cannot use {source}: observation_shape must be [N] with 0 < N <= {MAX_INPUT}")
    if not sizes_ok(hidden, MAX_WIDTH, MAX_LAYERS):
        raise ModelFileError(
            f"cannot use {source}: hidden must list at most {MAX_LAYERS} widths, each 1..{MAX_WIDTH}"
        )
    return shape[0], hidden


def load_value_net(path: str | Path) -> ValueNet:
    """The value net at ``path`` (its ``.json`` card beside it), checked against its card; see the module
    docstring. Raises ``FileNotFoundError`` or :class:`~agents.policy_io.ModelFileError`."""
    path = Path(path)
    card_file = path.with_suffix(".json")
    try:
        card = json.loads(card_file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelFileError(f"cannot use {path}: its card {card_file} is missing") from None
    except (OSError, ValueError) as exc:
        raise ModelFileError(f"cannot use {path}: its card {card_file} is not readable JSON ({exc})") from None
    size, hidden = _check_card(card, str(card_file))
    data = path.read_bytes()
    want = (card.get("weights") or {}).get("sha256") if isinstance(card.get("weights"), dict) else None
    if want != sha256_of(data):
        raise ModelFileError(f"cannot use {path}: its bytes do not hash to the card's weights.sha256")
    tensors, metadata = parse_safetensors(data, str(path))
    if metadata.get("format") != WEIGHTS_FORMAT:
        raise ModelFileError(f"cannot use {path}: weights format {metadata.get('format')!r}, want {WEIGHTS_FORMAT!r}")
    widths = [size, *hidden, 1]
    layers = []
    for i in range(len(widths) - 1):
        want_shapes = {f"layers.{i}.weight": (widths[i + 1], widths[i]), f"layers.{i}.bias": (widths[i + 1],)}
        for key, shape in want_shapes.items():
            got = tuple(tensors[key].shape) if key in tensors else None
            if got != shape:
                raise ModelFileError(f"cannot use {path}: tensor {key} has shape {got}, the card asks {shape}")
        layers.append((tensors[f"layers.{i}.weight"].float().numpy(), tensors[f"layers.{i}.bias"].float().numpy()))
    extra = sorted(set(tensors) - {f"layers.{i}.{k}" for i in range(len(widths) - 1) for k in ("weight", "bias")})
    if extra:
        raise ModelFileError(f"cannot use {path}: tensors the card does not describe: {', '.join(extra[:5])}")
    return ValueNet(layers, card)


def check_fits(net: ValueNet, game, player: int, source: str) -> None:
    """Refuse a value net made for another game, side, scenario or observation size (one line)."""
    card = net.card
    side = game.player_names[player]
    scenario = getattr(getattr(game, "scenario", None), "id", None)
    size = int(np.asarray(game.new_initial_state(0).observation(player)).shape[0])
    problems = []
    if card.get("game") != game.name:
        problems.append(f"game {card.get('game')!r}, not {game.name!r}")
    if str(card.get("side", "")).lower() != side.lower():
        problems.append(f"side {card.get('side')!r}, not {side!r}")
    if card.get("scenario") not in (None, scenario):
        problems.append(f"scenario {card.get('scenario')!r}, not {scenario!r}")
    if net.input_size != size:
        problems.append(f"observations of {net.input_size} floats, not {size}")
    if problems:
        raise ModelFileError(f"cannot use {source} here: it was made for {'; '.join(problems)}")
