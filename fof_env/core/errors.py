"""Errors raised by every rules engine.

Every error here is a ``ValueError`` carrying one clear line, and pickles with its
message intact (so it survives a worker process or a vector env's subprocess).
"""

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

    def __reduce__(self):
        return (type(self), (self.action, self.decision, self.legal))


class PositionError(ValueError):
    """A malformed or impossible position dictionary or game record."""


class OptionError(ValueError):
    """An unknown game name or option, or an option value out of range."""


class UnknownOptionError(OptionError, TypeError):
    """Keyword arguments a game does not take.

    Also a ``TypeError`` worded like Python's own (``got an unexpected keyword argument
    'x'``): libraries that probe which keywords an env accepts catch exactly that.
    """

    def __init__(self, owner: str, unknown: list[str], known: str):
        self.owner, self.unknown, self.known = owner, list(unknown), known
        python = f"{owner}() got an unexpected keyword argument {self.unknown[0]!r}"
        super().__init__(f"unknown option(s) {self.unknown} for {owner} ({python}); options: {known}")

    def __reduce__(self):
        return (type(self), (self.owner, self.unknown, self.known))
