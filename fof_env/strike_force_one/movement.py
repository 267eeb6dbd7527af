"""Movement reachability on bitsets (rules 4.2-4.5, 7.1, 8.1).

Hex sets are Python ints used as bitsets (bit ``h`` = hex ``h``), which makes a
breadth-first search over the 68-hex map a handful of integer operations per
layer. Costs: a clear hex costs 1, a woods hex 2 (optional rules; impassable
otherwise); the allowance is 4.
"""

from __future__ import annotations

MOVEMENT_ALLOWANCE = 4


def dilation_table(neighbor_bits: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """The neighbours of a hex set as a few shifts: ``(up, down)``, where ``up`` holds ``(d, mask)`` for
    every index step ``d > 0`` from a hex to a neighbour (``mask``: the hexes with a neighbour ``d``
    higher) and ``down`` the same for steps down. The neighbours of a set ``s`` are then the union of
    ``(s & mask) << d`` and ``(s & mask) >> d``: on an offset-column map a handful of shifts (SFO:
    ``1, 8, 9`` each way), exact for any neighbour table."""
    up: dict[int, int] = {}
    down: dict[int, int] = {}
    for h, bits in enumerate(neighbor_bits):
        while bits:
            low = bits & -bits
            bits ^= low
            d = low.bit_length() - 1 - h
            side = up if d > 0 else down
            side[abs(d)] = side.get(abs(d), 0) | (1 << h)
    return tuple(sorted(up.items())), tuple(sorted(down.items()))


def reachable_bits(
    start: int,
    enemy: int,
    zoc: int,
    full: int,
    woods: int,
    woods_cost_two: bool,
    dilation: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]],
) -> int:
    """Hexes a unit at ``start`` may end its move in, excluding ``start``.

    ``enemy``: enemy-occupied hexes (never entered, 4.4); ``zoc``: hexes adjacent to
    an enemy (entering one stops the unit, 4.5; no step from one such hex straight
    into another); ``full``: hexes the unit may pass through but not end in
    (friendly stacking limit, 4.4/7.1); ``woods``: woods hexes, entered at cost 2 when
    ``woods_cost_two`` else never (2.0/8.1); ``dilation``: :func:`dilation_table`.
    """
    start_bit = 1 << start
    up, down = dilation
    passable = ~(enemy if woods_cost_two else enemy | woods)
    free = ~zoc
    reached = start_bit
    layers = [start_bit, 0, 0, 0, 0, 0]
    for cost in range(MOVEMENT_ALLOWANCE):
        frontier = layers[cost]
        if cost:
            frontier &= free  # 4.5: a unit that entered an enemy-adjacent hex has stopped
        if not frontier:
            continue
        around = 0
        for d, mask in up:  # neighbours of the frontier (dilation_table)
            around |= (frontier & mask) << d
        for d, mask in down:
            around |= (frontier & mask) >> d
        around &= passable & ~reached
        if cost == 0 and start_bit & zoc:
            around &= free  # 4.5: never directly from one enemy-adjacent hex to another
        if woods_cost_two:
            into_woods = around & woods
            around &= ~woods
            if cost + 2 <= MOVEMENT_ALLOWANCE:
                layers[cost + 2] |= into_woods
                reached |= into_woods
        layers[cost + 1] |= around
        reached |= around
    return reached & ~start_bit & ~full


def can_move(
    start: int,
    enemy: int,
    zoc: int,
    full: int,
    woods: int,
    woods_cost_two: bool,
    neighbor_bits: tuple[int, ...],
    dilation: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]],
) -> bool:
    """Whether :func:`reachable_bits` is non-empty, usually decided by the first ring."""
    first = neighbor_bits[start] & ~enemy
    if not woods_cost_two:
        first &= ~woods
    if (1 << start) & zoc:
        first &= ~zoc
    if first & ~full:
        return True
    if not first:
        return False
    return bool(reachable_bits(start, enemy, zoc, full, woods, woods_cost_two, dilation))


# _BYTE_BITS[k][b]: the hex indices of the set bits of byte value ``b`` at byte position ``k``.
_BYTE_BITS = tuple(tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(16))


def bits_to_list(bits: int) -> list[int]:
    """Set bits in increasing order (a byte at a time, via a lookup table)."""
    out: list[int] = []
    k = 0
    while bits:
        b = bits & 255
        if b:
            out.extend(_BYTE_BITS[k][b])
        bits >>= 8
        k += 1
    return out
