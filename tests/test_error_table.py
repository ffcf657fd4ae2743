"""The errors' table of integer codes (`nerscore.error_table`): read as the dict of its keys, added as counts add
(texts and types of two batches given one code each), pickled as that dict, and ranked into the `errors` rows in
the documented order, against a plain sort of the dict."""

from __future__ import annotations

import pickle
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_tally import _reference_order

from nerscore.error_table import ErrorTable, added_errors, error_rows, ranked_ids

TEXTS = (None, "", "a", "a b", "b", "Ä")
TYPES = (None, "LOC", "PER")
keys = st.tuples(
    st.sampled_from(("I", "II", "III", "IV", "V", "VI")), *(st.sampled_from(TEXTS), st.sampled_from(TYPES)) * 2
)
errors = st.dictionaries(keys, st.integers(1, 5), max_size=12)


RANKED = {
    "none": ([], [], []),
    "repeats, None left out, in string order": (["b", None, "a", "b", None], ["a", "b"], [1, -1, 0, 1, -1]),
    "only None": ([None, None], [], [-1, -1]),
    "code points, not letters": (["a", "B", "Ä", "a "], ["B", "a", "a ", "Ä"], [1, 0, 3, 2]),
}


@pytest.mark.parametrize(("values", "names", "ids"), RANKED.values(), ids=RANKED.keys())
def test_ranked_ids(values: list, names: list, ids: list) -> None:
    found, codes = ranked_ids(values)
    assert (found, codes.tolist()) == (names, ids)


@settings(max_examples=100, deadline=None)
@given(errors, errors, st.integers(0, 4))
def test_tables_read_add_and_rank_as_their_dicts(a: dict, b: dict, limit: int) -> None:
    table_a, table_b = ErrorTable.of(a), ErrorTable.of(b)
    assert table_a == a and dict(table_a) == a and len(table_a) == len(a)
    summed = dict(Counter(a) + Counter(b))
    assert table_a + table_b == summed
    assert added_errors(a, table_b) == summed and added_errors(None, table_b) is table_b
    assert pickle.loads(pickle.dumps(table_a)) == a
    expected = _reference_order(summed)
    assert [tuple(row.values()) for row in (table_a + table_b).rows()] == expected
    assert [tuple(row.values()) for row in error_rows(summed, limit)] == expected[:limit]


def test_counted_merges_equal_rows_whose_texts_have_two_codes() -> None:
    # Two batches' tables joined: "a" is text 0 of one and text 1 of the other, one error in the end.
    codes = np.array([[2, 0, 0, -1, -1], [2, 1, 0, -1, -1], [1, -1, -1, 2, 1]])
    table = ErrorTable.counted(codes, ["a", "a", "b"], ["PER", "LOC"], np.array([2, 3, 1]))
    assert table == {("III", "a", "PER", None, None): 5, ("II", None, None, "b", "LOC"): 1}
    assert table.texts == ["a", "b"] and len(table) == 2
