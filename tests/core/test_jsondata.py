"""Plain bounded JSON: finite numbers, bounded nesting, one-line errors."""

from __future__ import annotations

import pytest

from fof_env.core import jsondata


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"a": NaN}', "NaN is not a number JSON allows"),
        ('{"a": Infinity}', "Infinity is not a number JSON allows"),
        ('{"a": -Infinity}', "-Infinity is not a number JSON allows"),
        ('{"a": 1e999}', "too large"),
        ('{"a": ' + "9" * 5000 + "}", "digits"),
        ("[" * 70 + "]" * 70, "nested more than 64 levels"),
        ("[" * 100000 + "]" * 100000, "nested more than 64 levels"),
        ("{", "Expecting property name"),
        (b"\"\x80\"", "UTF-8"),
    ],
)
def test_bad_json_is_one_line(text, words):
    with pytest.raises(jsondata.BadJSON, match=words) as err:
        jsondata.loads(text)
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


def test_plain_json_reads_as_json():
    assert jsondata.loads('{"a": [1, 2.5, "x", null, true]}') == {"a": [1, 2.5, "x", None, True]}
    assert jsondata.loads("[" * 64 + "]" * 64, max_depth=64)
    assert jsondata.problem({"a": [float("nan")]}) == "the number nan is not finite"
    assert jsondata.problem([[[1]]], max_depth=2) == "nested more than 2 levels"
    assert jsondata.problem({"a": [1.5, {"b": 10**400}]}) is None
