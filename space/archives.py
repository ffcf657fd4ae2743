"""An uploaded archive of annotators' files, for the Agreement task (space/agreement.py): a ZIP file holding what
``ner-semeval agreement`` reads from several paths, read by the same reader (`nerscore.read_annotators`, the layout
told by the paths as the command line tells it, `nerscore.file_format`):

- BRAT folders, one per annotator, holding the same ``.ann`` files (with their ``.txt``);
- doccano's JSONL export, one file per annotator: the ZIP doccano itself writes when each annotator's labels are
  exported apart (``alice.jsonl``, ``bob.jsonl``, ...);
- CoNLL files (one per annotator, or one with a tag column each), a Label Studio export or JSON lines of spans.

The annotators' folders or files stand at the archive's top, or in its one folder. The archive is unpacked into a
temporary folder within the page's caps (`space/caps.py`): at most `caps.MAX_BYTES` packed, and as many unpacked,
counted as they are unpacked (never as the archive's directory claims), in at most `caps.MAX_ARCHIVE_FILES`
files at most `caps.MAX_ARCHIVE_DEPTH` folders deep. A name that would leave the folder (absolute, or through
``..``) and an encrypted file are refused; macOS's ``__MACOSX/`` copies, hidden files and BRAT's configuration
files (``*.conf``) are left out. Anything the page cannot read is an `InputProblem` naming the archive's file (and
line), never a temporary path.
"""

from __future__ import annotations

import lzma
import os
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import nerscore

from . import caps
from .parsing import InputProblem

# What the command line would suggest for an archive the page will not read.
COMMAND = "ner-semeval agreement PATH ..."


@dataclass(frozen=True)
class ArchiveAnnotations:
    """What the readers read of an archive: the layout (one of `nerscore`'s agreement formats: "brat",
    "doccano", "conll", "label-studio", "jsonl"), the annotators' batches, and each document's place as a file of
    the archive (a BRAT document's name; for the other layouts the file its first annotator's copy is in) with
    the line it starts on (0 for a BRAT document)."""

    form: str
    read: nerscore.AnnotatorBatches
    files: list[str]
    lines: list[int]


def is_archive(path: str | None) -> bool:
    """Whether the uploaded file is a ZIP archive (by its content, not its name)."""
    if not isinstance(path, (str, os.PathLike)):  # (str() of an int of 5,000 digits raised ValueError)
        return False
    try:
        return bool(path) and zipfile.is_zipfile(path)
    except OSError:
        return False


def _left_out(name: PurePosixPath) -> bool:
    """macOS's resource copies, hidden files and nameless entries, which no annotator wrote."""
    return not name.parts or name.parts[0] == "__MACOSX" or any(part.startswith(".") for part in name.parts)


def _member_path(name: str) -> PurePosixPath:
    """An archive member's name as a relative path, or an `InputProblem` when it would leave the folder."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        raise InputProblem(
            f"The archive's file {name!r} would be unpacked outside its folder; expected relative names, as "
            "annotation tools write them."
        )
    if len(path.parts) > caps.MAX_ARCHIVE_DEPTH + 1:
        raise InputProblem(
            f"The archive's file {name[:100]!r} lies {len(path.parts) - 1:,} folders deep; the page reads files at "
            f"most {caps.MAX_ARCHIVE_DEPTH} folders deep. Use `{COMMAND}` for more."
        )
    return path


def _unpack(path: str, directory: str) -> None:
    """The archive's files written under `directory`, within the caps."""
    name = Path(path).name
    size = os.path.getsize(path)
    if size > caps.MAX_BYTES:
        raise InputProblem(f"{name} holds {size:,} bytes; the page measures at most {caps.MAX_BYTES:,} bytes (1 MB).")
    try:
        with zipfile.ZipFile(path) as archive:
            members = [
                (info, member)
                for info in archive.infolist()
                # (nameless entries first: zipfile's is_dir reads a name's last character)
                if not _left_out(member := _member_path(info.filename)) and not info.is_dir()
            ]
            if len(members) > caps.MAX_ARCHIVE_FILES:
                raise InputProblem(
                    f"{name} holds {len(members):,} files; the page reads at most {caps.MAX_ARCHIVE_FILES:,}. Use "
                    f"`{COMMAND}` for more."
                )
            seen: set[PurePosixPath] = set()
            for _, member in members:  # the later would overwrite the earlier, which was then read as neither
                if member in seen:
                    raise InputProblem(f"The archive holds {member} twice; expected each file once.")
                seen.add(member)
            budget = caps.MAX_BYTES
            for info, member in members:
                if info.flag_bits & 0x1:
                    raise InputProblem(f"The archive's file {member} is encrypted; the page reads plain archives.")
                target = Path(directory, *member.parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(info) as source, open(target, "wb") as sink:
                    while chunk := source.read(1 << 16):
                        budget -= len(chunk)
                        if budget < 0:
                            raise InputProblem(
                                f"{name} unpacks to more than {caps.MAX_BYTES:,} bytes (at {member}); the page "
                                f"measures at most {caps.MAX_BYTES:,} bytes (1 MB). Use `{COMMAND}` for more."
                            )
                        sink.write(chunk)
    # A damaged or unsupported archive: its directory, a method zipfile lacks, compressed data that does not
    # decompress (zlib, bz2's OSError, lzma), a file cut short.
    except (zipfile.BadZipFile, NotImplementedError, EOFError, zlib.error, lzma.LZMAError, OSError) as error:
        # (an OSError names the temporary folder: the archive's own names only)
        problem = str(error).replace(os.path.join(directory, ""), "")
        raise InputProblem(f"{name} is not an archive the page can unpack ({problem}).") from None


def _annotators_paths(directory: str) -> list[str]:
    """The annotators' folders or files: those at the archive's top, or in its one folder; BRAT's configuration
    files left out beside folders."""
    root = Path(directory)
    while True:
        entries = sorted(root.iterdir())
        if len(entries) == 1 and entries[0].is_dir():
            root = entries[0]
            continue
        break
    if any(entry.is_dir() for entry in entries):
        entries = [entry for entry in entries if entry.is_dir() or entry.suffix != ".conf"]
    folders = [entry.name for entry in entries if entry.is_dir()]
    files = [entry.name for entry in entries if not entry.is_dir()]
    if folders and files:
        raise InputProblem(
            f"The archive holds folders ({', '.join(folders[:3])}) beside files ({', '.join(files[:3])}); the page "
            "reads one folder per annotator (BRAT) or one file per annotator (doccano, CoNLL), not both."
        )
    if any(entry.suffix == ".ann" for entry in entries):
        where = root.relative_to(directory).as_posix()
        raise InputProblem(
            f"The archive holds BRAT files in one folder ({'its top' if where == '.' else where}); the page reads one "
            "folder per annotator (two or more), each holding the same .ann files."
        )
    if not entries:
        raise InputProblem("The archive holds no files to read.")
    return [str(entry) for entry in entries]


def read_archive(path: str) -> ArchiveAnnotations:
    """The annotators' files of an uploaded archive, unpacked within the caps and read as the command line reads
    its paths. An `InputProblem` names the archive's file (and line) of anything the readers refuse."""
    with tempfile.TemporaryDirectory(prefix="ner-semeval-archive-") as directory:
        prefix = os.path.join(directory, "")

        def relative(text: str) -> str:
            return text.replace(prefix, "")

        name = Path(path).name
        _unpack(path, directory)
        paths = _annotators_paths(directory)
        form = nerscore.file_format(paths)
        try:
            # (an export of a new annotator a task is annotators x tasks once read: refused as it is read)
            read = nerscore.read_annotators(paths, form, max_annotators=caps.MAX_AGREEMENT_ANNOTATORS)
        except nerscore.ConllError as error:
            where = relative(error.source) + (f", line {error.line}" if error.line else "")
            raise InputProblem(f"{where}: {relative(error.problem)}.") from None
        except OSError as error:
            raise InputProblem(f"{relative(str(error.filename or name))}: {error.strerror}.") from None
        except ValueError as error:
            raise InputProblem(f"{relative(str(error))}.") from None
    if form == "brat":
        files, lines = list(read.documents), [0] * len(read.documents)
    else:
        places = [relative(document).rsplit(":", 1) for document in read.documents]
        files, lines = [file for file, _ in places], [int(line) for _, line in places]
    return ArchiveAnnotations(form, read, files, lines)
