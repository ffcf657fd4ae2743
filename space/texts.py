"""The page's words: the task control's choices, the menus' choices, the editor's labels, the examples (read from
examples/, the one copy that the README and docs/scoring.md show too) and the explanations under the tables.

The texts that state a cap (`INTRODUCTION`, `COMPARE_TEXT`, `PICTURES_TEXT`) are written once, when this module is
imported, from the caps of that moment.
"""

from __future__ import annotations

from pathlib import Path

import nerscore

from . import caps

# The control that chooses what the page does, and so how it reads the input's columns.
ONE_SYSTEM = "Evaluate one system"
TWO_SYSTEMS = "Compare two systems"
SPANS = "Spans (JSON lines)"
AGREEMENT = "Agreement"  # its words are at the end of this module
TASKS = [ONE_SYSTEM, TWO_SYSTEMS, SPANS, AGREEMENT]

# The editor's label for each task: what it reads.
ONE_SYSTEM_LABEL = "CoNLL input: token, reference tag, predicted tag"
TWO_SYSTEMS_LABEL = "CoNLL input: token, reference tag, system A's tag, system B's tag (the last three columns)"
SPANS_LABEL = (
    'JSON lines: {"text": ..., "references": [...], "predictions": [...]}, entities {"start", "end", "type"} or '
    'strings ["type", "text"]'
)
LABELS = {ONE_SYSTEM: ONE_SYSTEM_LABEL, TWO_SYSTEMS: TWO_SYSTEMS_LABEL, SPANS: SPANS_LABEL}
# The upload button's label for each task: what it reads.
UPLOAD_LABELS = {
    ONE_SYSTEM: "Upload a CoNLL file",
    TWO_SYSTEMS: "Upload a CoNLL file",
    SPANS: "Upload a JSON lines file",
}

# The menus of the tags: every scheme the metric knows, and its two modes.
SCHEME_NAMES = list(nerscore.SCHEMES)
MODES = list(nerscore.MODES)
# The value score's control (docs/scoring.md §10): off, the ACE-08 preset, or the default weights.
NO_VALUE, ACE08_VALUE, DEFAULT_VALUE = "off", "ace08", "default weights"
VALUE_CHOICES = [NO_VALUE, ACE08_VALUE, DEFAULT_VALUE]


# ---------------------------------------------------------------------------------------------------------
# Examples: one copy of each in examples/, shared with the README and docs/scoring.md
# ---------------------------------------------------------------------------------------------------------

EXAMPLES_DIRECTORY = Path(__file__).resolve().parent.parent / "examples"
# The worked example of docs/scoring.md §6 (characters are tokens): its scenario rows come out in the order of
# that section's first table, III and II in sentences of their own.
WORKED_EXAMPLE = (EXAMPLES_DIRECTORY / "worked_example.conll").read_text(encoding="utf-8")
# The six scenarios in English: I Merkel, V Macron, IV Berlin; VI New York Times, III Apple, II Monday.
ENGLISH_EXAMPLE = (EXAMPLES_DIRECTORY / "english_example.conll").read_text(encoding="utf-8")
# IOBES: S-PER S-PER is two entities (V and II); in strict mode B-LOC I-LOC without E- is no entity (III).
IOBES_EXAMPLE = (EXAMPLES_DIRECTORY / "iobes_example.conll").read_text(encoding="utf-8")
# Two systems on eight English sentences: system A is the English example's on its two sentences; A misses
# boundaries (scenario V) where B gets them, B confuses types (IV) where A does not. So B is ahead under strict,
# exact and partial, and the type scheme, which forgives boundaries, cannot tell them apart.
COMPARE_EXAMPLE = (EXAMPLES_DIRECTORY / "compare_example.conll").read_text(encoding="utf-8")
# Spans as JSON lines: a token-classification pipeline's grouped output (entity_group, score, word) against the
# reference, and a nested reference (Paris, a LOC inside the ORG University of Paris).
SPANS_EXAMPLE = (EXAMPLES_DIRECTORY / "spans_example.jsonl").read_text(encoding="utf-8")
# The worked example as surface strings, ("MUSIC_NAME", "告白气球") found in each line's text (docs/scoring.md §1b).
STRINGS_EXAMPLE = (EXAMPLES_DIRECTORY / "worked_example_strings.jsonl").read_text(encoding="utf-8")

# Each example sets the text, the scheme, the mode and what the page does with them.
EXAMPLES = [
    [WORKED_EXAMPLE, "IOB2", "lenient", ONE_SYSTEM],
    [ENGLISH_EXAMPLE, "IOB2", "lenient", ONE_SYSTEM],
    [IOBES_EXAMPLE, "IOBES", "strict", ONE_SYSTEM],
    [COMPARE_EXAMPLE, "IOB2", "lenient", TWO_SYSTEMS],
    [SPANS_EXAMPLE, "IOB2", "lenient", SPANS],
    [STRINGS_EXAMPLE, "IOB2", "lenient", SPANS],
]
# Short enough for Gradio's example buttons, whole on one line even on a phone (tests/test_browser.py checks).
EXAMPLE_LABELS = [
    "Worked example (Chinese, one character per token)",
    "English: all six scenarios",
    "IOBES, strict mode",
    "Two systems compared",
    "Spans, nested",
    "Worked example as strings",
]

EXPLANATION = """
### How to read the results

Reference and predicted entities are decoded from the tags and paired one-to-one within each sentence
(identical boundaries first, then overlapping entities). Every pair or unpaired entity is one **scenario**:

| scenario | what happened | type | partial | exact | strict |
| --- | --- | --- | --- | --- | --- |
| I | same boundaries, same type | COR | COR | COR | COR |
| II | predicted entity with no reference (spurious) | SPU | SPU | SPU | SPU |
| III | reference entity not predicted (missed) | MIS | MIS | MIS | MIS |
| IV | same boundaries, other type | INC | COR | COR | INC |
| V | overlapping, other boundaries, same type | COR | PAR | INC | INC |
| VI | overlapping, other boundaries, other type | INC | PAR | INC | INC |

The four **schemes** read the scenarios differently:
- **strict**: boundaries and type must both match (conlleval's and seqeval's score);
- **exact**: boundaries must match, the type is ignored;
- **partial**: boundaries must overlap; an overlap with other boundaries earns half a point (PAR);
- **type**: the type must match and the entities overlap.

Counts are COR correct, INC incorrect, PAR partial, MIS missed, SPU spurious.
Precision = (COR + ½·PAR) / (COR + INC + PAR + SPU); recall = (COR + ½·PAR) / (COR + INC + PAR + MIS).
Per entity type, recall counts the reference entities of that type (their number is the *support*) and
precision the predicted ones, so a PER predicted as LOC is INC for PER's recall and for LOC's precision.

**Mode**: *lenient* decodes like conlleval (`O I-PER` still starts an entity); *strict* keeps only entities
whose tags are well formed in the scheme (IOB2 `B I*`, IOBES `S` or `B I* E`, ...), like seqeval's strict mode.
"""

INTRODUCTION = f"""
# ner_semeval: SemEval-2013 named-entity scores
Every reference and predicted entity falls into one of six scenarios, and four schemes (**strict, exact, partial,
type**) count them. Edit the sentences below, one token per line as **token, reference tag, predicted tag** with a
blank line between sentences, or upload a CoNLL file (at most {caps.MAX_BYTES // 1_000_000} MB or {caps.MAX_SENTENCES:,}
sentences). The page opens on the worked example of the metric's documentation (docs/scoring.md, §6).
**{TWO_SYSTEMS}** reads **token, reference tag, system A's tag, system B's tag** instead and tells whether B's
scores differ from A's by more than the sampling noise of these sentences. **{SPANS}** reads one JSON object a
line, `{{"text": ..., "references": [...], "predictions": [...]}}`, entities as character offsets (end exclusive),
or as strings `["type", "text"]` that the page finds in the line's text, as `python ner_semeval.py --spans` does.
**{AGREEMENT}** reads **the token, then one tag per annotator** (or JSON lines of spans, a Label Studio export, or
a ZIP archive of BRAT folders or doccano's export) and measures how far two or more annotators agree.
"""

COMPARE_TEXT = f"""
### Is B really better than A?
Each line holds the token first and **the reference tag, system A's tag and system B's tag as its last three
columns**; columns in between (a part-of-speech tag, a chunk tag) are ignored. The table gives, per scheme and
measure, A's score, B's, the difference **B − A**, its {caps.COMPARE_CONFIDENCE_LEVEL:.0%} interval (**low** to
**high**: a paired bootstrap of the sentences, BCa) and the two-sided **p-value** of approximate randomization
(each sentence's two outputs swapped at random). The picture draws each scheme's F1 difference with its interval
against the line at zero: a **filled, coloured** point (blue: B better, orange: A better) has zero outside its
interval; a **hollow grey** one has zero inside, and these sentences cannot tell the two systems apart under that
scheme (which is no evidence that they are equal). Both use {caps.COMPARE_RESAMPLES:,} resamples and seed
{caps.COMPARE_SEED}, so the same input gives the same numbers; p is never below 1/{caps.COMPARE_RESAMPLES + 1:,}, and the
command line's `python ner_semeval.py --compare A.conll B.conll` (10,000 resamples by default) may differ in the
last digits. Twelve p-values make some small ones by chance: decide beforehand which one decides (usually strict
F1). Two files `A.conll` and `B.conll` of one test set become one input with
`paste -d ' ' A.conll <(awk '{{print $NF}}' B.conll)`.
"""  # noqa: E501 (the page's text, its line breaks as they always were)

PICTURES_TEXT = f"""
### Pictures
The heatmap counts reference types (rows) against predicted types (columns), **O** for no entity: the green
diagonal is right, every other cell an error. The bars give each type's F1 under the four schemes: where **type**
stands above **strict**, the type was right and the boundaries wrong; where **exact** stands above **strict**,
the boundaries were right and the type wrong. With many types, the heatmap shows the {caps.MAX_HEATMAP_TYPES} most
frequent and folds the rest into *other*, and the bars show the {caps.MAX_CHART_TYPES} most frequent. Below them,
for tags (not spans), F1 by entity length and by sentence length (in tokens): a reference counts in the bucket of
its own length, a prediction in its own (docs/scoring.md §11).
"""


# ---------------------------------------------------------------------------------------------------------
# The Agreement task (space/agreement.py, docs/agreement.md): how far two or more annotators agree
# ---------------------------------------------------------------------------------------------------------

AGREEMENT_LABEL = (
    "Annotators: CoNLL, the token then one tag column per annotator (two or more); JSON lines, "
    '{"text": ..., "annotations": {"name": [[start, end, "TYPE"], ...], ...}}; or a Label Studio JSON export'
)
LABELS[AGREEMENT] = AGREEMENT_LABEL
# A file of one of the editor's layouts, or a ZIP archive of the annotators' files (BRAT folders, doccano's export).
UPLOAD_LABELS[AGREEMENT] = "Upload a file or a ZIP archive"
# docs/agreement.md's worked example: three annotators on two sentences (examples/agreement.conll).
AGREEMENT_EXAMPLE = (EXAMPLES_DIRECTORY / "agreement.conll").read_text(encoding="utf-8")
# Loaded when the task is chosen on an untouched example, and by a button of the task's own.
AGREEMENT_EXAMPLE_BUTTON = "Example: three annotators"
# The page's status beside the editor for this task; the task's own status heads its results.
AGREEMENT_STATUS = "**Agreement between annotators**: what was measured, or why not, heads the results below."

AGREEMENT_TEXT = f"""
### How far do the annotators agree?
Each pair of annotators is scored as a system against references, **A** (the first) as the reference: the
table gives each pair's F1 under the four schemes and Cohen's κ on all tokens and on the tokens some annotator
labels (*κ labelled*), then the mean of the pairs' F1 and the F1 of all their counts pooled. The picture draws
the pairwise F1 of every scheme, darker for closer agreement; strict below type means the annotators found the
same entities but drew their boundaries differently. Fleiss' κ and Krippendorff's α are chance-corrected over
all annotators: most tokens are outside every entity and easy to agree on, which lifts them, so read the
*labelled units* column (and the F1) first. Krippendorff's α counts a sentence an annotator skipped as missing,
Fleiss' κ leaves it out. The disagreements are the {caps.MAX_ERROR_ROWS} most frequent of all pairs, A's entity
against B's. At most {caps.MAX_AGREEMENT_ANNOTATORS} annotators. BRAT folders (one per annotator) and doccano's
export (one JSONL file per annotator) are read from an uploaded ZIP archive, as `ner-semeval agreement` reads them
(docs/agreement.md).
"""
