"""Errors raised by every rules engine."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not in the current decision's legal set.

    The state is unchanged when this is raised. The message names the decision and
    lists the legal actions (as canonical strings) so a human or a log can act on it.
    """

    def __init__(self, action: object, decision: str, legal: list[str]):
        self.action = action
        self.decision = decision
        self.legal = legal
        shown = ", ".join(legal[:40]) + (" ..." if len(legal) > 40 else "")
        super().__init__(f"illegal action {action!r} for decision {decision!r}; legal: [{shown}]")


class PositionError(ValueError):
    """A malformed or impossible position dictionary or game record."""


class OptionError(ValueError):
    """An unknown game name or option, or an option value out of range."""
