"""The page's pictures, drawn with matplotlib's object-oriented API: the confusion heatmap, the per-type F1 chart
and the F1 of the slices (entity and sentence length) of one system, and each scheme's F1 difference with its
interval when two are compared. Each is a function of the numbers it draws (the data of a `pictures.Picture`,
computed here from the scores: `confusion_data`, `type_scores`, `difference_data`) to a figure of its own
(`pictures.new_figure`, on an Agg canvas: events draw in several threads at once); `pictures` says how the page's
events encode them and keep the last ones drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from . import caps, colours, pictures, writing
from .scoring import A_BETTER, B_BETTER, COMPARE_SCHEMES, SCHEME_COLUMNS, UNDECIDED, Evaluation, verdict

OTHER = "other"
OUTSIDE = "O"


def _label(entity_type: str, limit: int | None = None) -> str:
    """A type name as an axis writes it: at most `limit` characters (`caps.MAX_LABEL_CHARACTERS` unless given)."""
    return writing.shorten(entity_type, caps.MAX_LABEL_CHARACTERS if limit is None else limit)


@dataclass(frozen=True)
class Confusion:
    """The heatmap's numbers. Rows (reference) and columns (predicted) are alike: the `types` shown, the most
    frequent first; then `OTHER` when `folded` types did not fit; then `OUTSIDE`, no entity (docs/scoring.md §7).
    `counts[row][column]`; `folded_same_type` of the other-against-other pairs are of one type."""

    types: list[str]
    counts: list[list[int]]
    folded: int
    folded_same_type: int

    @property
    def labels(self) -> list[str]:
        # A type may be called O (tag B-O); then no entity is named otherwise.
        outside = OUTSIDE if OUTSIDE not in self.types else "no entity"
        return [*self.types, *([OTHER] if self.folded else []), outside]

    def as_dict(self) -> dict[str, dict[str, int]]:
        """``matrix[reference][predicted]`` as `nerscore.confusion_matrix` gives it."""
        return {row: dict(zip(self.labels, counts)) for row, counts in zip(self.labels, self.counts)}


def confusion_data(evaluation: Evaluation, limit: int | None = None) -> Confusion:
    """The confusion matrix of the evaluation's tally over its `limit` most frequent types (`caps.MAX_HEATMAP_TYPES`),
    every other type folded into `OTHER`: with nothing folded, `nerscore.confusion_matrix` in the page's
    order. Counted from the tally's cells, so its cost does not grow with the square of the number of types."""
    types = evaluation.entity_types[: caps.MAX_HEATMAP_TYPES if limit is None else limit]
    folded = len(evaluation.entity_types) - len(types)
    index: dict[str | None, int] = {entity_type: number for number, entity_type in enumerate(types)}
    other = len(types)  # the row and column of OTHER when types are folded
    index[None] = other + (1 if folded else 0)
    size = index[None] + 1
    counts = [[0] * size for _ in range(size)]
    folded_same_type = 0
    for (_, reference_type, predicted_type), number in evaluation.tally.cells.items():
        row, column = index.get(reference_type, other), index.get(predicted_type, other)
        counts[row][column] += number
        if row == column == other and folded and reference_type == predicted_type:
            folded_same_type += number
    return Confusion(list(types), counts, folded, folded_same_type)


def heatmap_figure(confusion: Confusion) -> Figure:
    """The confusion matrix as a heatmap: each cell's count written in it, same-type cells green and outlined,
    errors (another type, missed in the O column, spurious in the O row) orange to red on a log scale, zeros
    white. At most about 6.5 inches wide, so that it sits beside the chart on a laptop's page unscaled."""
    names = [_label(entity_type, caps.MAX_HEATMAP_LABEL_CHARACTERS) for entity_type in confusion.types]
    names += [*([f"{OTHER} ({confusion.folded:,})"] if confusion.folded else []), confusion.labels[-1]]
    size = len(names)
    named = len(confusion.types)
    cell = max(0.34, min(0.85, 4.6 / size))  # inches
    label_font = 9 if size <= 8 else 8
    figure = pictures.new_figure(1, 1)  # sized below, once the labels are measured
    axes = figure.add_subplot()
    axes.set_yticks(range(size), labels=names, fontfamily=pictures.FONT_FAMILY, fontsize=label_font)
    renderer = figure.canvas.get_renderer()
    widths = [label.get_window_extent(renderer).width / pictures.FIGURE_DPI for label in axes.get_yticklabels()]
    # The column labels are turned when two neighbours would not fit side by side under their cells.
    rotate = any((left + right) / 2 + 0.1 > cell for left, right in pairwise(widths))
    below = max(widths) * 0.6 + 0.25 if rotate else 0.25
    lines = 1 + (2 if confusion.folded else 0)
    figure.set_size_inches(max(4.6, cell * size + max(widths) + 0.7), cell * size + below + 0.2 * lines + 1.25)
    largest = max(max(row) for row in confusion.counts) or 1
    cells = []
    for row, counts in enumerate(confusion.counts):
        cells.append([])
        for column, count in enumerate(counts):
            text = "—" if row == column == size - 1 else f"{count:,}"  # O against O: nothing to count
            # As large as fits the cell: 10 points in a large cell, smaller for a long count in a small one.
            font = min(10 if size <= 6 else 8.5, cell * 72 * 0.86 / (0.64 * len(text)))
            if row == column == size - 1:
                cells[-1].append((0.96, 0.96, 0.96, 1.0))
                axes.text(column, row, text, ha="center", va="center", color="#9ca3af", fontsize=font)
                continue
            same_type = row == column < named
            palette = (
                colours.SAME_TYPE_COLOURS
                if same_type
                else colours.FOLDED_COLOURS
                if row == column
                else colours.ERROR_COLOURS
            )
            # On a log scale, so that 1 and 40 errors differ as well as 40 and 1,000.
            strength = 0.18 + (0.4 if row == column >= named else 0.67) * math.log1p(count) / math.log1p(largest)
            if count:
                cells[-1].append(pictures.shade(palette, strength))
            else:  # a same-type cell is tinted even at zero, so that the diagonal reads as one at a glance
                cells[-1].append(pictures.shade(palette, 0.08) if same_type else (1.0, 1.0, 1.0, 1.0))
            axes.text(
                column,
                row,
                text,
                ha="center",
                va="center",
                fontsize=font,
                fontweight="bold" if count else "normal",
                color="#9ca3af" if not count else "white" if strength > 0.55 else "#111111",
            )
    axes.imshow(cells, aspect="equal")
    for diagonal in range(named):  # same type: outlined as well as green, for readers who do not tell the colours
        inset = 0.42
        axes.add_patch(
            Rectangle(
                (diagonal - inset, diagonal - inset), 2 * inset, 2 * inset, fill=False, edgecolor="#15803d", linewidth=1
            )
        )
    axes.set_xticks(
        range(size),
        labels=names,
        rotation=35 if rotate else 0,
        ha="right" if rotate else "center",
        rotation_mode="anchor",
        fontfamily=pictures.FONT_FAMILY,
        fontsize=label_font,
    )
    axes.set_xticks([position + 0.5 for position in range(size - 1)], minor=True)
    axes.set_yticks([position + 0.5 for position in range(size - 1)], minor=True)
    axes.grid(which="minor", color="white", linewidth=1.5)
    axes.tick_params(which="both", length=0)
    for spine in axes.spines.values():
        spine.set_visible(False)
    axes.set_xlabel("predicted type", fontsize=9)
    axes.set_ylabel("reference type", fontsize=9)
    title = "Confusion of entity types"
    if confusion.folded:
        title += (
            f"\nthe {named:,} most frequent types; other folds the remaining {confusion.folded:,}\n"
            f"({confusion.folded_same_type:,} of the {confusion.counts[named][named]:,} other/other pairs are "
            "of one type)"
        )
    axes.set_title(title, loc="left", fontsize=9)
    handles = [
        Patch(facecolor=pictures.shade(colours.SAME_TYPE_COLOURS, 0.6), edgecolor="#15803d", label="same type"),
        Patch(
            facecolor=pictures.shade(colours.ERROR_COLOURS, 0.6),
            label="other type, missed (O column) or spurious (O row)",
        ),
    ]
    if confusion.folded:
        handles.append(Patch(facecolor=pictures.shade(colours.FOLDED_COLOURS, 0.4), label="within other"))
    figure.legend(handles=handles, loc="outside lower left", fontsize=8, frameon=False)
    return figure


@dataclass(frozen=True)
class TypeScores:
    """The chart's numbers: F1 of each shown type under each scheme, with its reference (support) and predicted
    entities, and how many types there are in all."""

    types: list[str]
    f1: dict[str, list[float]]
    support: list[int]
    predicted: list[int]
    all_types: int


def type_scores(evaluation: Evaluation, limit: int | None = None) -> TypeScores:
    """Per-type F1 from the metric's keys, for the `limit` most frequent types (`caps.MAX_CHART_TYPES`; the metric
    computed per-type keys for the shown types only, `caps.MAX_SHOWN_TYPES`)."""
    types = evaluation.shown_types[: caps.MAX_CHART_TYPES if limit is None else limit]
    results = evaluation.results
    return TypeScores(
        list(types),
        {scheme: [results[f"{t}_{scheme}_f1"] for t in types] for scheme in SCHEME_COLUMNS},
        [results[f"{t}_strict_possible"] for t in types],
        [results[f"{t}_strict_actual"] for t in types],
        len(evaluation.entity_types),
    )


def type_chart_figure(scores: TypeScores) -> Figure:
    """F1 of each type as four bars side by side, lenient (type) to strict, each with its value: type above
    strict means right type, wrong boundaries; exact above strict, right boundaries, wrong type."""
    count = len(scores.types)
    bar = 0.2
    figure = pictures.new_figure(6.2, max(2.9, (0.68 if count <= 6 else 0.46) * count + 1.9))
    axes = figure.add_subplot()
    small = 7 if count <= 6 else 6
    for offset, scheme in enumerate(SCHEME_COLUMNS):
        positions = [number + (offset - 1.5) * bar for number in range(count)]
        values = scores.f1[scheme]
        axes.barh(positions, values, height=bar * 0.92, color=colours.SCHEME_CHART_COLOURS[scheme], label=scheme)
        for position, value in zip(positions, values):
            axes.text(value + 0.01, position, f"{value:.2f}", va="center", fontsize=small, color="#374151")
    axes.set_yticks(
        range(count),
        labels=[
            f"{_label(entity_type)}\n{support:,} ref, {predicted:,} pred"
            for entity_type, support, predicted in zip(scores.types, scores.support, scores.predicted)
        ],
        fontfamily=pictures.FONT_FAMILY,
        fontsize=8.5,
    )
    axes.set_ylim(count - 0.5, -0.5)
    _f1_axis(axes, "x", 1.1, 9.5)
    title = "F1 per entity type, lenient (type) to strict"
    if scores.all_types > count:
        title += f"\nthe {count:,} most frequent of {scores.all_types:,} types"
    axes.set_title(title, loc="left", fontsize=9.5)
    figure.legend(loc="outside lower center", ncols=4, fontsize=8, frameon=False)
    return figure


def _f1_axis(axes: Any, axis: str, top: float, label_size: float) -> None:
    """The F1 axis (`axis`, "x" or "y") of a chart of bars: from 0 to `top` (room for the bars' labels), ticks at
    quarters, a light grid behind the bars; the other axis without tick marks, no frame at the top and right."""
    ticks = [0, 0.25, 0.5, 0.75, 1.0]
    if axis == "x":
        axes.set_xlim(0, top)
        axes.set_xticks(ticks)
    else:
        axes.set_ylim(0, top)
        axes.set_yticks(ticks)
    axes.tick_params(axis=axis, labelsize=8)
    axes.tick_params(axis="y" if axis == "x" else "x", length=0)
    axes.grid(axis=axis, color="#e5e7eb")
    axes.set_axisbelow(True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    (axes.set_xlabel if axis == "x" else axes.set_ylabel)("F1", fontsize=label_size)


def slices_figure(slices: dict[str, dict[str, dict[str, Any]]]) -> Figure | None:
    """F1 per bucket of entity length and of sentence length (docs/scoring.md §11), four bars a bucket, lenient
    (type) to strict, one panel a slice, with each bucket's reference and predicted entities under its name; at
    most `caps.MAX_SLICE_BUCKETS` buckets a panel. None when no slice has a bucket."""
    panels = [(name, buckets) for name, buckets in slices.items() if buckets]
    if not panels:
        return None
    figure = pictures.new_figure(6.4, 2.7 * len(panels) + 0.6)
    bar = 0.2
    titles = {"entity_length": "by entity length (tokens)", "sentence_length": "by sentence length (tokens)"}
    for index, (name, buckets) in enumerate(panels):
        axes = figure.add_subplot(len(panels), 1, index + 1)
        names = list(buckets)[: caps.MAX_SLICE_BUCKETS]
        for offset, scheme in enumerate(SCHEME_COLUMNS):
            positions = [number + (offset - 1.5) * bar for number in range(len(names))]
            values = [buckets[bucket][f"{scheme}_f1"] for bucket in names]
            colour = colours.SCHEME_CHART_COLOURS[scheme]
            # Outlined in its own colour, so that a bar of F1 0 is still a line on the axis, and labelled with its
            # value as the per-type chart's bars are: a bucket where a scheme scores nothing reads 0.00, not blank.
            axes.bar(
                positions,
                values,
                width=bar * 0.92,
                color=colour,
                edgecolor=colour,
                linewidth=1.2,
                label=scheme if index == 0 else None,
            )
            for position, value in zip(positions, values):
                axes.text(
                    position,
                    value + 0.02,
                    f"{value:.2f}",
                    ha="center",
                    va="bottom",
                    rotation=90,
                    fontsize=6,
                    color="#374151",
                )
        axes.set_xticks(
            range(len(names)),
            labels=[
                f"{bucket}\n{buckets[bucket]['strict_possible']:,} ref, {buckets[bucket]['strict_actual']:,} pred"
                for bucket in names
            ],
            fontsize=7.5,
        )
        _f1_axis(axes, "y", 1.22, 9)
        title = f"F1 {titles.get(name, name)}, lenient (type) to strict"
        if len(buckets) > len(names):
            title += f": the first {len(names)} of {len(buckets)} buckets"
        axes.set_title(title, loc="left", fontsize=9.5)
    figure.legend(loc="outside lower center", ncols=4, fontsize=8, frameon=False)
    return figure


def difference_data(results: dict[str, float]) -> dict[str, float]:
    """The keys of a comparison's result that `difference_figure` draws: each scheme's F1 difference, its interval
    and its p-value."""
    keys = ("f1_delta", "f1_delta_low", "f1_delta_high", "f1_p_value")
    return {f"{scheme}_{key}": results[f"{scheme}_{key}"] for scheme in COMPARE_SCHEMES for key in keys}


def difference_figure(results: dict[str, float]) -> Figure:
    """Each scheme's F1 difference B - A as a point with its interval, against a line at zero: zero inside the
    interval is a hollow grey point, zero outside a filled blue (B better) or orange (A better) one. The axis is
    centred on zero, A better to the left, B better to the right."""
    figure = pictures.new_figure(6.4, 3.5)
    axes = figure.add_subplot()
    ends = [(results[f"{s}_f1_delta_low"], results[f"{s}_f1_delta_high"]) for s in COMPARE_SCHEMES]
    reach = max(0.02, *(abs(end) for pair in ends for end in pair)) * 1.25
    axes.set_xlim(-reach, reach)
    axes.axvspan(-reach, 0, color=colours.DIFFERENCE_CELL_COLOURS[A_BETTER], alpha=0.35, linewidth=0)
    axes.axvspan(0, reach, color=colours.DIFFERENCE_CELL_COLOURS[B_BETTER], alpha=0.35, linewidth=0)
    axes.axvline(0, color="#111111", linewidth=1.4, zorder=2)
    for row, scheme in enumerate(COMPARE_SCHEMES):
        delta = results[f"{scheme}_f1_delta"]
        low, high = ends[row]
        kind = verdict(low, high)
        colour = colours.DIFFERENCE_COLOURS[kind]
        axes.plot([low, high], [row, row], color=colour, linewidth=2.6, solid_capstyle="butt", zorder=3)
        axes.plot([low, low], [row - 0.13, row + 0.13], color=colour, linewidth=1.6, zorder=3)
        axes.plot([high, high], [row - 0.13, row + 0.13], color=colour, linewidth=1.6, zorder=3)
        axes.plot(
            [delta],
            [row],
            marker="o",
            markersize=8.5,
            markeredgewidth=2,
            markeredgecolor=colour,
            markerfacecolor=colour if kind != UNDECIDED else "white",
            zorder=4,
        )
        p_value = results[f"{scheme}_f1_p_value"]
        # Above the point, kept whole inside the axes (x in axes fractions, y in rows), on white over the line at 0.
        centre = min(max((delta + reach) / (2 * reach), 0.24), 0.76)
        axes.text(
            centre,
            row - 0.2,
            f"{delta:+.4f} ({low:+.4f} to {high:+.4f}), p = {writing.format_p_value(p_value)}",
            transform=axes.get_yaxis_transform(),
            ha="center",
            va="bottom",
            fontsize=8,
            color="#111111",
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.9, "pad": 1.5},
            zorder=5,
        )
    axes.set_yticks(range(len(COMPARE_SCHEMES)), labels=COMPARE_SCHEMES, fontsize=9.5)
    axes.set_ylim(len(COMPARE_SCHEMES) - 0.5, -0.75)
    axes.tick_params(axis="y", length=0)
    axes.tick_params(axis="x", labelsize=8)
    for side in ("top", "right", "left"):
        axes.spines[side].set_visible(False)
    axes.text(0.01, 0.985, "← A better", transform=axes.transAxes, ha="left", va="top", fontsize=8.5, color="#9a3412")
    axes.text(0.99, 0.985, "B better →", transform=axes.transAxes, ha="right", va="top", fontsize=8.5, color="#1e3a8a")
    axes.set_xlabel("F1 of B − A", fontsize=9.5)
    axes.set_title(
        f"F1 difference B − A per scheme, with its {caps.COMPARE_CONFIDENCE_LEVEL:.0%} interval",
        loc="left",
        fontsize=9.5,
    )
    handles = [
        Line2D(
            [], [], color=colours.DIFFERENCE_COLOURS[B_BETTER], marker="o", linewidth=2.6, label="B better: 0 outside"
        ),
        Line2D(
            [], [], color=colours.DIFFERENCE_COLOURS[A_BETTER], marker="o", linewidth=2.6, label="A better: 0 outside"
        ),
        Line2D(
            [],
            [],
            color=colours.DIFFERENCE_COLOURS[UNDECIDED],
            marker="o",
            markerfacecolor="white",
            markeredgewidth=2,
            linewidth=2.6,
            label="0 inside: no clear difference",
        ),
    ]
    figure.legend(handles=handles, loc="outside lower center", ncols=3, fontsize=8, frameon=False)
    return figure
