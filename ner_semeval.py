# Copyright 2026 The ner_semeval Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""ner_semeval: the `evaluate` module of SemEval-2013 named-entity scores (strict, exact, partial, type).

A thin `evaluate.Metric` over the `nerscore` package, in the manner of evaluate's own `seqeval` metric: the
package scores (`nerscore.compute_semeval`, docs/scoring.md), says what evaluate stores (`forms/registry.py`) and
keeps it across batches, processes and failed computes (`stored_batches.py`); this module stores it with evaluate.
`python ner_semeval.py FILE` is the package's command line (`ner-semeval`), run before evaluate is imported.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
from typing import Any


def _install_command(extra: str = "") -> str:
    """The pip command that installs the package `nerscore` (with `extra`, e.g. "[evaluate]") where it is missing.

    nerscore is not on PyPI: it installs from a clone (README: Loading). The clone is this file's folder when the
    file is run or imported from it, the folder evaluate.load was given (evaluate imports a copy of this file from
    its cache and writes the original path beside it), or the folder `pip install` read; else a placeholder.
    evaluate writes that path only once per content of the file, so the path given to the `evaluate.load` running
    now (read from its frame) comes first: another clone's copy loaded before must not answer for this one."""
    # Here: importlib.metadata (email, zipfile ...) would cost the command line a tenth of its start-up.
    import importlib.metadata
    import json
    import shlex
    from urllib.parse import unquote, urlparse

    here, editable = os.path.dirname(os.path.abspath(__file__)), "-e "
    folders, note = [here], os.path.join(here, os.path.basename(__file__).rsplit(".", 1)[0] + ".json")  # evaluate's
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code.co_name == "load" and frame.f_globals.get("__name__") == "evaluate.loading":
            given = os.path.abspath(str(frame.f_locals.get("path", "")))
            folders.append(given if os.path.isdir(given) else os.path.dirname(given))
            break
        frame = frame.f_back
    with contextlib.suppress(OSError, ValueError, LookupError, TypeError), open(note, encoding="utf-8") as f:
        folders.append(os.path.dirname(json.load(f)["original file path"]))
    with contextlib.suppress(importlib.metadata.PackageNotFoundError, LookupError, TypeError, ValueError):
        origin = json.loads(importlib.metadata.distribution("nerscore").read_text("direct_url.json") or "null")
        if origin["url"].startswith("file://"):
            folders.append(unquote(urlparse(origin["url"]).path))
            editable = "-e " if origin.get("dir_info", {}).get("editable") else ""
    for folder in folders:
        if os.path.isfile(os.path.join(folder, "pyproject.toml")) and os.path.isdir(os.path.join(folder, "nerscore")):
            return f"pip install {editable}{shlex.quote(folder + extra)}"
    return (
        f"pip install -e '/path/to/your/clone{extra}' (the folder holding ner_semeval.py and pyproject.toml), or pip "
        "install 'git+https://huggingface.co/spaces/<user>/ner_semeval' from the Space it was loaded from (nerscore "
        "is not on PyPI)"
    )


# Imported inside `try` so that the message names a command that works: evaluate's scan of the imports at column 0
# would otherwise ask for `pip install nerscore`, which no index has (README: Loading).
try:
    import nerscore
    from nerscore import *
    from nerscore import Options, main
    from nerscore.accumulator import compute_checked
    from nerscore.forms.inputs import IDS, TAGS, as_list, batch_form, rows_of
    from nerscore.forms.registry import FORMS, STORED_COLUMNS, stored_features
    from nerscore.options import OPTION_NAMES, TAG_OPTIONS, describe, in_words
    from nerscore.stored_batches import StoredBatches, columns_given, missing_sides
    from nerscore.table.columns import Columns
except ModuleNotFoundError as missing:
    if missing.name != "nerscore":
        raise
    raise ModuleNotFoundError(
        f"ner_semeval.py needs the package nerscore, which is not importable here; install it: {_install_command()}",
        name="nerscore",
    ) from None

# The version of nerscore this file was written for. evaluate copies this file alone into its cache and imports
# whatever nerscore is installed, so a package of another version must not answer for it.
NERSCORE_VERSION = "0.3.0"
if nerscore.__version__ != NERSCORE_VERSION:
    raise ImportError(
        f"ner_semeval.py is written for nerscore {NERSCORE_VERSION}, found nerscore {nerscore.__version__} at "
        f"{os.path.dirname(nerscore.__file__)}; install the matching one: {_install_command()}"
    )

if __name__ == "__main__":  # the command line scores files with numpy alone, before evaluate is imported
    sys.exit(main(prog="ner_semeval.py"))

# After `pip install .` without the extra, name it rather than fail bare on `import datasets`.
_MISSING = [name for name in ("datasets", "evaluate") if importlib.util.find_spec(name) is None]
if _MISSING:
    raise ModuleNotFoundError(
        f"the evaluate module ner_semeval needs {' and '.join(_MISSING)}, the package's [evaluate] extra: "
        f"{_install_command('[evaluate]')}",
        name=_MISSING[0],
    )

import datasets
import evaluate

_CITATION = """\
@inproceedings{segura-bedmar-etal-2013-semeval,
    title = "{S}em{E}val-2013 Task 9 : Extraction of Drug-Drug Interactions from Biomedical Texts (DDIExtraction 2013)",
    author = "Segura-Bedmar, Isabel and Mart{\\'\\i}nez, Paloma and Herrero-Zazo, Mar{\\'\\i}a",
    booktitle = "Second Joint Conference on Lexical and Computational Semantics (*SEM), Volume 2:
                 Proceedings of the Seventh International Workshop on Semantic Evaluation (SemEval 2013)",
    year = "2013",
    pages = "341--350",
}
@inproceedings{chinchor-sundheim-1993-muc,
    title = "{MUC}-5 Evaluation Metrics",
    author = "Chinchor, Nancy and Sundheim, Beth",
    booktitle = "Fifth Message Understanding Conference ({MUC}-5)",
    year = "1993",
}
@inproceedings{tjong-kim-sang-de-meulder-2003-introduction,
    title = "Introduction to the {C}o{NLL}-2003 Shared Task: Language-Independent Named Entity Recognition",
    author = "Tjong Kim Sang, Erik F. and De Meulder, Fien",
    booktitle = "Proceedings of the Seventh Conference on Natural Language Learning at HLT-NAACL 2003",
    year = "2003",
    pages = "142--147",
}
"""

_DESCRIPTION = """\
SemEval-2013 style named-entity evaluation. Reference and predicted entities are decoded from tag sequences,
paired one-to-one per sentence, and every pair or unpaired entity falls into one of six scenarios:
I correct, II spurious, III missed, IV wrong type, V wrong boundaries, VI wrong boundaries and type.
Four schemes read the scenarios as MUC counts (correct, incorrect, partial, missed, spurious):
strict (boundaries and type), exact (boundaries), partial (overlap, half credit) and type (overlap and type).
Precision, recall and F-beta follow for each scheme, overall, per entity type and as macro averages.
"""


_KWARGS_DESCRIPTION = f"""
Computes SemEval-2013 strict / exact / partial / type scores for named-entity tag sequences or spans.

Args:
    predictions (`list` of `list` of `str`, `int` or entities): predicted tags, one sequence per sentence
        (`"B-PER"`, `"I-PER"`, `"O"` ...), or integer label ids together with `label_list`; or spans, one list
        of entities per sentence or document, each a dict with integer `start` and `end` (end exclusive, any
        unit) and its type under `type`, `label` or `entity_group` (a token-classification pipeline's grouped
        output as it is), or a `(start, end, type)` tuple. Entities may nest and overlap. A spaCy `Doc` is the list
        of its `ents` (character offsets), read without importing spaCy.
    references (same form as `predictions`): reference tags, token-aligned with `predictions`; or spans.
{describe()}
    {in_words(map("`{}`".format, TAG_OPTIONS))} describe tags: given with spans, they are an error. Every option
    can also be given once to `evaluate.load(...)` and overridden in `compute`.

Returns:
    A flat `dict` of plain `int` and `float`: for each scheme in strict, exact, partial, type (or in
    `evaluation_schemes`) the keys
    `{{scheme}}_precision`, `_recall`, `_f1`, `_correct`, `_incorrect`, `_partial`, `_missed`, `_spurious`,
    `_possible`, `_actual`, `_macro_precision`, `_macro_recall`, `_macro_f1`. With `bootstrap`, also
    `{{scheme}}_precision_low`, `_precision_high`, `_recall_low`, `_recall_high`, `_f1_low` and `_f1_high`.
    Two systems are compared with `nerscore.compare_semeval` (paired bootstrap and approximate randomization).

Examples:
    >>> import evaluate
    >>> ner_semeval = evaluate.load("ner_semeval.py")  # "user/ner_semeval" once on the Hub
    >>> references = [["B-PER", "I-PER", "O", "B-LOC"]]
    >>> predictions = [["B-PER", "I-PER", "O", "B-ORG"]]
    >>> results = ner_semeval.compute(predictions=predictions, references=references)
    >>> results["strict_f1"], results["exact_f1"], results["strict_incorrect"]
    (0.5, 1.0, 1)

    Integer ids, as a token-classification model produces them, with -100 on sub-word pieces:
    >>> results = ner_semeval.compute(
    ...     predictions=[[1, 2, 0, 0]], references=[[1, 2, -100, 0]], label_list=["O", "B-PER", "I-PER"]
    ... )
    >>> results["strict_correct"], results["strict_possible"], results["strict_actual"]
    (1, 1, 1)

    Spans, with character offsets; the second prediction covers half of its reference:
    >>> results = ner_semeval.compute(
    ...     predictions=[[{{"start": 0, "end": 3, "label": "PER"}}, (8, 10, "LOC")]],
    ...     references=[[(0, 3, "PER"), (6, 10, "LOC")]],
    ... )
    >>> results["strict_correct"], results["partial_partial"], results["type_correct"]
    (1, 1, 2)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class NerSemeval(StoredBatches, evaluate.Metric):
    """SemEval-2013 named-entity scores; options given here are the defaults of every `compute`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # evaluate.load hands its unknown keywords here and EvaluationModule drops them: a misspelt option
        # (`bootstraps=1000`) would be silently lost, so what is no parameter of evaluate's is checked as an option.
        import inspect  # here, not at the top: the command line (`python ner_semeval.py FILE`) never needs it

        own = inspect.signature(evaluate.EvaluationModule.__init__).parameters
        config_name = kwargs.get("config_name")
        if config_name not in (None, "default"):  # evaluate.load(path, "IOBES") would load an IOB2 metric silently
            example = f"scheme={config_name!r}" if isinstance(config_name, str) else "scheme='IOBES'"
            raise ValueError(
                f"found config_name {config_name!r} (evaluate.load's second argument); expected none: ner_semeval "
                f"has no configurations, and options are keywords, as evaluate.load(path, {example})"
            )
        given = {name: kwargs.pop(name) for name in list(kwargs) if name in OPTION_NAMES or name not in own}
        Options.of(**given)  # a bad or unknown option fails at load time, not at the first compute
        super().__init__(*args, **kwargs)
        self.options = given
        self._start_storing()

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[stored_features(datasets, form) for form in FORMS],  # tags first: evaluate keeps to its names
            reference_urls=[
                "https://aclanthology.org/S13-2056/",
                "https://www.clips.uantwerpen.be/conll2003/ner/",
                "https://github.com/MantisAI/nervaluate",
            ],
        )

    def _infer_feature_from_batch(self, batch: dict[str, list]) -> datasets.Features:
        # evaluate looks at the first sentence only, and an empty one fits any form: look at a value. A batch
        # without any (a process with no data of its own) takes the form stored before; else, on a process other
        # than 0, the form that merges with any, and on process 0 (whose form is the one every file is read in)
        # the one label_list implies.
        form = batch_form(batch["predictions"], batch["references"]) or self._stored_form
        if form is None and self.process_id == 0:
            form = IDS if self.options.get("label_list") is not None else TAGS
        return stored_features(datasets, form, STORED_COLUMNS in batch)

    def _feature_names(self) -> list[str]:
        # evaluate keeps to the names of the first of `features`: the stored columns join them once a batch
        # holding them chose the stored form.
        names = super()._feature_names()
        selected = self.selected_feature_format
        return [*names, STORED_COLUMNS] if selected is not None and STORED_COLUMNS in selected else names

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """Add one sentence, checked as `add_batch` checks a batch."""
        given = columns_given(kwargs)
        if kwargs:  # evaluate's own error names the unknown inputs
            return super().add(prediction=prediction, reference=reference, **kwargs)
        if prediction is None or reference is None:
            # evaluate stores None and compute then fails with a TypeError naming nothing
            raise ValueError(f"found {missing_sides(prediction, reference, 'prediction', 'reference')}; expected both")
        return self.add_batch(
            predictions=[prediction], references=[reference], **{name: [value] for name, value in given.items()}
        )

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """Add a batch of tag (or id) sequences or spans, with its columns (`texts`, `tokens`, `groups`,
        `documents`: one value per sentence); numpy arrays and torch tensors are turned into lists."""
        given = columns_given(kwargs)
        if predictions is None or references is None:
            if given:
                raise ValueError(f"found {', '.join(given)} without predictions and references; expected all")
            if kwargs:  # evaluate's own error names the unknown inputs
                return super().add_batch(predictions=predictions, references=references, **kwargs)
            # evaluate raises TypeError ("object of type 'NoneType' has no len()") or KeyError 'columns'
            found = missing_sides(predictions, references, "predictions", "references")
            raise ValueError(f"found {found}; expected both, one list per sentence each")
        self._add_checked(predictions, references, given, kwargs)
        return None

    def _store(self, predictions: list, references: list, columns: list[str] | None = None, **kwargs: Any) -> None:
        if columns is None and self.num_process > 1:
            # Process 0 reads every process's file in its own stored form, and a process cannot know whether the
            # others give columns (one with no data of its own never does): across processes every file holds
            # them, "" for a sentence without (`Columns.from_stored` reads no column from those).
            columns = [""] * len(predictions)
        if columns is not None:
            kwargs[STORED_COLUMNS] = columns
            if self._nothing_stored():  # evaluate takes only the names of the stored form, which this batch sets
                self.selected_feature_format = self._infer_feature_from_batch(
                    {"predictions": predictions, "references": references, STORED_COLUMNS: columns}
                )
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> dict | None:
        """Score everything added so far plus this batch; `None` on processes other than process 0.

        The options are checked before anything stored is consumed, and a compute that fails leaves the stored
        batches in place for the next one."""
        given = columns_given(kwargs)
        # Options first: a misspelt input (`prediction=`) is named, not taken for a side left out.
        options = Options.of(**{**self.options, **kwargs})
        if (predictions is None) != (references is None):
            side, missing = ("predictions", "references") if references is None else ("references", "predictions")
            raise ValueError(f"found {side} without {missing}; expected both, or neither to score the added batches")
        if given and predictions is None:
            raise ValueError(
                f"found {', '.join(given)} without predictions and references; expected them with the batch they "
                "describe (add_batch takes them too)"
            )
        if self._nothing_stored() and self.num_process == 1:
            # Nothing stored and nobody to share with: evaluate's cache would write this batch to disk and read it
            # back unchanged, a round trip that costs more than the scoring (benchmarks/README.md).
            columns: Columns | dict[str, Any] = given
            if predictions is None:
                predictions = references = []
                # Only batches of no sentence were added (add_batch), with these columns for none.
                columns = {name: [] for name in self._stored_columns or self._empty_batch_columns or ()}
            if self._waiting_empty:  # they count nothing, but number the sentences of `entities`
                waiting = [[] for _ in range(self._waiting_empty)]
                predictions = waiting + rows_of(as_list(predictions, "predictions"))
                references = waiting + rows_of(as_list(references, "references"))
                columns = self._waiting_with(given, len(predictions) - self._waiting_empty)
            result = compute_checked(predictions, references, options, columns)
            self._start_storing()
            return result
        if predictions is not None:
            self.add_batch(predictions=predictions, references=references, **given)
        if self._nothing_stored():
            # A process with no data of its own (or only sentences without values) still writes its cache file:
            # process 0 waits for every process's file, and would otherwise wait evaluate's whole `timeout` and
            # fail.
            waiting = [[] for _ in range(self._waiting_empty)]
            self._store(waiting, waiting, self._waiting_columns or None)
            self._waiting_empty = 0
            self._waiting_columns = []
        try:
            result = super().compute(**kwargs)
        except Exception:
            self._store_again()
            raise
        self._start_storing()
        return result

    def _compute(self, *, predictions: list, references: list, **kwargs: Any) -> dict[str, Any]:
        # The columns are read from what evaluate read back (`data`), beside the stored predictions and references.
        data = self.data
        columns = (
            Columns.from_stored(data[STORED_COLUMNS])
            if data is not None and STORED_COLUMNS in data.column_names
            else None
        )
        return compute_checked(predictions, references, Options.of(**{**self.options, **kwargs}), columns)


# Every public name of the package, and the metric.
__all__ = [*nerscore.__all__, "NerSemeval"]
