"""Game links: the tokens that let a second connection into a game (a friend's seat, a spectator).

A link is an unguessable token (``secrets.token_urlsafe``, 192 bits) naming one game and what it
opens there: ``"seat"`` (the friend's side, once: the link is used up when a connection takes the
seat) or ``"watch"`` (the spectator's view, for any number of connections). Only each token's
SHA-256 is kept, so the tokens themselves exist only in the replies that handed them out. A token
that is wrong, used up, of a game that is gone, or of a seat another connection holds reads the
same: :meth:`Links.find` returns None for each, and the engine answers them in the same words.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from dataclasses import dataclass

SEAT = "seat"
WATCH = "watch"


@dataclass(frozen=True)
class Link:
    game: str  # the game's id
    kind: str  # SEAT or WATCH
    side: int | None  # the seat's side (None for WATCH)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Links:
    """The links of one engine (thread-safe)."""

    def __init__(self):
        self._links: dict[str, Link] = {}
        self._lock = threading.Lock()

    def make(self, game: str, kind: str, side: int | None = None) -> str:
        """A new token for ``kind`` in ``game`` (a seat: its ``side``)."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._links[_hash(token)] = Link(game, kind, side)
        return token

    def find(self, token: str) -> Link | None:
        """The link ``token`` opens, or None."""
        with self._lock:
            return self._links.get(_hash(token))

    def use(self, token: str) -> None:
        """Use up ``token`` (a seat's: it fills its seat once)."""
        with self._lock:
            self._links.pop(_hash(token), None)

    def drop_game(self, game: str) -> None:
        """Forget every link of ``game`` (it is gone)."""
        with self._lock:
            for key in [k for k, link in self._links.items() if link.game == game]:
                del self._links[key]

    def __len__(self) -> int:
        return len(self._links)
