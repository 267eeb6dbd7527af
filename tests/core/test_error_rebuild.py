"""The project's errors survive what libraries do to them: pickling, and ``type(e)(e)`` /
``type(e)(message)`` (``AsyncVectorEnv`` and ``gymnasium.make`` rebuild them so)."""

from __future__ import annotations

import pickle

import pytest

from fof_env.core.errors import IllegalActionError, OptionError, UnknownOptionError
from fof_env.envs.gym_env import LearnerIllegalActionError, WargameEnv


@pytest.mark.parametrize("cls", [IllegalActionError, LearnerIllegalActionError])
def test_illegal_action_errors_rebuild_from_one_argument(cls):
    err = cls(5, "select_unit (learner soviet to decide)", ["68=sov.A", "78=pass"])
    assert isinstance(err, IllegalActionError) and isinstance(err, ValueError)
    for again in (pickle.loads(pickle.dumps(err)), cls(err)):
        assert type(again) is cls and str(again) == str(err)
        assert (again.action, again.decision, again.legal) == (5, err.decision, err.legal)
    from_text = cls("some message")
    assert str(from_text) == "some message" and from_text.legal == []
    assert str(pickle.loads(pickle.dumps(from_text))) == "some message"


def test_unknown_option_error_rebuilds_from_one_argument():
    with pytest.raises(UnknownOptionError) as caught:
        WargameEnv("strike_force_one", frameskip=4)
    err = caught.value
    assert isinstance(err, OptionError) and isinstance(err, TypeError)
    assert "WargameEnv() got an unexpected keyword argument 'frameskip'" in str(err)
    rebuilt = type(err)(f"{err} was raised from the environment creator")  # what gymnasium.make does
    assert str(rebuilt).startswith(str(err)) and isinstance(rebuilt, TypeError)
    for again in (pickle.loads(pickle.dumps(err)), pickle.loads(pickle.dumps(rebuilt)), type(err)(err)):
        assert type(again) is UnknownOptionError and "unexpected keyword argument 'frameskip'" in str(again)
    assert pickle.loads(pickle.dumps(err)).unknown == ["frameskip"]
