"""`ner-semeval --hipe GOLD SYSTEM`: a HIPE response scored against its gold on the command line (docs/hipe.md).

Our summary of a column (its entities as the HIPE scorer decodes them, a unit per document, paired by
docs/scoring.md §3, or as the scorer with the option table's `--pairing hipe`), or with `--hipe-table` the HIPE
scorer's TSV alone, row for row as the scorer writes it (its greedy pairing unless `--pairing optimal`), so that a
script reading the scorer's output switches by changing its command.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..accumulator import Accumulator
from ..option_checks import HIPE
from ..options import Options, check_span_options, flag_name
from .hipe import HIPE_2020_TYPES, read_hipe, read_lines
from .hipe_table import check_cut_offs_once, format_hipe_table, hipe_inputs, hipe_table
from .hipe_tags import HIPE_SCORERS, read_link_alternatives
from .readers import print_error, print_output
from .reports import print_json, print_results


def add_hipe_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of `--hipe`."""
    parser.add_argument(
        "--hipe",
        nargs=2,
        metavar=("GOLD", "SYSTEM"),
        help="score a HIPE TSV response against its gold (CLEF-HIPE-2020, HIPE-2022): the column of --column, a "
        "unit per document; with --hipe-table, the HIPE scorer's table; - for standard input (one of the two)",
    )
    parser.add_argument(
        "--column",
        action="append",
        metavar="NAME",
        help="with --hipe: the column scored (default NE-COARSE-LIT; NE-COARSE-METO, NE-FINE-LIT, NE-FINE-METO, "
        "NE-FINE-COMP, NE-NESTED); repeat it for several in --hipe-table",
    )
    parser.add_argument(
        "--hipe-table",
        action="store_true",
        help="with --hipe: print the HIPE scorer's TSV (System, Evaluation, Label, P, R, F1, F1_std, P_std, R_std, "
        "TP, FP, FN), micro and macro_doc, fuzzy and strict, per type and ALL; with --json, its rows as JSON",
    )
    parser.add_argument(
        "--nel",
        action="store_true",
        help="with --hipe: score the entity links (NEL-LIT unless --column NEL-METO): each link an entity's type",
    )
    parser.add_argument(
        "--n-best",
        metavar="N,...",
        help="with --hipe --nel --hipe-table: the cut-offs of a response's ranked links (default 1; 1,3,5)",
    )
    parser.add_argument(
        "--relaxed",
        metavar="FILE",
        help="with --hipe --nel --hipe-table: the relaxed setting, a predicted link also standing for the related "
        "ones of this mapping (the HIPE scorer's historico-fuzzy QID mapping)",
    )
    parser.add_argument(
        "--norm-time",
        action="store_true",
        help="with --hipe --nel: the response's links at time expressions read as NIL (the HIPE scorer's "
        "normalize_linking.py --norm-time, as CLEF-HIPE-2020's official link rankings scored the runs)",
    )
    parser.add_argument(
        "--hipe-scorer",
        choices=sorted(HIPE_SCORERS),
        help="with --hipe: the HIPE scorer's version to read and count as (default 2020, CLEF-HIPE-2020's official "
        "tables; 2022, the later scorer HIPE-2022 was scored with: docs/hipe.md)",
    )
    parser.add_argument(
        "--tagset",
        metavar="FILE",
        help="with --hipe: the task's types, one a line (the HIPE scorer's --tagset), or hipe2020 for "
        "CLEF-HIPE-2020's; a predicted type outside it and the gold is dropped (without it, any outside the gold)",
    )


def run_hipe(args: argparse.Namespace, given: dict[str, Any]) -> int:
    """`--hipe`: our summary of the column, or with `--hipe-table` the scorer's table; the exit status."""
    gold, system = args.hipe
    columns = args.column or ["NE-COARSE-LIT"]
    scorer = args.hipe_scorer or "2020"
    try:
        tagset = _tagset(args.tagset)
        if (args.n_best or args.relaxed) and not (args.nel and args.hipe_table):
            raise ValueError("--n-best and --relaxed go with --nel --hipe-table")
        if args.norm_time and not args.nel:
            raise ValueError("--norm-time goes with --nel")
        if args.hipe_table:
            ignored = sorted(name for name in given if name != "pairing")
            if ignored:  # the scorer's table has none of our options: say so, never drop them silently
                flags = ", ".join(map(flag_name, ignored))
                raise ValueError(
                    f"--hipe-table prints the HIPE scorer's table, which takes none of {flags}; drop them (the table "
                    "takes --column, --nel, --tagset, --n-best, --relaxed, --norm-time and --pairing), or leave out "
                    "--hipe-table for our summary"
                )
            links: dict[str, Any] = {}
            if args.nel:
                links = {"n_best": _cut_offs(args.n_best or "1")}
                if args.relaxed:
                    links.update(related=read_link_alternatives(args.relaxed), suffix="relaxed")
            rows = hipe_table(
                gold,
                system,
                columns,
                args.nel,
                tagset=tagset,
                # The scorer's own pairing unless --pairing says otherwise, so that the table is its official one.
                pairing=given.get("pairing", HIPE),
                normalize_time=args.norm_time,
                scorer=scorer,
                # (a response read from standard input is named as the scorer names /dev/stdin's)
                system_name=None if isinstance(system, str) else "stdin",
                **links,
            )
            # As JSON, the table's rows as a list of objects, keyed by the TSV's column names.
            return print_output(lambda: print_json(rows) if args.json else sys.stdout.write(format_hipe_table(rows)))
        if len(columns) > 1:
            raise ValueError("our summary scores one --column at a time (--hipe-table takes several)")
        options = Options.of(**given)
        check_span_options(options)
        documents = read_hipe(gold) if isinstance(gold, str) else gold  # (standard input's, read by the command)
        inputs = hipe_inputs(
            documents, system, columns[0], nel=args.nel, tagset=tagset, normalize_time=args.norm_time, scorer=scorer
        )
        # Each document's tokens, which --errors, --slices seen and sentence_length read (without them these said
        # "pass tokens= (tags) or texts= (spans)", Python's keywords, to a command-line user).
        inputs["tokens"] = [list(document.tokens) for document in documents]
        # As (start, end, type) tuples, which the array path of spans reads (Span objects go the readable way).
        for side in ("references", "predictions"):
            inputs[side] = [[(s.start, s.end, s.entity_type) for s in spans] for spans in inputs[side]]
        total = Accumulator(options).update(**inputs)
    except (OSError, ValueError) as error:
        return print_error(error)
    return print_output(lambda: print_results(total, True, args))


def _cut_offs(text: str) -> list[int]:
    try:
        cut_offs = [int(part) for part in text.split(",")]
    except ValueError:
        cut_offs = []
    if not cut_offs or min(cut_offs) < 1:
        raise ValueError(f"--n-best takes cut-offs of 1 or more, separated by commas (1,3,5), not {text!r}")
    check_cut_offs_once(cut_offs, "--n-best", repr(text))
    return cut_offs


def _tagset(name: str | None) -> frozenset[str] | None:
    if name is None:
        return None
    if name.lower() == "hipe2020":
        return HIPE_2020_TYPES
    types = frozenset(line.strip().upper() for line in read_lines(name) if line.strip())
    if not types:  # (the HIPE scorer reads an empty tag set as none, `if tags:`: a wrong or truncated file, silently)
        raise ValueError(
            f"--tagset {name} names no type (an empty or blank file); expected the task's types, one a line, or no "
            "--tagset to score the gold's types alone (what the HIPE scorer does with an empty tag set)"
        )
    return types
