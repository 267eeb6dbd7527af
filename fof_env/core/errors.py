"""Errors raised by every rules engine.

Every error here is a ``ValueError`` carrying one clear line. Each also survives the ways
libraries move errors between processes or re-raise them: it pickles with its message, and
it can be rebuilt from one argument, its message or another error of its kind
(``gymnasium.vector.AsyncVectorEnv`` raises ``exctype(value)`` in the main process;
``gymnasium.make`` re-raises ``type(e)(f"{e} was raised from ...")``).
"""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not in the current decision's legal set.

    The state is unchanged when this is raised. The message names the decision and
    lists the legal actions (as canonical strings) so a human or a log can act on it.
    ``IllegalActionError(action, decision, legal)``, or with one argument: another
    ``IllegalActionError`` (copied) or a message (kept as it is).
    """

    def __init__(self, action: object, decision: str | None = None, legal: list[str] | None = None):
        if decision is None and legal is None:
            if isinstance(action, IllegalActionError):
                action, decision, legal = action.action, action.decision, action.legal
            else:
                self.action, self.decision, self.legal = None, "", []
                super().__init__(str(action))
                return
        self.action = action
        self.decision = decision or ""
        self.legal = list(legal or [])
        shown = ", ".join(self.legal[:40]) + (" ..." if len(self.legal) > 40 else "")
        super().__init__(f"illegal action {action!r} for decision {self.decision!r}; legal: [{shown}]")

    def __reduce__(self):
        if self.action is None and not self.legal:
            return (type(self), (str(self),))
        return (type(self), (self.action, self.decision, self.legal))


class PositionError(ValueError):
    """A malformed or impossible position dictionary or game record."""


class OptionError(ValueError):
    """An unknown game name or option, or an option value out of range."""


class UnknownOptionError(OptionError, TypeError):
    """Keyword arguments a game or env does not take.

    Also a ``TypeError`` worded like Python's own (``got an unexpected keyword argument
    'x'``): libraries that probe which keywords an env accepts catch exactly that.
    ``UnknownOptionError(owner, unknown, known)``, or with one argument (a message or an
    error), whose text is kept.
    """

    def __init__(self, owner: object, unknown: list[str] | None = None, known: str | None = None):
        if unknown is None or known is None:
            self.owner, self.unknown, self.known = "", [], ""
            super().__init__(str(owner))
            return
        self.owner, self.unknown, self.known = str(owner), list(unknown), known
        python = f"{self.owner}() got an unexpected keyword argument {self.unknown[0]!r}"
        super().__init__(f"unknown option(s) {self.unknown} for {self.owner} ({python}); options: {known}")

    def __reduce__(self):
        if not self.unknown:
            return (type(self), (str(self),))
        return (type(self), (self.owner, self.unknown, self.known))


class ScenarioError(OptionError):
    """A scenario file (or dict) that cannot be played: one line naming the file, the field path
    and what is allowed. An :class:`OptionError`, as the scenario is the ``scenario`` option of
    a scenario engine's ``make_game(name, scenario=...)``: every front end that reports bad options reports it."""
