"""nerscore: SemEval-2013 named-entity scores (strict, exact, partial, type) with the MUC counts behind them.

The scoring of the `ner_semeval` evaluate metric as a plain package that needs numpy (and scipy, imported only to
solve very large components of nested entities, `nerscore.pairing.large_components`, and for Student's t when runs are
compared): `compute_semeval` scores a batch (`Accumulator` a corpus read in batches, chunks or processes),
`compare_semeval` tests whether one system beats another, `summarize_runs` and `compare_runs` do both for several
runs of each system (seeds, say), `agreement` measures how far annotators agree (docs/agreement.md), and
`ner-semeval` (`nerscore.cli`) is the command line. The definition it implements is docs/scoring.md.
Modules, in the order data flows (each imports only those before it; a dotted name is a module of a subpackage,
whose modules stand together): errors, grouping, span, schemes, option_checks, option_flags, options,
decoding,
pairing.assignment, pairing.recent, pairing.staircase, pairing.tight_matchings, pairing.large_components,
pairing.overlaps, pairing.dense_matrix, pairing.dense,
pairing.rules, pairing.value, pairing.value_arrays, pairing.greedy, measures, error_table, tally, stacked_scores,
result_scores, table.columns, table.pairs, table.row_texts, table.slices, table.findings, table.reducers,
forms.inputs, forms.batches, forms.readable, forms.tag_arrays, forms.component_arrays, forms.fragment_reading,
forms.fragment_large, forms.fragment_arrays, forms.span_arrays, forms.staged_grounding,
forms.joint_grounding, forms.grounding, forms.string_arrays,
forms.string_batches, forms.registry, statistics.unit_counts, statistics.sample_statistics, statistics.resampling,
statistics.paired_comparison, statistics.run_statistics, statistics.agreement_coefficients, compute, accumulator,
stored_batches, systems, runs, agreement_inputs, agreement_units, agreement_intervals, agreement, files.readers,
files.annotations, files.tables, files.backtracking, files.perl_patterns, files.conlleval, files.file_counts,
files.hipe_model,
files.hipe_arrays, files.hipe, files.hipe_tags, files.hipe_table, files.reports, files.hipe_report,
files.annotator_readers, files.annotator_exports, files.agreement_files, cli, __main__.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .accumulator import Accumulator, compute_semeval
from .compute import result_dict
from .decoding import decode, encode
from .errors import InvalidInputError
from .forms.grounding import occurrences_looked_at
from .forms.inputs import TYPE_KEYS, as_span, read_spans, side_forms
from .forms.readable import tally_semeval
from .options import EVALUATION_SCHEMES, OPTION_NAMES, Options
from .pairing.greedy import pair_greedy
from .pairing.rules import SCENARIOS, pair, scenario_of
from .result_scores import confusion_matrix, entity_rows, scores
from .schemes import MODES, SCHEMES, Scheme, get_scheme
from .span import Span
from .statistics.unit_counts import SentenceCounts
from .tally import DIAGNOSTIC_KEYS, OUTCOMES, Counts, Tally

# The names of agreement, of the files' readers and tables, of HIPE and of comparing systems and runs: their modules
# load when a name is first used (PEP 562 `__getattr__` below), so that `import nerscore` costs what scoring needs
# (benchmarks/README.md: the start-up rows again); tests/test_house.py lists the modules it must not load.
_LAZY = {
    "agreement": "agreement",
    "AnnotatorBatches": "files.annotator_readers",
    "BratDocument": "files.annotations",
    "ConllError": "files.readers",
    "ConllSentence": "files.readers",
    "HIPE_2020_TYPES": "files.hipe",
    "HIPE_COLUMNS": "files.hipe_table",
    "HipeDocument": "files.hipe",
    "HipeFileError": "files.hipe",
    "LabelStudioTask": "files.annotations",
    "SUMMARY_COLUMNS": "files.tables",
    "SpanDocument": "files.readers",
    "TwoSystemSentence": "files.readers",
    "align_hipe": "files.hipe",
    "compare_runs": "runs",
    "compare_semeval": "systems",
    "file_format": "files.agreement_files",
    "format_comparison": "files.tables",
    "format_confusion_table": "files.tables",
    "format_hipe_table": "files.hipe_table",
    "format_table": "files.tables",
    "format_type_table": "files.tables",
    "hipe_table": "files.hipe_table",
    "read_annotators": "files.agreement_files",
    "read_brat": "files.annotations",
    "read_brat_annotators": "files.annotator_readers",
    "read_brat_pairs": "files.annotations",
    "read_conll": "files.readers",
    "read_conll_annotators": "files.annotator_readers",
    "read_doccano_annotators": "files.annotator_exports",
    "read_hipe": "files.hipe",
    "read_jsonl_annotators": "files.annotator_readers",
    "read_label_studio": "files.annotations",
    "read_label_studio_annotators": "files.annotator_exports",
    "read_span_lines": "files.readers",
    "read_two_systems": "files.readers",
    "summarize_runs": "runs",
    "summary_rows": "files.tables",
}

if TYPE_CHECKING:  # the names above, for type checkers and editors
    from .agreement import agreement
    from .files.agreement_files import file_format, read_annotators
    from .files.annotations import BratDocument, LabelStudioTask, read_brat, read_brat_pairs, read_label_studio
    from .files.annotator_exports import read_doccano_annotators, read_label_studio_annotators
    from .files.annotator_readers import (
        AnnotatorBatches,
        read_brat_annotators,
        read_conll_annotators,
        read_jsonl_annotators,
    )
    from .files.hipe import HIPE_2020_TYPES, HipeDocument, HipeFileError, align_hipe, read_hipe
    from .files.hipe_table import HIPE_COLUMNS, format_hipe_table, hipe_table
    from .files.readers import (
        ConllError,
        ConllSentence,
        SpanDocument,
        TwoSystemSentence,
        read_conll,
        read_span_lines,
        read_two_systems,
    )
    from .files.tables import (
        SUMMARY_COLUMNS,
        format_comparison,
        format_confusion_table,
        format_table,
        format_type_table,
        summary_rows,
    )
    from .runs import compare_runs, summarize_runs
    from .systems import compare_semeval
else:  # hidden from type checkers, which would otherwise accept any name of the package (a typo) as Any

    def __getattr__(name: str) -> Any:
        """A name of `_LAZY`, its module imported on first use and the name kept here: later uses are plain."""
        if name not in _LAZY:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


class _Package(ModuleType):
    """The package, whose lazy names no submodule replaces: the import system sets `nerscore.agreement` to the
    module nerscore/agreement.py whenever it loads it (files.agreement_files does), which would hide the function."""

    def __setattr__(self, name: str, value: Any) -> None:
        if not (name in _LAZY and isinstance(value, ModuleType)):
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def main(argv: Sequence[str] | None = None, prog: str = "ner-semeval") -> int:
    """The command line (`nerscore.cli.main`); imported when first called, so that `import nerscore` stays as
    quick as importing numpy."""
    from .cli import main as cli_main

    return cli_main(argv, prog)


__all__ = [
    "DIAGNOSTIC_KEYS",
    "EVALUATION_SCHEMES",
    "HIPE_2020_TYPES",
    "HIPE_COLUMNS",
    "MODES",
    "OPTION_NAMES",
    "OUTCOMES",
    "SCENARIOS",
    "SCHEMES",
    "SUMMARY_COLUMNS",
    "TYPE_KEYS",
    "Accumulator",
    "AnnotatorBatches",
    "BratDocument",
    "ConllError",
    "ConllSentence",
    "Counts",
    "HipeDocument",
    "HipeFileError",
    "InvalidInputError",
    "LabelStudioTask",
    "Options",
    "Scheme",
    "SentenceCounts",
    "Span",
    "SpanDocument",
    "Tally",
    "TwoSystemSentence",
    "__version__",
    "agreement",
    "align_hipe",
    "as_span",
    "compare_runs",
    "compare_semeval",
    "compute_semeval",
    "confusion_matrix",
    "decode",
    "encode",
    "entity_rows",
    "file_format",
    "format_comparison",
    "format_confusion_table",
    "format_hipe_table",
    "format_table",
    "format_type_table",
    "get_scheme",
    "hipe_table",
    "main",
    "occurrences_looked_at",
    "pair",
    "pair_greedy",
    "read_annotators",
    "read_brat",
    "read_brat_annotators",
    "read_brat_pairs",
    "read_conll",
    "read_conll_annotators",
    "read_doccano_annotators",
    "read_hipe",
    "read_jsonl_annotators",
    "read_label_studio",
    "read_label_studio_annotators",
    "read_span_lines",
    "read_spans",
    "read_two_systems",
    "result_dict",
    "scenario_of",
    "scores",
    "side_forms",
    "summarize_runs",
    "summary_rows",
    "tally_semeval",
]
