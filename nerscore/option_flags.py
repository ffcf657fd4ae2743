"""What each command-line flag's text reads as, before the option's own check (`nerscore.option_checks`) sees it:
the files of ``--value`` and ``--seen``, ``--labels``, ``--partial-credit`` and the comma-separated lists. The
table (`nerscore.options`) names these as its flags' `parse`; a bad text is argparse's `ArgumentTypeError`, said
in the flag's terms.
"""

from __future__ import annotations

from typing import Any

from .option_checks import OVERLAP, VALUE_PRESETS


def flag_error(message: str) -> Exception:
    """A flag's bad value: argparse shows an `ArgumentTypeError`'s message as it is, not "invalid value"."""
    from argparse import ArgumentTypeError

    return ArgumentTypeError(message)


def file_text(path: str, flag: str = "") -> str:
    """A flag's file as text (`flag`, the words its errors start with). A byte-order mark is no part of the text
    (it was: --seen left its first entity unseen, silently; --value refused "Unexpected UTF-8 BOM"), and a byte
    that is not UTF-8 is named with its line (the decoder's message gave a byte position alone)."""
    if path == "-":  # (never a file named "-"; standard input is the scored files' when no FILE is given)
        raise flag_error(f"{flag}cannot read - (standard input, the scored files' without FILE): give a file's name")
    try:
        with open(path, "rb") as file:
            raw = file.read()
    except OSError as error:
        raise flag_error(f"{flag}cannot read {path}: {error}") from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise flag_error(f"{flag}cannot read {path}: line {line}: byte {raw[error.start]:#04x} is not UTF-8") from None


def seen_flag(path: str) -> list[str]:
    """--seen FILE: one entity text a line (blank lines skipped, the line's ends stripped)."""
    # Lines as a text file's are read (universal newlines: \n, \r\n, \r), not str.splitlines' (\f, U+2028 ...).
    lines = file_text(path).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [line.strip() for line in lines if line.strip()]


def partial_credit_flag(text: str) -> float | str:
    """`--partial-credit`: ``overlap``, or a number (the option's check then says whether it is from 0 to 1)."""
    if text.lower() == OVERLAP:
        return text
    try:
        return float(text)
    except ValueError:
        raise flag_error(f"takes a number from 0 to 1 or {OVERLAP}, found {text!r}") from None


def value_flag(text: str) -> Any:
    """`--value`: a preset's name, ``true`` for the default weights, else a JSON file of weights."""
    import json

    if text.lower() in VALUE_PRESETS:
        return text
    if text.lower() == "true":
        return True
    flag = f"--value takes a preset ({', '.join(VALUE_PRESETS)}), true or a JSON file of weights: "
    try:
        return json.loads(file_text(text, flag))  # (its own errors are no ValueError: argparse's, said as they are)
    except json.JSONDecodeError as error:  # (named by the file, its line and column, as a bad line elsewhere is)
        raise flag_error(f"{flag}{text}: line {error.lineno} column {error.colno}: {error.msg}") from None
    except (ValueError, RecursionError) as error:  # (JSON nested too deep: RecursionError)
        raise flag_error(f"{flag}{text}: {error}") from None


def comma_list(text: str) -> list[str]:
    return [item for item in text.split(",") if item]


def labels_flag(text: str) -> list[str]:
    """`--labels`: entity types, comma-separated; none at all is refused here, in the flag's name (the option's
    own check says `labels=[]`, as a Python caller writes it)."""
    labels = comma_list(text)
    if not labels:
        raise flag_error(
            f"found {text!r}, which names no entity type, so every count would be zero; expected entity types, "
            "comma-separated (PER,LOC), or no --labels for every type"
        )
    return labels
