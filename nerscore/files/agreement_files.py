"""``ner-semeval agreement``: the annotators' files read in the layout their paths tell (`file_format`,
docs/agreement.md; the readers are `nerscore.files.annotator_readers` and `nerscore.files.annotator_exports`), then
`nerscore.agreement`'s pairwise table and coefficients printed (or its dict, with ``--json``). BRAT's discontinuous
annotations are read by their full extent, a note on standard error saying how many, or with ``--fragments`` by
their fragments (docs/scoring.md §12). The option table's flags go on a parser here, for this command and
``ner-semeval``'s.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from ..agreement import REFUSED_OPTIONS, agreement
from ..errors import InvalidInputError, shown
from ..option_flags import read_standard_input
from ..options import SPECS, flag_name
from .annotator_exports import read_doccano_annotators, read_label_studio_annotators
from .annotator_readers import (
    AnnotatorBatches,
    brat_annotators,
    check_paths,
    checked_names,
    read_brat_annotators,
    read_conll_annotators,
    read_jsonl_annotators,
)
from .readers import ConllError, checked_path, json_file_records, print_error, print_output, standard_input

if TYPE_CHECKING:
    import argparse

# Options the agreement command takes: every flag of the option table but the slices' (agreement refuses them).
_FLAGS = [name for name, spec in SPECS.items() if spec.flag is not None and name not in REFUSED_OPTIONS]
FORMATS = ("conll", "brat", "label-studio", "doccano", "jsonl")
# How each layout tells its annotators apart: what a path of one annotator lacks.
_ANNOTATORS_TOLD = {
    "conll": "one tag column each after the token, or one file each",
    "brat": "one folder each",
    "label-studio": "each task's annotations, told apart by completed_by",
    "doccano": "one file each",
    "jsonl": "named by each line's annotations",
}


def _holds_annotations(path: str) -> bool:
    """Whether the file's first non-blank line is a JSON object with an ``annotations`` key (doccano's have none)."""
    try:
        first = next(json_file_records(path, ""), None)
    except (OSError, ValueError):  # (a ConllError too)
        return False
    return first is not None and isinstance(first[2], dict) and "annotations" in first[2]


def file_format(paths: Sequence[str]) -> str:
    """The layout of `paths`: folders are BRAT, one ``.json`` file Label Studio, ``.jsonl`` files doccano (one
    ``.jsonl`` file whose first line holds ``"annotations"``: every annotator's spans on each line), the rest
    CoNLL."""
    if isinstance(paths, (str, bytes, os.PathLike)) or not isinstance(paths, Sequence):
        raise InvalidInputError(f"paths is {shown(paths)}; expected a list of files or folders ([path] for one)")
    paths = [checked_path(path, "each of paths a file or folder") for path in paths]
    if all(os.path.isdir(path) for path in paths):
        return "brat"
    if len(paths) == 1 and paths[0].lower().endswith(".json"):
        return "label-studio"
    if all(path.lower().endswith(".jsonl") for path in paths):
        return "jsonl" if len(paths) == 1 and _holds_annotations(paths[0]) else "doccano"
    return "conll"


def read_annotators(
    paths: Sequence[str], form: str | None = None, fragments: bool = False, *, max_annotators: int | None = None
) -> AnnotatorBatches:
    """The annotators' files of one of `FORMATS`, as ``ner-semeval agreement`` reads them (`form`: the layout,
    else told by the paths, `file_format`). `fragments`: BRAT's discontinuous annotations by their fragments, as
    `read_brat_annotators` reads them (the other layouts write none: JSON lines give span dicts with
    ``fragments`` as they are, docs/scoring.md §12). `max_annotators`: as the readers of one file of every
    annotator take it (`read_label_studio_annotators`, `read_jsonl_annotators`)."""
    paths = check_paths(paths, "one path per annotator, or [path] of one file holding them all")
    if form is not None and not (isinstance(form, str) and form in ("", *FORMATS)):  # (read as CoNLL before)
        raise ValueError(f"form is {shown(form)}; expected None (told by the paths) or one of {', '.join(FORMATS)}")
    form = form or file_format(paths)
    if fragments and form != "brat":
        raise ValueError(
            f"fragments=True reads BRAT's discontinuous annotations (START END;START END); the paths are {form}, "
            "whose entities have none (JSON lines give span dicts with 'fragments' as they are)"
        )
    if form == "brat":
        return read_brat_annotators(paths, fragments)
    if form == "label-studio":
        if len(paths) != 1:
            raise ValueError("a Label Studio export is one file holding every annotator's annotations: give one")
        return read_label_studio_annotators(paths[0], max_annotators=max_annotators)
    if form == "doccano":
        return read_doccano_annotators(paths)
    if form == "jsonl":
        if len(paths) != 1:
            raise ValueError("JSON lines of every annotator's spans are one file holding every annotator: give one")
        return read_jsonl_annotators(paths[0], max_annotators=max_annotators)
    return read_conll_annotators(paths)


def build_parser(prog: str) -> argparse.ArgumentParser:
    """The agreement command's arguments: the paths, the layout, --json and the option table's scoring flags."""
    import argparse

    parser = argparse.ArgumentParser(
        prog=prog,
        description="How far annotators agree (docs/agreement.md): pairwise F, Cohen's and Fleiss' kappa, "
        "Krippendorff's alpha.",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        help="BRAT folders (one per annotator), a Label Studio JSON export, doccano JSONL files (one per "
        "annotator), one JSONL file of every annotator's spans, a CoNLL file with one tag column per annotator, "
        "or CoNLL files (one per annotator)",
    )
    parser.add_argument("--format", choices=FORMATS, help="the files' layout (default: told by the paths)")
    parser.add_argument(
        "--names", metavar="A,B,...", help="the annotators' names, comma-separated, in the order they are read"
    )
    parser.add_argument("--json", action="store_true", help="print agreement()'s dict as JSON")
    parser.add_argument(
        "--fragments",
        action="store_true",
        help="BRAT folders: a discontinuous annotation (START END;START END) by its fragments (their units), not "
        "its full extent (docs/scoring.md §12)",
    )
    add_option_flags(parser, _FLAGS)
    return parser


def add_option_flags(parser: argparse.ArgumentParser, names: Iterable[str], more_help: Mapping[str, str] = {}) -> None:
    """The flags (`Spec.flag`) of the options `names` added to `parser`, each with its help and `more_help`'s
    words for it: the agreement command's and ``ner-semeval``'s."""
    for name in names:
        flag = SPECS[name].flag
        assert flag is not None
        option, help_text = flag_name(name), flag.help + more_help.get(name, "")
        if flag.switch:
            parser.add_argument(option, dest=name, action="store_true", help=help_text)
        else:
            parser.add_argument(
                option, dest=name, metavar=flag.metavar, type=flag.parse, choices=flag.choices, help=help_text
            )


def parse_flags(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """`parser.parse_args(argv)`, whose refusal of an unknown flag also names the flag meant: the Python option's
    spelling (``--per_type``) or a letter off (``--schme``), as `compute_semeval` names an option misspelt. The
    agreement command's and ``ner-semeval``'s."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # argparse's own words first (parse_args says the same), then the hints
        import difflib  # here: only a refused command line pays for it

        flags = [flag for action in parser._actions for flag in action.option_strings if flag.startswith("--")]
        hints: list[str] = []
        for argument in unknown[:10]:  # the first few: a hint per flag of a long command line is noise
            given = argument.split("=", 1)[0]
            meant = (
                given.startswith("--")
                and len(given) <= 100
                and difflib.get_close_matches(given.replace("_", "-"), flags, n=1, cutoff=0.7)
            )
            hints.extend(f"; {given}: did you mean {flag}?" for flag in meant or ())
        parser.error(f"unrecognized arguments: {' '.join(unknown)}{''.join(hints)}")
    return args


def given_options(args: argparse.Namespace, names: Iterable[str]) -> dict[str, Any]:
    """The options of `names` given on the command line: the table's defaults are `Options`' own."""
    return {name: value for name in names if (value := getattr(args, name)) is not None and value is not False}


def format_agreement(result: dict[str, Any]) -> str:
    """The text the command prints: each pair's F per scheme and Cohen's κ, the means, the pooled F and the
    coefficients."""
    schemes = [key.removesuffix("_mean").split("_")[0] for key in result if key.endswith("_mean")]
    f_name = next(key for key in result if key.endswith("_mean")).split("_")[1]
    width = max([len(f"{pair['a']} - {pair['b']}") for pair in result["pairs"]] + [12])
    header = f"{'pair':<{width}}" + "".join(f"{scheme:>9}" for scheme in schemes) + f"{'kappa':>9}{'labelled':>10}"
    lines = [header]
    for pair in result["pairs"]:
        row = f"{pair['a'] + ' - ' + pair['b']:<{width}}"
        row += "".join(f"{pair[f'{scheme}_{f_name}']:>9.4f}" for scheme in schemes)
        row += f"{pair['cohen_kappa']:>9.4f}{pair['cohen_kappa_labelled']:>10.4f}"
        lines.append(row)
    for kind in ("mean", "pooled"):
        lines.append(
            f"{kind + ' ' + f_name:<{width}}" + "".join(f"{result[f'{s}_{f_name}_{kind}']:>9.4f}" for s in schemes)
        )
    lines.append("")
    for scheme in schemes:  # with --bootstrap: each mean F's interval
        key = f"{scheme}_{f_name}_mean"
        if f"{key}_low" in result:
            lines.append(f"{key + ':':<22}{result[key]:.4f}{_interval(result, key)}")
    for name, key in (("Fleiss' kappa", "fleiss_kappa"), ("Krippendorff's alpha", "krippendorff_alpha")):
        line = f"{name + ':':<22}{result[key]:.4f}{_interval(result, key)}"
        lines.append(line + f"   labelled units only: {result[f'{key}_labelled']:.4f}")
    lines.append(f"{'units:':<22}{result['units']}   labelled (not O by some annotator): {result['units_labelled']}")
    for pair in result["pairs"]:
        if not pair.get("errors"):
            continue
        # With --errors: where the pair disagrees, most frequent first (docs/scoring.md §11), a's side first.
        lines += ["", f"{pair['a']} - {pair['b']}: disagreements (count, scenario, {pair['a']}, {pair['b']})"]
        for row in pair["errors"]:
            sides = [
                "-" if text is None else f"{text} ({kind})"
                for text, kind in (
                    (row["reference_text"], row["reference_type"]),
                    (row["predicted_text"], row["predicted_type"]),
                )
            ]
            lines.append(f"{row['count']:>6}  {row['scenario']:<4}{sides[0]}  |  {sides[1]}")
    return "\n".join(lines) + "\n"


def _interval(result: Mapping[str, Any], key: str) -> str:
    """`` [low, high]`` of a key of the agreement's dict that has an interval (with --bootstrap), else nothing."""
    return f" [{result[f'{key}_low']:.4f}, {result[f'{key}_high']:.4f}]" if f"{key}_low" in result else ""


def agreement_main(argv: Sequence[str], prog: str = "ner-semeval agreement") -> int:
    """``ner-semeval agreement PATH ...``: reads the annotators' files, prints the pairwise table and the
    coefficients (or, with ``--json``, the dict); returns the exit status (2 for bad files or options)."""
    from .reports import print_json  # here: the command line's printing stays out of `import nerscore`

    parser = build_parser(prog)
    args = parse_flags(parser, argv)
    if "-" in args.paths:  # (never a file named "-": "No such file or directory: '-'" said nothing of why)
        parser.error(
            f"path {args.paths.index('-') + 1} is - (standard input), which agreement does not read: the paths tell "
            "the files' layout and name the annotators; give each file or folder by name (a command's output: "
            "<(command))"
        )
    # (--seen -, --value -: the paths are files or folders, so standard input is the flag's alone)
    read_standard_input(parser, args, partial(standard_input, prog))
    read = None
    options = given_options(args, _FLAGS)
    form = args.format or file_format(args.paths)
    if args.fragments and form != "brat":
        parser.error(f"--fragments reads BRAT folders' discontinuous annotations; the paths are {form}")
    try:
        discontinuous: dict[str, int] = {}  # BRAT's, by annotator, for the note
        if form == "brat":
            read, discontinuous = brat_annotators(args.paths, args.fragments)
        else:
            read = read_annotators(args.paths, form)
        if len(read.annotations) < 2 and len(args.paths) == 1:  # (agreement's own message names no file)
            found = ", ".join(shown(name, 60) for name in read.annotations) or "none"
            raise ConllError(
                args.paths[0],
                None,
                f"found {len(read.annotations)} annotator{'' if len(read.annotations) == 1 else 's'} ({found}); "
                f"expected at least two to compare, "
                f"{_ANNOTATORS_TOLD[form]}",
            )
        if args.names is not None:
            # Each name non-empty and given once ('a,a,b' was "3 distinct names for 3 annotators"; ',' two names '').
            names = checked_names([name.strip() for name in args.names.split(",")], "--names")
            if len(names) != len(read.annotations):
                parser.error(f"--names gives {len(names)} names for {len(read.annotations)} annotators")
            read = read._replace(annotations=dict(zip(names, read.annotations.values())))
            discontinuous = dict(zip(names, discontinuous.values()))
        if sum(discontinuous.values()):
            from .file_counts import note_discontinuous  # the command line's module: loaded when a command runs

            note_discontinuous(discontinuous, args.fragments)
        result = agreement(read.annotations, texts=read.texts, tokens=read.tokens, **options)
    except InvalidInputError as error:
        where = ""
        if read is not None and error.sentence is not None and error.sentence < len(read.documents):
            # (the annotator's own file where each has one: the first file's line of a tag of another misled)
            sides = [f"annotations[{name!r}]" for name in read.annotations]
            places = read.places[sides.index(error.side)] if read.places and error.side in sides else read.documents
            where = f" ({places[error.sentence]})"
            if read.tokens is not None and error.token is not None:  # CoNLL: a sentence's lines are consecutive
                source, _, first = places[error.sentence].rpartition(":")
                where = f" ({source}:{int(first) + error.token})"
        return print_error(error, where)
    except (OSError, ValueError) as error:  # (a folder among files: this command has no --brat)
        return print_error(error, folder=" (a folder: BRAT folders are read when every path is one, one per annotator)")
    return print_output(lambda: print_json(result) if args.json else sys.stdout.write(format_agreement(result)))
