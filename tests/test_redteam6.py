"""The sixth red team's escapes (issue 31's kinds): each a named case that failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from nerscore import cli

# --conlleval -d that Python's re cannot compile for another reason than a syntax error: each was a traceback and
# exit status 1. A count past re's limit is Perl's compile error too ("Quantifier in {,} bigger than 65534", 255);
# groups nested past re's parser's recursion Perl may read (500 capturing groups split as Perl splits): refused.
DELIMITERS = [
    pytest.param("x{99999999999}", 255, "conlleval: -d ", "the repetition number is too large", id="count-too-large"),
    pytest.param(" {1," + "9" * 30 + "}", 255, "conlleval: -d ", "the repetition number", id="upper-count-too-large"),
    pytest.param("(" * 500 + " " + ")" * 500, 2, "error: -d ", "groups nested this deep", id="groups-nested-deep"),
    pytest.param("(?:" * 5000 + " " + ")" * 5000, 2, "error: -d ", "groups nested this deep", id="noncapturing-deep"),
]


@pytest.mark.parametrize(("delimiter", "status", "start", "message"), DELIMITERS)
def test_a_delimiter_re_cannot_compile_ends_as_conlleval_ends(
    delimiter: str, status: int, start: str, message: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    conll = tmp_path / "x.conll"
    conll.write_bytes(b"EU B-ORG B-ORG\n")
    assert cli.main(["--conlleval", "-d", delimiter, str(conll)]) == status
    captured = capsysbinary.readouterr()
    assert captured.out == b""
    err = captured.err.decode()
    assert err.startswith(start) and message in err and "Traceback" not in err, err[-300:]
