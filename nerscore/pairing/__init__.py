"""Pairing and its solvers: the exact flows and graph algorithms, large components of nested entities, the pairing
rules (a)-(d) (docs/scoring.md §3), and the value score's own pairing (§10)."""
