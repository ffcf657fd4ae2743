"""nerscore.pairing.assignment: `connected` groups edges by component, and `union_find` holds on a long chain and a
star."""

from __future__ import annotations

import pytest

from nerscore.pairing.assignment import connected, union_find

UNION_CASES = [
    pytest.param([], [], id="empty"),
    pytest.param([(0, 0)], [[(0, 0)]], id="one-edge"),
    pytest.param([(0, 0), (1, 1)], [[(0, 0)], [(1, 1)]], id="two-apart"),
    pytest.param([(0, 0), (1, 0), (1, 1), (2, 1)], [[(0, 0), (1, 0), (1, 1), (2, 1)]], id="chain"),
    pytest.param([(5, 3), (0, 0), (5, 0), (2, 2)], [[(5, 3), (0, 0), (5, 0)], [(2, 2)]], id="out-of-order"),
]


@pytest.mark.parametrize(("edges", "groups"), UNION_CASES)
def test_connected_groups_edges_by_component(edges, groups) -> None:
    assert connected(edges) == groups


def test_union_find_on_a_long_chain_and_a_star() -> None:
    # One entity around a whole document (a star) and a staircase (a path) are one component each.
    chain = [(i, j) for i in range(50_000) for j in (i, i + 1)]
    star = [(0, j) for j in range(50_000)]
    for edges in (chain, star):
        assert len(set(union_find(edges))) == 1
