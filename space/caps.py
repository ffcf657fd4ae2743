"""Every cap and limit of the page, in one place: what one request may send, what one document of spans may cost,
what one answer shows, which lane a request runs in and how many run at once, and how a comparison resamples.

The other modules read these as ``caps.NAME`` when they run (never copied into a name or a default argument of
their own), so that a test's ``monkeypatch.setattr(caps, "MAX_TABLE_ROWS", 3)`` reaches every use.
"""

from __future__ import annotations

# What one request may send.
MAX_BYTES = 1_000_000  # 1 MB of CoNLL text (or JSON lines), typed or uploaded
MAX_SENTENCES = 10_000  # sentences, or documents of spans

# What documents of spans may cost, checked before anything is paired. A document whose two sides are each flat
# (no two entities of a side share a character, as with tags) is paired in time linear in its entities, which
# MAX_BYTES bounds. Nested, overlapping or repeated entities make pairing an assignment problem over the
# reference-prediction pairs that overlap, whose cost grows faster than their number: 400 identical entities a
# side (160,000 pairs, 10 KB) took 43 s and 1.4 GB here, 100 (10,000 pairs) 0.4-0.9 s and 22 MB, 70 (4,900) about
# 0.2 s and 8 MB. Such a document may hold at most MAX_DOCUMENT_PAIRS overlapping pairs and a request at most
# MAX_REQUEST_PAIRS in all such documents; more is refused with a message naming the line (the command line
# pairs any number). Identical entities are now folded into one with their copies (4 documents of 140 x 140 take
# 0.03 s); the costliest shape found at the caps is entities at random places and lengths, 4 documents of about
# 5,000 pairs in 0.9-1.3 s with the page's pictures (`python benchmarks/space.py --caps`, load 7).
MAX_DOCUMENT_PAIRS = 5_000
MAX_REQUEST_PAIRS = 20_000
# Grounding string entities in their text (docs/scoring.md §1b) is checked before it runs too: its flow grows with
# the string predictions times the entities they may pair with, P x (R + P) in a document. Measured here: 200
# predictions and 200 references of one string on 2,000 occurrences (80,000) 0.13 s, 300 and 300 on 50,000
# (180,000) 0.22 s, 500 and 500 on 5,000 (500,000) 0.85 s, 2,500 and 2,500 (12,500,000) 66 s; the occurrences
# themselves cost little (150 and 150 on 400,000 occurrences: 0.25 s).
MAX_DOCUMENT_GROUNDING = 100_000
MAX_REQUEST_GROUNDING = 400_000
# ... and so is the search for the predicted strings' occurrences that grounding looks at (every one that touches a
# reference, then the first free ones), which the product above does not see: each occurrence is a candidate of the
# flow with an edge to each reference it overlaps, and a periodic string is searched for once per occurrence. One
# letter predicted under a reference of 40,000 characters (40,000 candidates) took 2.6 s, a string of 100,000 "a" in
# a text of 200,000 (100,001 occurrences of 100,000 characters each) 37 s. A document may hold at most
# MAX_DOCUMENT_OCCURRENCES (occurrences looked at plus their overlapping references), a request at most
# MAX_REQUEST_OCCURRENCES, and the characters searched in a request at most MAX_REQUEST_SEARCH; counting stops at
# the caps, so the check costs no more than they allow.
# (each counted for every type predicted with its text: a type chooses among them on its own). The package's flow
# holds memory growing with the square of these: 10,000 took 133 MB, 25,000 855 MB, 100,000 (one letter predicted
# with 20 types on 5,000 occurrences, 13 s) 10 GB; 5,000 take 0.1 s and 38 MB. Its time grows with their square
# too where references and types are many: 150 references and 150 predictions of one letter in 15 types (4,650)
# took 0.8 s (1.3 s for the page, value score and pictures included; two such documents 2.1 s), in 150 types
# (45,150) 96 s; a request holds two documents at the document cap at most.
MAX_DOCUMENT_OCCURRENCES = 4_000
MAX_REQUEST_OCCURRENCES = 8_000
MAX_REQUEST_SEARCH = 50_000_000

# The value score (docs/scoring.md §10) is summed exactly, as fractions: once per entity type for a system's score,
# once per value cell (scenario, reference type, predicted type) and system when two are compared. Before the
# package summed them by columns (ValueSums), 760 KB of 30,000 types took 8.1 s to evaluate (1.3 s without the value
# score) and 12.4 s to compare (0.6 s). Now (`python benchmarks/space.py --caps`, the page's answer with its
# pictures, load 4-5): 1 MB of 10,000 types 2.6 s evaluated (1.8 s without), of 70,124 types 3.5 s (2.8 s); 1 MB of
# two systems, 42,959 cells a system 1.0 s compared, 35,729 cells 1.6 s, the costliest found 2.1 s (1,694 cells of
# 30 types; 0.8 s without). With the value control on, a request may hold at most MAX_VALUE_TYPES entity types, and
# a comparison at most MAX_VALUE_CELLS cells a system (counted before the score).
MAX_VALUE_TYPES = 10_000
MAX_VALUE_CELLS = 40_000

# What one answer shows; the scores always cover every sentence. Together these keep an answer under 3 MB
# whatever the 1 MB input (tokens and types that HTML-escape to six bytes a character are the worst found; the
# tests measure two hostile inputs), where uncapped one answer was 22 MB.
MAX_TABLE_ROWS = 1_000  # scenario rows
MAX_SHOWN_TYPES = 50  # entity types in the per-type table (four rows each), the most frequent first
MAX_SHOWN_SENTENCES = 100  # sentences (or documents) drawn with their entities highlighted ...
MAX_SHOWN_TOKENS = 2_000  # ... and at most this many tokens of them in all
MAX_TEXT_CHARACTERS = 30  # of one token, entity text or entity type in a table cell or a drawn sentence
MAX_ERROR_ROWS = 20  # the most frequent errors by entity text and type (docs/scoring.md §11) in their table
MAX_MESSAGE_CHARACTERS = 500  # of an error message, which may quote a line of the input
# Of the drawn documents of spans: at most this many characters of text in all, and this many entities of each side.
MAX_SHOWN_CHARACTERS = 20_000
MAX_SHOWN_ENTITIES = 2_000
MAX_SHOWN_DEPTH = 20  # marks drawn inside one another; entities nested deeper are left out of the drawing

# The pictures: types shown in the confusion heatmap (the rest folded into one "other" row and column) and in
# the per-type F1 chart, the most frequent first; and the characters of a type name on the chart's axis and on
# the heatmap's, which names it twice.
MAX_HEATMAP_TYPES = 12
# Buckets of each slice drawn in the slices picture (entity length, sentence length: docs/scoring.md §11); the
# page uses the default edges, six and five buckets, so this only guards the drawing.
MAX_SLICE_BUCKETS = 8
MAX_CHART_TYPES = 15
MAX_LABEL_CHARACTERS = 24
MAX_HEATMAP_LABEL_CHARACTERS = 16
# Pictures kept drawn (PNG data URLs of 15-40 KB, so about 2 MB at most), by the numbers they show: a click on an
# example or a control shown before answers without drawing again (space/pictures.py).
PICTURE_CACHE = 64

# Lanes (space/lanes.py). A request of at most SMALL_REQUEST_BYTES (its text, or the uploaded file) runs in the
# small lane, any other in the large one, each with its own workers, so that a one-line request never waits
# behind large ones (one pool for all had it wait 31 s behind four 13 KB requests). More workers than cores add no
# speed (the work holds Python's lock) and a 1 MB request leaves the server 35-60 MB larger (benchmarks/space.py),
# so the large lane runs two (four at once, as before, took the server 220 MB above its warm size). A lane
# holding LANE_WAITING requests waiting answers the next one that the page is busy, so that waiting is bounded
# too (each waits in one of Gradio's 40 worker threads).
SMALL_REQUEST_BYTES = 4_000
SMALL_LANE_WORKERS = 2
LARGE_LANE_WORKERS = 2
LANE_WAITING = 8

# Comparing two systems: the resamples of the interval and of the test, the seed and the confidence level. 2,000
# resamples compare a 1 MB input of 10,000 sentences in about 1.3 s here, against 5 s for the command line's
# 10,000; p is then never below 1 / 2,001.
COMPARE_RESAMPLES = 2_000
COMPARE_SEED = 0
COMPARE_CONFIDENCE_LEVEL = 0.95

# The Agreement task (space/agreement.py): every pair of annotators is scored, so the work grows with the pairs
# times the units (tokens, or characters of a Label Studio export's texts). Eight annotators (28 pairs) on
# 100,000 tokens took 5.4 s here, two on as many 0.24 s; at most MAX_AGREEMENT_WORK units times pairs keeps a
# request near 2 s.
MAX_AGREEMENT_ANNOTATORS = 8
MAX_AGREEMENT_WORK = 1_000_000
# ... and the labels (distinct tags, or entity types of spans) of all annotators, which the pairs' counts are summed
# over: 8 annotators on 25,000 tokens took 3 s with 4 types, 7.4 s with 1,000 and 12.6 s with 5,000 before the
# package's pooled tally (fastsums); now 8 annotators on 1 MB (18,000-29,000 tokens) take 2.7 s with 4, 3.1 s with
# 400, 2.8 s with 2,000 and 4.0 s with 5,000 (`python benchmarks/space.py --caps`, load 4-5). The costliest request
# found is at the work cap with short tags (8 annotators, 35,714 tokens of 4 tags): 1.8-1.9 s of CPU (4.0-6.6 s at
# load 6-8).
MAX_AGREEMENT_LABELS = 2_000
# An uploaded ZIP archive of the annotators' files (space/archives.py: BRAT folders, doccano's export): at most
# MAX_BYTES packed and as many unpacked (counted as unpacked), in at most MAX_ARCHIVE_FILES files. Writing the files
# to the temporary folder is most of the cost: 2,000 (BRAT, 2 annotators x 500 documents, or 8 x 125) took 0.4-0.7 s
# of CPU and 1.1-1.9 s here under load, 5,000 2.4-3.8 s of CPU and 6.6-8.4 s.
MAX_ARCHIVE_FILES = 2_000
# ... and at most MAX_ARCHIVE_DEPTH folders deep: annotation tools write two or three; pathlib creates each missing
# folder by recursion, so 1,000 (2 KB of names) raised RecursionError.
MAX_ARCHIVE_DEPTH = 32
