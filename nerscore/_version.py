"""The package's version, in one place (pyproject.toml reads it; ner_semeval.py checks it)."""

__version__ = "0.3.0"
