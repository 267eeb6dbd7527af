"""Learned agents: a MaskablePPO policy (sb3-contrib) playing one side of a game.

``make_agent("ppo", game, player)`` loads the model shipped with the package for
that game and side (``agents/models/<game>-<side>.safetensors``); ``make_agent("ppo",
game, player, path="runs/x/model.safetensors")`` (spec ``"ppo:runs/x/model.safetensors"``)
loads any model written by ``fof train``.

A model is data, never code (:mod:`agents.policy_io`): its weights are tensors in a
``.safetensors`` file and its JSON **card** beside it (``model.json`` next to
``model.safetensors``, written by ``fof train``) is mandatory: game, side(s), options,
observation and action layout, the network's architecture, the weights' sha256,
training steps, wall time, seed, the exact command, the final evaluation and the
learning curve. Loading checks the card against the game: no card, another game,
side, observation version, observation shape or action count is refused with one
clear line (a ``ValueError``) rather than played badly; an old sb3 ``.zip`` is
refused without being opened by sb3 or pickle.

Acting: the agent reads only ``state.observation(player)`` (the player's own view)
and ``state.legal_mask()``; illegal actions get probability zero, so every action
is legal. A decision with one legal action is answered without the network.
``deterministic=True`` (default) plays the most probable action; otherwise it
samples with the agent's own ``numpy`` generator (seeded), never torch's global
RNG. An unseen placement (an ambusher's set-up: ``agents.mixed_setup``) is the game heuristic's
mixed draw (``setup="heuristic"``), a draw from the model's measured set-up book
(``setup="book"``, :mod:`agents.setup_book`; by default the book where one ships, else the heuristic)
or a sample of the policy (``setup="policy"``). A model trained on both sides (``--side both``) sees its side as two extra
observation entries (:func:`side_features`).

torch and sb3-contrib are imported when a model is loaded, not before.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import numpy as np

from agents import policy_io
from agents.mixed_setup import setup_choices
from agents.policy_io import CARD_FORMAT, ModelFileError, card_path
from fof_env.core.errors import OptionError
from fof_env.core.options import parse_value

__all__ = ["BOTH_SIDES", "CARD_FORMAT", "MODELS_DIR", "ModelFileError", "PPOAgent", "PolicyAgent", "card_path",
           "check_card", "load_policy", "read_card", "shipped_model_path", "shipped_models", "side_features"]

MODELS_DIR = Path(__file__).with_name("models")
MODEL_SUFFIX = ".safetensors"
BOTH_SIDES = "both"


def shipped_model_path(game_name: str, side: str) -> Path:
    """Where the package keeps the pretrained model of ``game_name``/``side`` (its card beside it)."""
    return MODELS_DIR / f"{game_name}-{side}{MODEL_SUFFIX}"


def shipped_models() -> list[Path]:
    """Every model weights file shipped in the package."""
    return sorted(MODELS_DIR.glob(f"*{MODEL_SUFFIX}"))


def read_card(model_path: str | Path) -> dict[str, Any]:
    """The JSON card beside a model as it is ({} if there is none); no check (see
    :func:`agents.policy_io.read_model_card` for the strict reading loading uses)."""
    path = card_path(model_path)
    if not path.exists():
        return {}
    with path.open() as f:
        return json.load(f)


def side_features(player: int) -> np.ndarray:
    """The two entries a both-sides model appends to its observation: one-hot of its player."""
    flag = np.zeros(2, dtype=np.float32)
    flag[player] = 1.0
    return flag


def load_policy(path: str | Path):
    """The policy network of a model (weights + card), on the CPU, in eval mode.

    Built from the card's architecture and filled from the safetensors weights, never
    unpickled; cached by resolved path, size and mtime (a replaced file is reread), at most
    16 models. Raises ``FileNotFoundError`` or :class:`~agents.policy_io.ModelFileError`.
    """
    return policy_io.load_model_policy(path)


def scenario_id(game) -> str | None:
    """The id of the scenario a game plays (Force on Force: one engine, many scenarios), else None."""
    scenario = getattr(game, "scenario", None)
    return getattr(scenario, "id", None)


def check_card(card: dict[str, Any], game, player: int, source: str) -> bool:
    """Refuse a model made for another game, side or layout; return True if it plays both sides.

    Raises :class:`~agents.policy_io.ModelFileError` (a ``ValueError``, one line) for no card,
    another card format, game, side, scenario (when the card names one), observation version or
    shape, or action count.
    """
    if not card:
        raise ModelFileError(f"cannot use model {source}: it has no card beside it")
    if card.get("format") != CARD_FORMAT:
        raise ModelFileError(f"cannot use model {source}: its card is format {card.get('format')!r}, "
                             f"not {CARD_FORMAT!r}")
    problems = []
    if card.get("game") != game.name:
        problems.append(f"it was trained for game {card.get('game')!r}, not {game.name!r}")
    side = game.player_names[player]
    if card.get("side") not in (side, BOTH_SIDES):
        problems.append(f"it plays side {card.get('side')!r}, not {side!r}")
    if card.get("scenario") is not None and card["scenario"] != scenario_id(game):
        problems.append(f"it was trained on scenario {card['scenario']!r}, not {scenario_id(game)!r}")
    version = getattr(game, "observation_version", None)
    if card.get("observation_version") != version:
        problems.append(f"observation version {card.get('observation_version')} != the game's {version}")
    if card.get("num_actions") != game.num_actions:
        problems.append(f"{card.get('num_actions')} actions != the game's {game.num_actions}")
    both = card.get("side") == BOTH_SIDES
    shape = [int(game.observation_shape[0]) + (2 if both else 0)]
    if card.get("observation_shape") != shape:
        problems.append(f"observation shape {card.get('observation_shape')} != the game's {shape}")
    arch = card.get("architecture")
    if not isinstance(arch, dict) or arch.get("both_sides") is not both:
        problems.append("its architecture block is missing or disagrees with its side")
    if problems:
        raise ModelFileError(f"cannot use model {source} here: " + "; ".join(problems))
    return both


class PolicyAgent:
    """Plays ``player`` with a MaskablePPO policy object (see the module docstring).

    Args:
        game: the game.
        player: the side it plays (index).
        policy: a ``MaskableActorCriticPolicy``.
        seed: seed of its own generator (used when ``deterministic=False`` and at unseen
            placements, which are always sampled).
        deterministic: most probable action (True) or a sample.
        both_sides: append :func:`side_features` to the observation.
    """

    def __init__(self, game, player: int, policy, seed: int | None = None, *,
                 deterministic: bool = True, both_sides: bool = False, name: str = "ppo"):
        self.game = game
        self.player = player
        self.policy = policy
        self.deterministic = deterministic
        self.both_sides = both_sides
        self.name = name
        self.rng = np.random.default_rng(seed)
        self._side = side_features(player)
        self.setup_bot = None  # plays the unseen placements when set (see PPOAgent's ``setup``)
        self._setup_factory = _setup_bot  # (game, player, seed) -> the setup_bot reseed() rebuilds

    def reseed(self, seed: int | None) -> None:
        """Restart the agent's own generator (the tournament re-uses one agent across games)."""
        self.rng = np.random.default_rng(seed)
        if self.setup_bot is not None:
            self.setup_bot = self._setup_factory(self.game, self.player, seed)

    def observe(self, state) -> np.ndarray:
        obs = np.asarray(state.observation(self.player), dtype=np.float32)
        return np.concatenate([obs, self._side]) if self.both_sides else obs

    def action_probabilities(self, state) -> np.ndarray:
        """The policy's masked probabilities over the whole action space."""
        return self.probabilities_of(self.observe(state)[None], state.legal_mask()[None])[0]

    def state_value(self, state) -> float:
        """The policy's critic on ``state``: its estimate of this player's discounted return (with the
        ``win`` reward, in [-1, 1]: +1 a win, -1 a loss)."""
        return float(self.values_of(self.observe(state)[None])[0])

    def probabilities_of(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Batched :meth:`action_probabilities`: one network call for ``B`` observations (``B x D``,
        from :meth:`observe`) and their legal masks (``B x num_actions``); returns ``B x
        num_actions``."""
        import torch

        with torch.no_grad():
            dist = self.policy.get_distribution(torch.as_tensor(observations), action_masks=masks)
            return dist.distribution.probs.numpy()

    def values_of(self, observations: np.ndarray) -> np.ndarray:
        """Batched :meth:`state_value`: the critic on ``B`` observations (``B x D``) in one call; ``B``."""
        import torch

        with torch.no_grad():
            return self.policy.predict_values(torch.as_tensor(observations))[:, 0].numpy()

    def act(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        mixed = setup_choices(state) > 1  # an unseen placement (agents.mixed_setup)
        if mixed and self.setup_bot is not None:
            return self.setup_bot.act(state)
        probs = self.action_probabilities(state)
        if self.deterministic and not mixed:  # an unseen placement is always sampled
            return int(np.argmax(probs))
        probs = probs.astype(np.float64)
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))

    def __repr__(self) -> str:
        return self.name


SETUPS = ("book", "points", "heuristic", "policy")
BOOK_SETUPS = ("book", "points")  # the set-ups that need the model's set-up book


def _setup_bot(game, player: int, seed: int | None):
    """The game's heuristic for ``player``, to play a learned bot's unseen placements (None: the game has none)."""
    from agents.heuristic import has_heuristic, make_heuristic

    return make_heuristic(game, player, seed=seed) if has_heuristic(game) else None


class BookSetup:
    """Plays a learned bot's unseen placements from its set-up book (:mod:`agents.setup_book`), drawn
    with its own ``random.Random(seed)`` (a book with plans: one plan drawn at the first placement and
    played through); a placement the book has no legal point for is the game heuristic's mixed draw."""

    def __init__(self, book, game, player: int, seed: int | None):
        self.book = book
        self.rng = random.Random(seed)
        self.fallback = _setup_bot(game, player, seed)
        self.plan, self.made = None, 0

    def act(self, state) -> int:
        action, self.plan = self.book.draw(state, lambda total: self.rng.random() * total, self.plan, self.made)
        self.made += 1
        if action is None:
            if self.fallback is None:
                raise ValueError("the set-up book has no legal point here and the game has no heuristic")
            return self.fallback.act(state)
        return action


class PPOAgent(PolicyAgent):
    """A MaskablePPO model: ``path`` (weights with their card) or, if None, the one shipped
    for this game and side. ``setup``: who chooses its unseen placements (``agents.mixed_setup``):
    ``"book"``, the model's set-up book (``<model>.setups.json``, :mod:`agents.setup_book`: the points
    measured to suit this model, drawn by weight, one of its plans played through where it lists plans;
    it must be there and match the weights); ``"points"``, the same book drawn placement by placement,
    its plans ignored (a revealed unit then tells nothing of where the others are; the shipped books
    list no plans: docs/fair_play.md); ``"heuristic"``,
    the game's heuristic with its mixed strategy, seeded like the agent; None (default), the book when
    one matching the weights is there, else the heuristic;
    ``"policy"``, a sample of the policy's own distribution. A policy trained with PPO sharpens its
    set-up onto one point per unit, which a player learns by heart; the heuristic's draw does not.

    Attributes: ``path`` (the weights file) and ``card`` (its JSON card).
    """

    def __init__(self, game, player: int, seed: int | None = None, path: str | Path | None = None,
                 deterministic: bool | str = True, setup: str | None = None):
        if setup is not None and setup not in SETUPS:
            raise OptionError(f"ppo: setup must be one of {', '.join(SETUPS)}, got {setup!r}")
        side = game.player_names[player]
        if path is None:
            path = shipped_model_path(game.name, side)
            if not path.exists():
                have = ", ".join(p.stem for p in shipped_models()) or "none"
                raise ValueError(
                    f"no pretrained model ships for {game.name} / {side} (shipped: {have}); "
                    f"train one with `fof train --game {game.name} --side {side}` and use ppo:PATH"
                )
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"no model file {path}")
        card = policy_io.read_model_card(path)  # an sb3 zip or a missing card stops here
        both = check_card(card, game, player, str(path))
        if isinstance(deterministic, str):
            deterministic = parse_value(deterministic)
        if deterministic not in (True, False):  # also 1 / 0
            raise OptionError(f"ppo: deterministic must be true or false, got {deterministic!r}")
        super().__init__(game, player, load_policy(path), seed,
                         deterministic=deterministic, both_sides=both, name=f"ppo:{path}")
        self.path = path
        self.card = card
        self.book = self._read_book(game, side, setup)
        if self.book is not None:
            self._setup_factory = lambda g, p, s: BookSetup(self.book, g, p, s)
        if setup != "policy":
            self.setup_bot = self._setup_factory(game, player, seed)

    def _read_book(self, game, side: str, setup: str | None):
        """The set-up book beside the model when ``setup`` asks for one (``"book"`` or ``"points"``, the
        latter without its plans: it must exist and match the weights) or leaves it open (None: used
        when present and matching), else None."""
        if setup is not None and setup not in BOOK_SETUPS:
            return None
        from agents.setup_book import book_path, read_book

        where = book_path(self.path)
        if not where.exists():
            if setup in BOOK_SETUPS:
                raise ModelFileError(f"ppo: setup={setup}, but model {self.path} has no set-up book {where.name} "
                                     f"(make one with `python -m training.setup_book`)")
            return None
        book = read_book(where, game, side)
        if book.model_sha256 != self.card.get("weights", {}).get("sha256"):
            if setup in BOOK_SETUPS:
                raise ModelFileError(f"cannot use set-up book {where}: it was measured for other weights "
                                     f"than {self.path.name}'s")
            return None
        return dataclasses.replace(book, plans=()) if setup == "points" else book
