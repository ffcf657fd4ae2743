"""The page's colours, in one place so that the tables, the drawn sentences and the pictures agree: the outcomes
of the scenario table, the entity types of the drawings, the schemes of the per-type chart, the heatmap's
palettes and the verdicts of a comparison.
"""

from __future__ import annotations

from .scoring import A_BETTER, B_BETTER, UNDECIDED

# The scenario table's outcome cells.
OUTCOME_COLOURS = {
    "COR": "#c8ecd0",
    "INC": "#f8c9cc",
    "PAR": "#ffe7a3",
    "MIS": "#dcdde1",
    "SPU": "#d9d4f7",
}

# The entities of a drawn sentence or document, by type (in turn, the most frequent type first).
TYPE_COLOURS = ("#bfe0ff", "#ffd8a8", "#c9f0c4", "#f4c6e6", "#fff0a0", "#d5ccff", "#b8ece6", "#f9cfc0")


def type_colours(entity_types: list[str]) -> dict[str, str]:
    """Each entity type's colour: `TYPE_COLOURS` in turn, in the order of `entity_types`."""
    return {entity_type: TYPE_COLOURS[i % len(TYPE_COLOURS)] for i, entity_type in enumerate(entity_types)}


# The per-type chart, lenient to strict, one colour each (viridis: in order of lightness, and told apart by
# colour-blind readers).
SCHEME_CHART_COLOURS = {"type": "#b5de2b", "partial": "#35b779", "exact": "#31688e", "strict": "#440154"}

# The heatmap's palettes (matplotlib colour maps).
SAME_TYPE_COLOURS = "Greens"  # the diagonal of the heatmap
ERROR_COLOURS = "OrRd"  # other type, missed, spurious
FOLDED_COLOURS = "Greys"  # "other" against "other": same-type and cross-type pairs of the folded types

# A comparison's verdicts: the points of the difference picture, and the tint of the table's cells and of the
# picture's halves.
DIFFERENCE_COLOURS = {B_BETTER: "#1d4ed8", A_BETTER: "#c2410c", UNDECIDED: "#9ca3af"}
DIFFERENCE_CELL_COLOURS = {B_BETTER: "#dbeafe", A_BETTER: "#fde4d3"}
