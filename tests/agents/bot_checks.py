"""Checks every bot test shares."""

from __future__ import annotations


def act_without_touching(bot, state) -> int:
    """``bot.act(state)``, asserting the action is legal and the state (position, history, legal
    list and dice) is exactly as before: a bot never rolls, applies or edits anything."""
    legal = state.legal_actions()
    before = state.fingerprint()  # every position field, the history and the dice state
    action = bot.act(state)
    assert action in legal, (state.decision, action, legal)
    assert state.legal_actions() == legal
    assert state.fingerprint() == before
    return action
