"""Shared fixtures: the repository on sys.path, the worked example read from examples/, and the metric loaded the
way users load it, offline; and the quick profile (`pytest -m "not slow"`, README: Contributing)."""

from __future__ import annotations

import importlib
import os
import re
import socket
import sys
import uuid
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

# evaluate asks the Hub about a module unless told not to, even for a local path (NOTES: evaluate).
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import pytest
from hypothesis import settings

# Tests never time things (benchmarks/ do): Hypothesis' 200 ms deadline per example failed under a loaded machine.
settings.register_profile("ner_semeval", deadline=None)
settings.load_profile("ner_semeval")

slow = pytest.mark.slow

if TYPE_CHECKING:
    from types import ModuleType

    from nerscore import ConllSentence

REPO = Path(__file__).resolve().parent.parent
METRIC_PATH = REPO / "ner_semeval.py"
sys.path.insert(0, str(REPO))


WORKED_EXAMPLE = REPO / "examples" / "worked_example.conll"
# docs/scoring.md §6, second table: measure -> (type, partial, exact, strict), the scores exact.
WORKED_SUMMARY = {
    "correct": (2, 2, 2, 1),
    "incorrect": (2, 0, 2, 3),
    "partial": (0, 2, 0, 0),
    "missed": (1, 1, 1, 1),
    "spurious": (1, 1, 1, 1),
    "precision": (Fraction(2, 5), Fraction(3, 5), Fraction(2, 5), Fraction(1, 5)),
    "recall": (Fraction(2, 5), Fraction(3, 5), Fraction(2, 5), Fraction(1, 5)),
    "F1": (Fraction(2, 5), Fraction(3, 5), Fraction(2, 5), Fraction(1, 5)),
}


def grounded_result(text, references, predictions, **options):
    """One document of string entities scored with its rows: the result, the grounded predictions as sorted
    (start, end, type), and the count of each scenario I to VI (tests of docs/scoring.md §1b)."""
    from collections import Counter

    from nerscore import compute_semeval

    result = compute_semeval(
        predictions=[predictions], references=[references], texts=[text], return_entities=True, **options
    )
    rows = result["entities"]
    mentions = sorted(
        (row["prediction"]["start"], row["prediction"]["end"], row["prediction"]["type"])
        for row in rows
        if row["prediction"] is not None and row["prediction"]["start"] is not None
    )
    scenarios = Counter(row["scenario"] for row in rows)
    return result, mentions, {name: scenarios.get(name, 0) for name in ("I", "II", "III", "IV", "V", "VI")}


def worked_example_sentences(shared: bool = False) -> list[ConllSentence]:
    """The worked example of docs/scoring.md §6 as `ner_semeval.ConllSentence` rows, read from
    examples/worked_example.conll: six sentences, characters as tokens, scenarios III, II, V, IV, I, VI.

    With `shared`, the first two sentences (III, then II) are joined into one, the reference entity before the
    prediction: five sentences whose totals are the same (§6)."""
    from nerscore import ConllSentence, read_conll

    with WORKED_EXAMPLE.open(encoding="utf-8") as handle:
        sentences = list(read_conll(handle, str(WORKED_EXAMPLE)))
    if shared:
        first, second, *rest = sentences
        sentences = [ConllSentence(*(a + b for a, b in zip(first, second))), *rest]
    return sentences


def worked_example(shared: bool = False) -> tuple[list[list[str]], list[list[str]]]:
    """``(predictions, references)`` of the worked example (see `worked_example_sentences`)."""
    sentences = worked_example_sentences(shared)
    return [s.predictions for s in sentences], [s.references for s in sentences]


def as_inputs(batches: tuple[list, list]) -> dict[str, list]:
    """``(predictions, references)`` as the keyword arguments `compute_semeval` takes."""
    predictions, references = batches
    return {"predictions": predictions, "references": references}


def compare_semeval_refuses(*added: str) -> str:
    """compare_semeval's refusal's list of options ("bootstrap (...), return_entities, ... nor errors"), built off
    the table, `Options.ADDING` (but slices, which it compares bucket by bucket), with `added` after them: so that
    the tests check the message's words, not a copy of the table a new option would break (issue 27)."""
    from nerscore.options import Options

    named = [
        "bootstrap (n_resamples sets its resamples)" if name == "bootstrap" else name
        for name in (*Options.ADDING, *added)
        if name != "slices"
    ]
    return f"{', '.join(named[:-1])} nor {named[-1]}"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def load_metric():
    """`evaluate.load` of this checkout's ner_semeval.py, with load-time options.

    Each load gets an experiment_id of its own unless one is given: a metric whose compute raised holds its
    cache-file lock while it lives (pytest keeps it until teardown), and a later load with the same id would
    wait 1 s for that lock (filelock's timeout) before picking another file."""
    import evaluate

    def load(**options):
        options.setdefault("experiment_id", uuid.uuid4().hex)
        return evaluate.load(str(METRIC_PATH), **options)

    return load


@pytest.fixture
def metric(load_metric):
    return load_metric()


def aligned(predictions, references) -> tuple[list, list]:
    """Both sides (tags or ids) as lists of sentences, checked for alignment, as `compute_semeval` reads them."""
    from nerscore.forms.batches import measured_aligned
    from nerscore.forms.inputs import as_list

    return measured_aligned(as_list(predictions, "predictions"), as_list(references, "references"))[:2]


def deferred_import(name: str) -> ModuleType:
    """The module `name`, imported when a test first reads one of its attributes rather than when pytest collects
    the test file: `import app` imports gradio (4-5 s of CPU, 45-58 s of a busy 2-core machine), which a run that
    selects none of the Space's tests need not pay."""

    class Deferred:
        def __getattr__(self, attribute: str) -> object:
            if attribute.startswith("_"):  # pytest's collection looks for its own marks on every module global
                raise AttributeError(attribute)
            return getattr(importlib.import_module(name), attribute)

    return Deferred()  # type: ignore[return-value]


# --- The quick profile ------------------------------------------------------------------------------------------
# `pytest -m "not slow"` (any marker expression that leaves out every test marked slow, whatever its other marks)
# is the quick profile: a first check in under 3 minutes on 2 idle cores. The full suite (`python -m pytest`) runs
# every test with every example; the quick profile runs every test not marked slow, with 1/QUICK_SHARE of the examples
# of each Hypothesis test and of the seeded random cases of a loop that asks `trials` (at least QUICK_EXAMPLES, never
# more than the test asks for), and does not import the files whose every test is slow (`pytestmark =
# pytest.mark.slow`: torch, gradio through the browser's app).

QUICK_SHARE = 5  # a Hypothesis test runs 1/QUICK_SHARE of its max_examples under the quick profile
QUICK_EXAMPLES = 10
_ALL_SLOW = re.compile(r"^pytestmark = .*\bpytest\.mark\.slow\b", re.MULTILINE)
_quick = False  # whether this run is the quick profile (pytest_configure)


def trials(count: int) -> int:
    """How many of a test's `count` seeded random cases (a loop over one `random.Random`) this run checks: all of
    them in the full suite, the first 1/QUICK_SHARE (at least QUICK_EXAMPLES) in the quick profile, as Hypothesis'
    examples; every test still runs, on the same first cases."""
    return min(count, max(QUICK_EXAMPLES, count // QUICK_SHARE)) if _quick else count


def forget_recent() -> None:
    """Empty `nerscore.pairing.recent`'s store of solver results, so that a test starts from nothing kept (the
    package itself never empties it: the least recently used go first)."""
    from nerscore.pairing import recent

    with recent._lock:
        recent._kept.clear()
        recent._held = 0


def nested(depth: int, innermost: Any = None, container: Any = list) -> Any:
    """`innermost` (an empty list if None) inside `depth` one-item `container`s, ``[[[...]]]``: deeper than Python's
    repr or a recursive comparison can go (RecursionError), what a message or a check must bear."""
    value = [] if innermost is None else innermost
    for _ in range(depth):
        value = container((value,))
    return value


def crossed(first: Iterable[Any], second: Iterable[Any], ids: Sequence[str] | None = None) -> list[Any]:
    """The cases of `first` × `second` for a two-name `parametrize`: the quick profile runs each of `first` once,
    with `second`'s values in turn (so each of those too), and the rest of the product is marked slow (the full
    suite runs every pair). `ids` names `first`'s values."""
    seconds = list(second)
    return [
        pytest.param(a, b, id=None if ids is None else f"{ids[i]}-{b}", marks=() if j == i % len(seconds) else slow)
        for i, a in enumerate(first)
        for j, b in enumerate(seconds)
    ]


def quick_profile(config: pytest.Config) -> bool:
    """Whether the marker expression (`-m`) leaves out every test marked slow."""
    markexpr = config.getoption("markexpr", "") or ""
    if not markexpr:
        return False
    try:  # pytest's own parser of -m; should its private module move, every file is collected as before
        from _pytest.mark.expression import Expression

        expression = Expression.compile(markexpr)
        marked_slow_only = expression.evaluate(lambda name, **_: name == "slow")
        marked_with_anything = expression.evaluate(lambda name, **_: True)
    except Exception:
        return False
    return not marked_slow_only and not marked_with_anything


def pytest_configure(config: pytest.Config) -> None:
    global _quick
    _quick = quick_profile(config)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    is_test_file = collection_path.suffix == ".py" and collection_path.name.startswith("test_")
    if is_test_file and quick_profile(config) and _ALL_SLOW.search(collection_path.read_text(encoding="utf-8")):
        return True  # every test of the file would be deselected: skip importing it
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not quick_profile(config):
        return
    scaled: set[int] = set()  # the parametrized cases of one test share its function
    for item in items:
        test = getattr(item, "obj", None)
        current = getattr(test, "_hypothesis_internal_use_settings", None)  # what @given reads when the test runs
        if current is None or id(test) in scaled:
            continue
        scaled.add(id(test))
        examples = min(current.max_examples, max(QUICK_EXAMPLES, current.max_examples // QUICK_SHARE))
        test._hypothesis_internal_use_settings = settings(current, max_examples=examples)  # type: ignore[union-attr]


def pytest_report_header(config: pytest.Config) -> str | None:
    if not quick_profile(config):
        return None
    return (
        f"quick profile: Hypothesis tests and loops of seeded cases (conftest.trials) run 1/{QUICK_SHARE} of their "
        f"examples (at least {QUICK_EXAMPLES}); "
        "files whose every test is slow are not collected. The full suite: python -m pytest"
    )
