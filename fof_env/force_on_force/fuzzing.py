"""Force on Force under the fuzzers: its position invariants and random positions.

:func:`check_position` (``python -m evaluation.fuzz``, at every decision of a game played from its
scenario's start): figures conserved per unit (set-up strength, +1 for the unit a set-up attachment
joins; a reinforcements unit holds no more figures than the KIA it brought back), no negative count,
units on the table grid, only the ambushing side hidden, the pilot on the point of the unit he is
with, the other side's observation blank for hidden units but their flag, and :func:`check_cards`.
:func:`check_cards`: with the WWII Fog of War deck, no card made or lost and every hand secret (any
scenario file). :func:`random_position` (``python -m evaluation.position_fuzz``): units on random
points with random figures and statuses, the pilot, the stage and turn, sometimes a custom table
with random woods.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fof_env.core.view import view
from fof_env.force_on_force import observation as fo
from fof_env.force_on_force.constants import GONE
from fof_env.force_on_force.position import MOVED, STATUS_FLAGS
from fof_env.force_on_force.rules.wwii_fog import check_card_invariant
from fof_env.force_on_force.scenario import table_from_dict


def check_position(state) -> None:
    """Figure conservation, unit, pilot and hidden-unit invariants, and the WWII deck's
    (:func:`check_cards`), of a scenario played from its own start."""
    sc = state.sc
    profiles = sc.profiles
    names, unit_side = state.UNIT_NAMES, state.UNIT_SIDE
    reinforcements = sc.reinforcements
    for u in range(state.NUM_UNITS):
        f = state.figs[u]
        name = names[u]
        assert min(f) >= 0, f"{name} has a negative figure count {f}"
        p = state.pos[u]
        assert -1 <= p < state.NUM_POINTS, f"{name} at point {p}"
        if u == reinforcements:
            continue
        expected = profiles[u].figures + (1 if u == state.leader_unit else 0)
        assert sum(f) == expected, f"{name} has {sum(f)} figures {f}, expected {expected}"
        if state.hidden[u]:
            assert unit_side[u] == sc.ambush_side, f"{name} is hidden"
    if reinforcements >= 0:
        side = unit_side[reinforcements]
        returned = sum(state.figs[u][GONE] for u in state.SIDE_UNITS[side] if u != reinforcements)
        raised = sum(state.figs[reinforcements])
        assert raised <= returned, f"{names[reinforcements]} has {raised} figures, only {returned} KIA returned"
    if state.leader_unit >= 0:
        assert unit_side[state.leader_unit] == sc.attachment.side, "the attachment joined an enemy unit"
    if state.pilot_unit >= 0:
        carrier = state.pilot_unit
        assert unit_side[carrier] == sc.pilot.side, "the pilot is with an enemy unit"
        assert state.pilot_pos >= 0 and state.pos[carrier] >= 0, "the pilot's unit is off the table"
        assert state.pilot_pos == state.pos[carrier], "the pilot is not on his team's point"
        assert state.contact, "the pilot is with a unit but contact was never made"
    if state.pilot_exit:
        assert state.pilot_pos < 0 and state.pilot_unit < 0, "the pilot exited yet is on the table"
    check_cards(state)  # the WWII Fog of War deck: no card made or lost
    if sc.ambush_side >= 0:
        viewer = 1 - sc.ambush_side
        obs = state.observation(viewer)
        for u in state.SIDE_UNITS[sc.ambush_side]:
            if state.hidden[u] and any(state.figs[u]):
                base = fo.unit_row(state.LAYOUT, viewer, u)
                row = obs[base : base + fo.UNIT_FEATURES]
                assert row[14] == 1.0 and np.count_nonzero(row) == 1, f"the enemy sees hidden {names[u]}"


def check_cards(state) -> None:
    """A Force on Force game with the WWII Fog of War deck: deck + hands + discards are the deck list, and a
    hand is secret: swapping a held card for a different one still in the deck changes nothing the other
    side observes or is shown (its observation, its view, its legal actions)."""
    cards = getattr(state, "cards", None)
    if cards is None:
        return
    check_card_invariant(state)
    for side in (0, 1):
        hand = cards.hands[side]
        other = next((k for k, c in enumerate(cards.deck) if hand and c != hand[0]), None)
        if other is None:
            continue
        swapped = state.clone()
        deck = list(cards.deck)
        deck[other], new_hand = hand[0], (cards.deck[other], *hand[1:])
        hands = (new_hand, cards.hands[1]) if side == 0 else (cards.hands[0], new_hand)
        swapped.cards = cards._replace(deck=tuple(deck), hands=hands)
        opponent = 1 - side
        assert np.array_equal(state.observation(opponent), swapped.observation(opponent)), "a hand shows in the observation"
        assert view(state, opponent) == view(swapped, opponent), "a hand shows in the other side's view"
        if state.current_player == opponent:
            assert state.legal_actions() == swapped.legal_actions(), "a hand shows in the other side's mask"


def _pick(rng: np.random.Generator, items):
    return items[int(rng.integers(len(items)))]


def random_position(rng: np.random.Generator, game) -> dict[str, Any]:
    """A random position (module docstring) drawn from ``rng``, on the scenario's table or a custom one."""
    custom = rng.random() < 0.2
    table_spec = None
    if custom:
        features = []
        for i in range(int(rng.integers(0, 5))):
            x, y = (float(v) for v in rng.integers(0, 30, size=2))
            features.append({"id": f"w{i}", "kind": "woods", "rect": [x, y, x + 6.0, y + 6.0]})
        table_spec = {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2}, "features": features}
        try:
            table = table_from_dict({**table_spec["table"], "features": features}, "fuzz")
        except ValueError:  # overlapping woods: the position will be refused; draw on the scenario map
            table = game.setup.table
    else:
        table = game.setup.table
    points = list(table.names)
    woods = [table.names[p] for p in range(table.n) if table.in_woods[p]]
    profiles = game.setup.profiles
    units: dict[str, dict[str, Any]] = {}
    cls = game.state_class
    for u, name in enumerate(cls.UNIT_NAMES):
        if rng.random() > 0.6 or (not profiles[u].figures and u != game.setup.reinforcements):
            continue
        hider = cls.UNIT_SIDE[u] == game.setup.ambush_side
        hide = hider and woods and rng.random() < 0.3
        at = _pick(rng, woods) if hide else (None if rng.random() < 0.05 else _pick(rng, points))
        most = max(profiles[u].figures, 1)
        spec: dict[str, Any] = {
            "at": at,
            "figures": {
                "ok": int(rng.integers(0, most + 1)),
                "light": int(rng.integers(0, 2)),
                "down": int(rng.integers(0, 2)),
                "serious": int(rng.integers(0, 2)),
                "kia": int(rng.integers(0, 2)),
            },
            "moved": _pick(rng, MOVED),
            "fires": int(rng.integers(0, 3)),
            "reaction_moves": int(rng.integers(0, 2)),
            "status": [f for f in STATUS_FLAGS if f != "hidden" and rng.random() < 0.08]
            + (["hidden"] if hide and at is not None else []),
        }
        if rng.random() < 0.2:
            spec["support"] = [_pick(rng, ("light", "medium", "heavy")) for _ in range(int(rng.integers(0, 3)))]
        if rng.random() < 0.1:
            spec["tq"] = int(_pick(rng, (6, 8, 10, 12)))
        units[name] = spec
    rescuers = game.setup.pilot.side if game.setup.pilot is not None else 1
    usmc_on = [cls.UNIT_NAMES[u] for u in cls.SIDE_UNITS[rescuers]
               if cls.UNIT_NAMES[u] in units and units[cls.UNIT_NAMES[u]]["at"] is not None]  # fmt: skip
    turn = int(rng.integers(1, 10))
    roll = rng.random()
    if roll < 0.3:
        pilot: dict[str, Any] = {"at": _pick(rng, points)}
    elif roll < 0.5:
        pilot = {"exited_turn": int(rng.integers(1, turn + 1))}
    elif roll < 0.7 and usmc_on:
        pilot = {"with": _pick(rng, usmc_on), "contact": True}
    else:
        pilot = {}
    stage = _pick(rng, ("activation",) * 7 + ("overwatch",) * 2 + ("game_over",))
    pos: dict[str, Any] = {
        "stage": stage,
        "turn": turn,
        "initiative": _pick(rng, cls.SIDES),
        "portion": _pick(rng, ("initiative", "non_initiative")),
        "units": units,
        "pilot": pilot,
        "amped_up": [s for s in cls.SIDES if rng.random() < 0.1],
        "seed": int(rng.integers(2**32)),
    }
    if rng.random() < 0.1:
        pos["must_fire_first"] = True
    if usmc_on and rng.random() < 0.3:
        pos["leader"] = _pick(rng, usmc_on)
    if table_spec is not None:
        pos["table"] = table_spec
    return pos
