"""Seeds a client can not work out: the client's seed mixed with the server's own randomness.

Where a bot holds a seat, the game's dice are seeded with :func:`mixed_seed` of the client's seed
(or None) and a fresh :func:`server_entropy`, and each bot's seed is :func:`agent_seed` of the same
two; so neither the dice nor the bots' choices follow from anything the client sent. The entropy
stays on the server until the game is over; the record of a finished game reveals it (its
``session.seed`` block), and since the record also holds every roll, the game replays exactly.
"""

from __future__ import annotations

import hashlib
import secrets

ENTROPY_BYTES = 16


def server_entropy() -> str:
    """Fresh randomness from the operating system (``secrets``), as hex."""
    return secrets.token_hex(ENTROPY_BYTES)


def _hash64(*parts: object) -> int:
    text = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def mixed_seed(client_seed: int | None, entropy: str) -> int:
    """The dice seed (0..2**64-1) of a game whose client chose ``client_seed``, with ``entropy``."""
    return _hash64("fof-dice-seed/1", client_seed, entropy)


def agent_seed(client_seed: int | None, entropy: str, player: int) -> int:
    """The seed (0..2**63-1) of the bot playing ``player``, independent of the dice seed."""
    return _hash64("fof-agent-seed/1", player, client_seed, entropy) >> 1
