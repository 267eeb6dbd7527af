"""docs/rules/<ruleset>.md lists every seed passage the ruleset's tests quote, and is current."""

import pytest

from evaluation import rule_index


@pytest.mark.parametrize("ruleset", ["strike_force_one", "force_on_force", "fubar"])
def test_the_written_index_is_current(ruleset):
    written = rule_index.output_path(ruleset).read_text(encoding="utf-8")
    assert written == rule_index.markdown(ruleset), f"run: python -m evaluation.rule_index {ruleset} --write"


def test_a_quotation_is_read_with_its_seed_and_inch_marks_inside(tmp_path, monkeypatch):
    tests = tmp_path / "tests" / "toy"
    tests.mkdir(parents=True)
    (tests / "test_toy.py").write_text(
        'def test_a():\n    """000_294bccfd88f0ebda.txt: "within 1\\" of the unit" and "short"; then\n'
        '    003_b1b2d2a6d4b3bab2.txt: "Units may make a Rapid move and then fire"; and by number,\n'
        '    003: "the 10D cap"."""\n\n'
        "def helper():\n"
        '    """000_294bccfd88f0ebda.txt: "not a test, not listed here"."""\n'
    )
    monkeypatch.setattr(rule_index, "ROOT", tmp_path)
    assert rule_index.quotations("toy") == {
        "000_294bccfd88f0ebda.txt": {'within 1" of the unit': ["test_toy.py::test_a"]},
        "003_b1b2d2a6d4b3bab2.txt": {"Units may make a Rapid move and then fire": ["test_toy.py::test_a"],
                                     "the 10D cap": ["test_toy.py::test_a"]},
    }
