"""``python -m nerscore [FILE ...]``: the command line (`nerscore.cli`), as ``ner-semeval`` runs it."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m nerscore"))
