"""Movement reachability on bitsets (rules 4.2-4.5, 7.1, 8.1).

Hex sets are Python ints used as bitsets (bit ``h`` = hex ``h``), which makes a
breadth-first search over the 68-hex map a handful of integer operations per
layer. Costs: a clear hex costs 1, a woods hex 2 (optional rules; impassable
otherwise); the allowance is 4.
"""

from __future__ import annotations

MOVEMENT_ALLOWANCE = 4


def dilation_table(neighbor_bits: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``table[k][b]``: the union of the neighbours of the hexes set in byte ``b`` at
    byte position ``k``; so the neighbours of any hex set are a few table look-ups."""
    chunks = (len(neighbor_bits) + 7) // 8
    table = []
    for k in range(chunks):
        row = [0] * 256
        for b in range(1, 256):
            low = b & -b
            h = 8 * k + low.bit_length() - 1
            row[b] = row[b ^ low] | (neighbor_bits[h] if h < len(neighbor_bits) else 0)
        table.append(tuple(row))
    return tuple(table)


def reachable_bits(
    start: int,
    enemy: int,
    zoc: int,
    full: int,
    woods: int,
    woods_cost_two: bool,
    dilation: tuple[tuple[int, ...], ...],
) -> int:
    """Hexes a unit at ``start`` may end its move in, excluding ``start``.

    ``enemy``: enemy-occupied hexes (never entered, 4.4); ``zoc``: hexes adjacent to
    an enemy (entering one stops the unit, 4.5; no step from one such hex straight
    into another); ``full``: hexes the unit may pass through but not end in
    (friendly stacking limit, 4.4/7.1); ``woods``: woods hexes, entered at cost 2 when
    ``woods_cost_two`` else never (2.0/8.1); ``dilation``: :func:`dilation_table`.
    """
    start_bit = 1 << start
    blocked = enemy if woods_cost_two else enemy | woods
    reached = start_bit
    layers = [start_bit, 0, 0, 0, 0, 0]
    for cost in range(MOVEMENT_ALLOWANCE):
        frontier = layers[cost]
        if cost:
            frontier &= ~zoc  # 4.5: a unit that entered an enemy-adjacent hex has stopped
        if not frontier:
            continue
        around = 0
        k = ((frontier & -frontier).bit_length() - 1) >> 3  # skip empty low bytes
        frontier >>= 8 * k
        while frontier:  # neighbours of the frontier, a byte at a time
            b = frontier & 255
            if b:
                around |= dilation[k][b]
            frontier >>= 8
            k += 1
        around &= ~blocked & ~reached
        if cost == 0 and start_bit & zoc:
            around &= ~zoc  # 4.5: never directly from one enemy-adjacent hex to another
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
    dilation: tuple[tuple[int, ...], ...],
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
