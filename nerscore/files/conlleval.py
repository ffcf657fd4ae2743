"""conlleval.pl's own reading and report, for ``ner-semeval --conlleval``: byte for byte what the CoNLL shared
tasks' Perl script (version 2004-01-26) prints for the same input and flags.

This is not the metric of docs/scoring.md (§1-§5 do not apply): the file is read as conlleval.pl reads it, any tag
accepted, its own chunk boundaries, `-X-` and empty lines ending a sentence, ``-DOCSTART-`` an ordinary token, so
that the training scripts that parse its output can switch without a change. Everything is bytes, as in Perl
without an encoding layer: a type's column width counts bytes, and a file that is not UTF-8 is read all the same.

What conlleval.pl does, rule by rule (written from its documented behaviour and checked against the script on
generated files; the tests hold the documented examples):

- A line is split on the delimiter (`-d`, a regular expression, one space by default) as Perl's ``split`` splits:
  an empty leading field stays, empty trailing fields go, a match must end past the start of its field (so a
  pattern that matches the empty string splits between characters), captured groups are fields too.
- The first line that has fields fixes their number; a later line with fields and another number ends the run
  (status 1). An empty line (no fields), or one whose first field is ``-X-``, is a sentence boundary: it counts
  as ``-X- O O`` and is no token. A line of one field ends the run (status 255).
- The last field is the guess, the one before it the truth. With `-r` each tag equal to the outside tag (`-o`)
  becomes ``O`` and every other tag ``B-`` + the tag. A tag splits at its first hyphen into a prefix and a type
  (no hyphen: the whole tag is the prefix, the type empty); a type ``0`` is empty, as Perl takes ``"0"`` for false.
- A chunk starts (ends) between two tags by conlleval's table of prefix pairs (B or I after O, B after B or I, E
  and I after E, E after O; its ends likewise), at a change of type unless the tag is ``O`` or ``.``, and always
  at a ``[`` or ``]`` prefix (one-token chunks). A chunk is correct when both sides start it together with one
  type and end it together.
- Types are reported in byte order; the empty type is listed once for each side it was found on (Perl's
  ``not($lastType)`` is true for an empty string).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from .perl_patterns import DIE_STATUS, USAGE_STATUS, ConllevalError, splitter

BOUNDARY = b"-X-"
OUTSIDE = b"O"
# Exit status of conlleval.pl's `exit(1)` for a line with another number of fields (Perl's `die`: DIE_STATUS).
FIELD_COUNT_STATUS = 1

# conlleval.pl's startOfChunk and endOfChunk tables of (previous prefix, prefix) pairs.
_STARTS = frozenset({(b"B", b"B"), (b"I", b"B"), (b"O", b"B"), (b"O", b"I"), (b"E", b"E"), (b"E", b"I"), (b"O", b"E")})
_ENDS = frozenset({(b"B", b"B"), (b"B", b"O"), (b"I", b"B"), (b"I", b"O"), (b"E", b"E"), (b"E", b"I"), (b"E", b"O")})
_NO_TYPE_CHANGE = (b"O", b".")  # prefixes at which a change of type neither starts nor ends a chunk
_ONE_TOKEN = (b"[", b"]")  # prefixes of chunks one token long


@dataclass(frozen=True)
class ConllevalCounts:
    """What conlleval.pl counts: tokens and tokens whose two tags are equal; phrases (chunks) per type in the
    truth (`found_correct`), in the guess (`found_guessed`), and those guessed right (`correct_chunks`)."""

    tokens: int = 0
    correct_tags: int = 0
    found_correct: dict[bytes, int] = field(default_factory=dict)
    found_guessed: dict[bytes, int] = field(default_factory=dict)
    correct_chunks: dict[bytes, int] = field(default_factory=dict)

    @property
    def types(self) -> list[bytes]:
        """The types in conlleval.pl's order and repetition (see the module's docstring)."""
        listed: list[bytes] = []
        last: bytes | None = None
        for entity_type in sorted([*self.found_correct, *self.found_guessed]):
            if not last or last != entity_type:  # Perl's `not($lastType)`: an empty type is listed again
                listed.append(entity_type)
            last = entity_type
        return listed


def _split_tag(tag: bytes) -> tuple[bytes, bytes]:
    """(prefix, type) at the first hyphen; Perl's false string ``0`` as a type is no type."""
    prefix, hyphen, entity_type = tag.partition(b"-")
    if not hyphen:
        return tag, b""
    return prefix, b"" if entity_type == b"0" else entity_type


def _starts(previous: bytes, prefix: bytes, previous_type: bytes, entity_type: bytes) -> bool:
    return (
        prefix in _ONE_TOKEN
        or (prefix not in _NO_TYPE_CHANGE and previous_type != entity_type)
        or (previous, prefix) in _STARTS
    )


def _ends(previous: bytes, prefix: bytes, previous_type: bytes, entity_type: bytes) -> bool:
    return (
        previous in _ONE_TOKEN
        or (previous not in _NO_TYPE_CHANGE and previous_type != entity_type)
        or (previous, prefix) in _ENDS
    )


def count_conlleval(
    lines: Iterable[bytes], delimiter: bytes = b" ", outside: bytes = OUTSIDE, raw: bool = False
) -> ConllevalCounts:
    """conlleval.pl's counts of `lines` (each with or without its ``\\n``), with its flags `-d`, `-o` and `-r`;
    raises `ConllevalError` where conlleval.pl stops (a line with another number of fields, or of one field)."""
    split = splitter(delimiter)
    width: int | None = None
    tokens = correct_tags = 0
    found_correct: Counter[bytes] = Counter()
    found_guessed: Counter[bytes] = Counter()
    correct_chunks: Counter[bytes] = Counter()
    in_correct = False
    last_correct = last_guessed = OUTSIDE
    last_correct_type = last_guessed_type = b""
    for line in lines:
        line = line[:-1] if line.endswith(b"\n") else line  # Perl's chomp
        fields = split(line)
        if width is None:
            width = len(fields) or None  # an empty first line fixes nothing
        elif fields and len(fields) != width:
            message = f"unexpected number of features: {len(fields)} ({width})\n"
            raise ConllevalError(message.encode(), FIELD_COUNT_STATUS)
        if not fields or fields[0] == BOUNDARY:
            fields = [BOUNDARY, OUTSIDE, OUTSIDE]
        if len(fields) < 2:
            raise ConllevalError(b"conlleval: unexpected number of features in line " + line + b"\n", DIE_STATUS)
        guess, truth = fields[-1], fields[-2]
        if raw:
            guess, truth = (OUTSIDE if tag == outside else tag for tag in (guess, truth))
            guess, truth = (tag if tag == OUTSIDE else b"B-" + tag for tag in (guess, truth))
        guessed, guessed_type = _split_tag(guess)
        correct, correct_type = _split_tag(truth)
        # Of a line of two fields no first field is left: it is never the boundary.
        boundary = len(fields) > 2 and fields[0] == BOUNDARY
        if boundary:
            guessed = OUTSIDE

        if in_correct:
            correct_ends = _ends(last_correct, correct, last_correct_type, correct_type)
            guessed_ends = _ends(last_guessed, guessed, last_guessed_type, guessed_type)
            if correct_ends and guessed_ends and last_guessed_type == last_correct_type:
                in_correct = False
                correct_chunks[last_correct_type] += 1
            elif correct_ends != guessed_ends or guessed_type != correct_type:
                in_correct = False
        correct_starts = _starts(last_correct, correct, last_correct_type, correct_type)
        guessed_starts = _starts(last_guessed, guessed, last_guessed_type, guessed_type)
        if correct_starts and guessed_starts and guessed_type == correct_type:
            in_correct = True
        if correct_starts:
            found_correct[correct_type] += 1
        if guessed_starts:
            found_guessed[guessed_type] += 1
        if not boundary:
            correct_tags += correct == guessed and guessed_type == correct_type
            tokens += 1
        last_correct, last_guessed = correct, guessed
        last_correct_type, last_guessed_type = correct_type, guessed_type
    if in_correct:
        correct_chunks[last_correct_type] += 1
    return ConllevalCounts(tokens, correct_tags, dict(found_correct), dict(found_guessed), dict(correct_chunks))


def _scores(counts: ConllevalCounts, entity_type: bytes | None = None) -> tuple[float, float, float]:
    """Precision, recall and FB1 in percent of one type (of all types by default), as conlleval.pl computes them
    in floating point (0 for 0/0)."""
    correct, guessed, truth = (
        sum(by_type.values()) if entity_type is None else by_type.get(entity_type, 0)
        for by_type in (counts.correct_chunks, counts.found_guessed, counts.found_correct)
    )
    precision = 100 * correct / guessed if guessed > 0 else 0.0
    recall = 100 * correct / truth if truth > 0 else 0.0
    fb1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, fb1


def format_conlleval(counts: ConllevalCounts, latex: bool = False) -> bytes:
    """conlleval.pl's report of `counts`: its summary lines and a line per type, or with `latex` (`-l`) its
    LaTeX table rows. Perl's ``%6.2f`` and Python's round alike (correctly, half to even on the binary value)."""
    if latex:
        out = [b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline"]
        out += [
            b"\n%-7s &  %6.2f\\%% & %6.2f\\%% & %6.2f \\\\" % (entity_type, *_scores(counts, entity_type))
            for entity_type in counts.types
        ]
        out.append(b"\\hline\n")
        out.append(b"Overall &  %6.2f\\%% & %6.2f\\%% & %6.2f \\\\\\hline\n" % _scores(counts))
        return b"".join(out)
    phrases = (sum(by_type.values()) for by_type in (counts.found_correct, counts.found_guessed, counts.correct_chunks))
    out = [b"processed %d tokens with %d phrases; found: %d phrases; correct: %d.\n" % (counts.tokens, *phrases)]
    if counts.tokens > 0:
        accuracy = 100 * counts.correct_tags / counts.tokens
        out.append(
            b"accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n" % (accuracy, *_scores(counts))
        )
    for entity_type in counts.types:
        found = counts.found_guessed.get(entity_type, 0)
        scores = _scores(counts, entity_type)
        out.append(b"%17s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n" % (entity_type, *scores, found))
    return b"".join(out)


def lines_of(handles: Iterable[Iterable[bytes | str]]) -> Iterator[bytes]:
    """The lines of several binary files read one after the other, as ``cat A B | conlleval.pl`` reads them: a
    last line without its ``\\n`` goes on into the next file's first line. A text stream's lines (an embedder's
    standard input, without bytes beneath) are its UTF-8 bytes, as Perl would read them; a character UTF-8 cannot
    hold (a lone surrogate) is a `ConllevalError` naming the line, with the command line's bad-input status."""
    pending = b""
    for handle in handles:
        for number, line in enumerate(handle, start=1):
            if isinstance(line, str):
                line = _encoded(line, number)
            if pending:
                line, pending = pending + line, b""
            if line.endswith(b"\n"):
                yield line
            else:
                pending = line
    if pending:
        yield pending


def _encoded(line: str, number: int) -> bytes:
    """A text stream's line as the bytes conlleval.pl would read: UTF-8 (undecodable bytes a stream kept as
    surrogates, ``surrogateescape``, as they were)."""
    try:
        return line.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as error:
        message = f"error: <stdin>:{number}: character {ord(line[error.start]):#06x} at column {error.start + 1} "
        message += "is no text UTF-8 can hold (a lone surrogate); expected text\n"
        raise ConllevalError(message.encode(), USAGE_STATUS) from None
