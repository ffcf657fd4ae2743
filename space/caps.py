"""Every cap and limit of the page, in one place: what one request may send, what one answer shows, how many
evaluations run at once and how a comparison resamples.

The other modules read these as ``caps.NAME`` when they run (never copied into a name or a default argument of
their own), so that a test's ``monkeypatch.setattr(caps, "MAX_TABLE_ROWS", 3)`` reaches every use.
"""

from __future__ import annotations

# What one request may send.
MAX_BYTES = 1_000_000  # 1 MB of CoNLL text (or JSON lines), typed or uploaded
MAX_SENTENCES = 10_000  # sentences, or documents of spans

# What one answer shows; the scores always cover every sentence. Together these keep an answer under 3 MB
# whatever the 1 MB input (tokens and types that HTML-escape to six bytes a character are the worst found; the
# tests measure two hostile inputs), where uncapped one answer was 22 MB.
MAX_TABLE_ROWS = 1_000  # scenario rows
MAX_SHOWN_TYPES = 50  # entity types in the per-type table (four rows each), the most frequent first
MAX_SHOWN_SENTENCES = 100  # sentences (or documents) drawn with their entities highlighted ...
MAX_SHOWN_TOKENS = 2_000  # ... and at most this many tokens of them in all
MAX_TEXT_CHARACTERS = 30  # of one token, entity text or entity type in a table cell or a drawn sentence
MAX_MESSAGE_CHARACTERS = 500  # of an error message, which may quote a line of the input
# Of the drawn documents of spans: at most this many characters of text in all, and this many entities of each side.
MAX_SHOWN_CHARACTERS = 20_000
MAX_SHOWN_ENTITIES = 2_000

# The pictures: types shown in the confusion heatmap (the rest folded into one "other" row and column) and in
# the per-type F1 chart, the most frequent first; and the characters of a type name on the chart's axis and on
# the heatmap's, which names it twice.
MAX_HEATMAP_TYPES = 12
MAX_CHART_TYPES = 15
MAX_LABEL_CHARACTERS = 24
MAX_HEATMAP_LABEL_CHARACTERS = 16

# Evaluations that run at once. Gradio's default of one would queue a visitor's one-line request behind
# another's 1 MB one; the caps above bound what each of these costs in time and memory.
EVALUATIONS_AT_ONCE = 4

# Comparing two systems: the resamples of the interval and of the test, the seed and the confidence level. 2,000
# resamples compare a 1 MB input of 10,000 sentences in about 1.3 s here, against 5 s for the command line's
# 10,000; p is then never below 1 / 2,001.
COMPARE_RESAMPLES = 2_000
COMPARE_SEED = 0
COMPARE_CONFIDENCE_LEVEL = 0.95
