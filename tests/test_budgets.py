"""The suite's budget table (``tests/budgets.py``) names what exists and is read one way."""

from __future__ import annotations

import pytest

from attnfuzz.properties import backend, checks, implementations
from tests import budgets


@pytest.mark.parametrize("prop, impl", sorted(budgets.BUDGETS))
def test_a_budget_row_is_a_property_of_its_implementation(prop, impl):
    """A row names a registered property of the implementation's op (a test may
    run one that a campaign does not, as the Hopper kernel's agreement)."""
    row = budgets.budget(prop, impl)
    assert implementations.get(impl).op in checks.get(prop).ops, (
        f"{prop} is no property of {impl}'s op: its budget row budgets no test")
    assert row.why.strip(), f"({prop}, {impl}) says not why"
    assert row.share >= 1
    for limit in (row.tiles, row.interpreter_len, row.max_len):
        assert limit is None or limit >= 1


def test_one_test_of_several_implementations_needs_one_count(monkeypatch):
    monkeypatch.setattr(backend, "interpreting", lambda: True)
    assert budgets.examples("oracle", "matmul", "matmul_nt") >= 1
    with pytest.raises(ValueError, match="shares differ"):
        budgets.examples("metamorphic", "flash", "naive")


def test_a_test_without_a_row_names_the_table():
    with pytest.raises(KeyError, match="tests/budgets.py has no budget for .'metamorphic', "
                                       "'softmax'."):
        budgets.max_len("metamorphic", "softmax")


def test_interpreter_limits_apply_only_on_the_interpreter(monkeypatch):
    row = budgets.budget("gradients", "naive")
    monkeypatch.setattr(backend, "interpreting", lambda: False)
    assert budgets.sizes("gradients", "naive") == {}
    monkeypatch.setattr(backend, "interpreting", lambda: True)
    assert budgets.sizes("gradients", "naive") == {"max_seq": row.interpreter_len,
                                                   "max_tiles": row.tiles}
