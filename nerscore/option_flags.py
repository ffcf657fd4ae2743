"""What each command-line flag's text reads as, before the option's own check (`nerscore.option_checks`) sees it:
the files of ``--value`` and ``--seen``, ``--labels``, ``--partial-credit`` and the comma-separated lists. The
table (`nerscore.options`) names these as its flags' `parse`; a bad text is argparse's `ArgumentTypeError`, said
in the flag's terms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO

from .option_checks import OVERLAP, VALUE_PRESETS

# How a message names standard input, as Python does.
STDIN = "<stdin>"


def flag_error(message: str) -> Exception:
    """A flag's bad value: argparse shows an `ArgumentTypeError`'s message as it is, not "invalid value"."""
    from argparse import ArgumentTypeError

    return ArgumentTypeError(message)


def file_text(path: str, flag: str = "") -> str:
    """A flag's file as text (`flag`, the words its errors start with)."""
    try:
        with open(path, "rb") as file:
            raw = file.read()
    except OSError as error:
        raise flag_error(f"{flag}cannot read {path}: {error}") from None
    return decoded(raw, path, flag)


def decoded(raw: bytes, name: str, flag: str = "") -> str:
    """A flag's file's bytes as text. A byte-order mark is no part of the text (it was: --seen left its first entity
    unseen, silently; --value refused "Unexpected UTF-8 BOM"), and a byte that is not UTF-8 is named with its line
    (the decoder's message gave a byte position alone)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise flag_error(f"{flag}cannot read {name}: line {line}: byte {raw[error.start]:#04x} is not UTF-8") from None


@dataclass(frozen=True)
class FromStandardInput:
    """A file flag given ``-``: standard input, read by `read_standard_input` once the command has made sure that
    nothing else of the call reads it (a stream is read once: --seen - would leave FILE none, silently)."""

    flag: str
    reading: Callable[[str, str], Any]  # (the text, how a message names it) -> the flag's value


def given_standard_input(args: Any) -> list[str]:
    """The flags of the parsed `args` given ``-`` (`FromStandardInput`)."""
    return [value.flag for value in vars(args).values() if isinstance(value, FromStandardInput)]


def read_standard_input(parser: Any, args: Any, stream: Callable[[str], BinaryIO]) -> None:
    """Each flag of `args` given ``-`` set to its reading of `stream(what)`'s bytes (the command's standard input);
    a bad text is `parser`'s error in argparse's words ("argument --value: ...", exit status 2), as a file's is."""
    from argparse import ArgumentTypeError

    for name, value in vars(args).items():
        if isinstance(value, FromStandardInput):
            try:
                raw = as_bytes(stream(f"{value.flag}'s file").read())
                setattr(args, name, value.reading(decoded(raw, STDIN), STDIN))
            except ArgumentTypeError as error:
                parser.error(f"argument {value.flag}: {error}")


def as_bytes(content: bytes | str) -> bytes:
    """Standard input's content as bytes: a text stream's (an embedder's) encoded, a lone surrogate kept as bytes that
    no UTF-8 decodes, so that the reader names its line as it names a bad byte."""
    return content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content


def seen_flag(path: str) -> list[str] | FromStandardInput:
    """--seen FILE: one entity text a line (blank lines skipped, the line's ends stripped); - standard input."""
    return FromStandardInput("--seen", _seen_lines) if path == "-" else _seen_lines(file_text(path), path)


def _seen_lines(text: str, name: str) -> list[str]:
    # Lines as a text file's are read (universal newlines: \n, \r\n, \r), not str.splitlines' (\f, U+2028 ...).
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
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
    """`--value`: a preset's name, ``true`` for the default weights, else a JSON file of weights (- standard input)."""
    if text.lower() in VALUE_PRESETS:
        return text
    if text.lower() == "true":
        return True
    if text == "-":
        return FromStandardInput("--value", _weights)
    return _weights(file_text(text, _VALUE), text)


_VALUE = f"--value takes a preset ({', '.join(VALUE_PRESETS)}), true or a JSON file of weights: "


def _weights(text: str, name: str) -> Any:
    import json

    try:
        return json.loads(text)  # (its own errors are no ValueError: argparse's, said as they are)
    except json.JSONDecodeError as error:  # (named by the file, its line and column, as a bad line elsewhere is)
        raise flag_error(f"{_VALUE}{name}: line {error.lineno} column {error.colno}: {error.msg}") from None
    except (ValueError, RecursionError) as error:  # (JSON nested too deep: RecursionError)
        raise flag_error(f"{_VALUE}{name}: {error}") from None


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
