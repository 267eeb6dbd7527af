"""Reward shaping for ``reward="shaped"``: potential based, with each ruleset's potential.

Shaping is *potential based* (Ng, Harada & Russell 1999): after every learner
step the reward is ``win_reward + phi(s') - phi(s)``, where ``s`` is the state
at the learner's previous decision and ``s'`` the state now (after the
opponent's replies). ``win_reward`` is +1 / -1 / 0 at the end of the game, as
for ``reward="win"``. The shaping terms telescope: over a whole episode they add
up to exactly ``phi(final) - phi(start)``, so they can never outweigh the
result and do not change which policies are optimal (undiscounted).

``phi(state, player)`` is the game's ``potential`` hook (:func:`fof_env.envs.support.potential_fn`, from its ruleset:
:class:`fof_env.core.ruleset.Ruleset`); each ruleset documents its formula beside it (the
``potential`` module of its package) and keeps ``|phi|`` small enough that the whole-episode shaping
stays below the +/-1 of the result. A game without a potential offers only ``reward="win"``.
"""
