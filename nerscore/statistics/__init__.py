"""The statistics (docs/scoring.md §9): each unit's counts, the resampled keys, the bootstrap and the paired swap,
compare_semeval's test, and several runs."""
