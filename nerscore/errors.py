"""The one error class of bad input: a `ValueError` that says where (docs/scoring.md §1); and the one refusal of
input past the memory this process has free (`refuse_past_free_memory`), which every layer asks before it allocates."""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")


class InvalidInputError(ValueError):
    """A `ValueError` that also says where: ``side``, ``sentence`` and ``token`` (each may be None), or for span
    input ``entity``, the index of the entity in its sentence's list.

    ``suggested_scheme`` names the scheme whose letters the input uses, when the declared scheme lacks one: the
    message says ``pass scheme='IOBES'``, and the command line and the Space say it in their own terms."""

    def __init__(
        self,
        problem: str,
        side: str | None = None,
        sentence: int | None = None,
        token: int | None = None,
        suggested_scheme: str | None = None,
        entity: int | None = None,
    ) -> None:
        self.problem = problem
        self.side = side
        self.sentence = sentence
        self.token = token
        self.suggested_scheme = suggested_scheme
        self.entity = entity
        super().__init__(self._message())

    def at(
        self,
        side: str | None = None,
        sentence: int | None = None,
        token: int | None = None,
        entity: int | None = None,
    ) -> InvalidInputError:
        """The same problem, located more precisely."""
        return InvalidInputError(
            self.problem,
            side=self.side if side is None else side,
            sentence=self.sentence if sentence is None else sentence,
            token=self.token if token is None else token,
            suggested_scheme=self.suggested_scheme,
            entity=self.entity if entity is None else entity,
        )

    def hint(self, form: str = "scheme={!r}") -> str:
        """The problem with the suggested scheme written in `form` (``"--scheme {}"`` on the command line)."""
        if self.suggested_scheme is None:
            return self.problem
        return f"{self.problem}: {form.format(self.suggested_scheme)}"

    def _message(self) -> str:
        where = [
            label.format(value)
            for label, value in (
                ("{}", self.side),
                ("sentence {}", self.sentence),
                ("token {}", self.token),
                ("entity {}", self.entity),
            )
            if value is not None
        ]
        problem = self.hint("pass scheme={!r}")
        return f"{', '.join(where)}: {problem}" if where else problem


def is_collection(value: Any) -> bool:
    """A collection of values (a list, tuple, set, generator ...): iterable, and not a string or bytes, whose
    characters a caller never means as its values. A 0-d array (numpy's, a tensor) is iterable by its type but
    raises TypeError "iteration over a 0-d array" when iterated: it is one value, no collection."""
    if getattr(value, "ndim", None) == 0:
        return False
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes))


def refuse_tensor_without_values(value: Any, side: str, sentence: int | None = None) -> None:
    """A torch tensor whose values cannot be listed (NotImplementedError or RuntimeError from `.tolist()`, `.shape`):
    on the meta device, which holds none, or nested; a located error saying what to pass instead."""
    kind = type(value).__name__
    if getattr(value, "is_meta", False):
        found, expected = f"a {kind} on the meta device, which holds no values", "a tensor on a real device (.cpu())"
    elif getattr(value, "is_nested", False):
        found, expected = f"a nested {kind}, which torch cannot list", "a list of its tensors (tensor.unbind())"
    else:
        return
    raise InvalidInputError(f"found {found}; expected {expected}", side, sentence)


def plain_text(text: str) -> str:
    """A string as a plain `str`: a subclass's own hash or equality (one that raises, say) never reaches the sets
    and dicts types and texts are counted in, as tokens are read (tests/test_redteam13.py)."""
    return text if type(text) is str else str.__str__(text)


def located(sentence: int, call: Callable[..., T], *arguments: Any) -> T:
    """`call(*arguments)`, an `InvalidInputError` it raises without a sentence located at `sentence` (a sentence's
    pairing refused before it allocates, docs/scoring.md §3)."""
    try:
        return call(*arguments)
    except InvalidInputError as error:
        if error.sentence is not None:
            raise
        raise error.at(sentence=sentence) from None


def shown(value: Any, limit: int = 100) -> str:
    """`repr(value)` for an error message, cut to at most `limit` characters. Lists, tuples and dicts are written
    here, a piece at a time from a stack, until `limit` is reached: a bad value nested 100,000 deep (where Python's
    own `repr` recurses into RecursionError), a DAG whose repr is exponential or a list of a million items costs
    time that follows `limit`, never the value's size or depth. An integer of more digits than fit is described
    (Python refuses to write one of more than 4,300 digits); an object whose own repr fails is named by its type.
    Short values read exactly as `repr` writes them."""
    pieces: list[str] = []
    size = 0
    stack: list[Iterator[tuple[bool, Any]]] = [iter([(False, value)])]
    while stack and size <= limit:
        part = next(stack[-1], None)
        if part is None:  # this container is written out
            stack.pop()
            continue
        is_text, piece = part
        if not is_text:
            parts = _container_parts(piece)
            if parts is not None:
                stack.append(parts)
                continue
            piece = _scalar_repr(piece, limit)
        pieces.append(piece)
        size += len(piece)
    text = "".join(pieces)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _container_parts(value: Any) -> Iterator[tuple[bool, Any]] | None:
    """The pieces of a list, tuple, dict, set or frozenset (or a subclass that keeps their repr) as (is_text,
    piece): text to write, or an item to write in turn; None for anything else."""
    kind = type(value).__repr__
    if kind is list.__repr__:
        return _parts((((False, item),) for item in value), "[", "]")
    if kind is tuple.__repr__:
        return _parts((((False, item),) for item in value), "(", ",)" if len(value) == 1 else ")")
    if kind is dict.__repr__:
        return _parts((((False, key), (True, ": "), (False, item)) for key, item in value.items()), "{", "}")
    if kind is frozenset.__repr__ or kind is set.__repr__:  # (a frozenset of tuples that hold one tuple twice ...)
        name = type(value).__name__
        if not value:
            return _parts((), f"{name}()", "")
        bare = type(value) is set
        return _parts((((False, item),) for item in value), "{" if bare else f"{name}({{", "}" if bare else "})")
    return None


def _parts(entries: Iterable[tuple[tuple[bool, Any], ...]], opening: str, closing: str) -> Iterator[tuple[bool, Any]]:
    yield True, opening
    for index, entry in enumerate(entries):
        if index:
            yield True, ", "
        yield from entry
    yield True, closing


def _scalar_repr(value: Any, limit: int) -> str:
    kind = type(value).__repr__
    if kind is str.__repr__ or kind is bytes.__repr__:
        return repr(value[: limit + 1])  # the rest is cut anyway; repr would copy all of it
    if kind is int.__repr__ and value.bit_length() > 4 * limit:  # more digits than `limit`
        digits = int(value.bit_length() * math.log10(2)) + 1
        sign = "negative " if value < 0 else ""
        return f"<{sign}{type(value).__name__} of about {digits:,} digits>"
    try:
        return repr(value)
    except Exception:  # a foreign object whose repr recurses or fails: its type says enough
        return f"<{type(value).__name__} object>"


def refuse_other_types(names: str, values: Iterable[Any], kinds: Iterable[type | tuple[type, ...]]) -> None:
    """An `InvalidInputError` at the first of the arguments `values` (named by `names`, apart by spaces) that is
    neither None nor of its kind (`kinds`, in the same order): what a public function takes beside the input, which
    it would read as such (AttributeError: 'int' object has no attribute 'vectors')."""
    for name, value, kind in zip(names.split(), values, kinds):
        if value is not None and not isinstance(value, kind):
            expected = " or a ".join(one.__name__ for one in (kind if isinstance(kind, tuple) else (kind,)))
            raise InvalidInputError(f"{name} is {shown(value)} ({type(value).__name__}); expected a {expected} or None")


# The sentences of the batches added before the one read (`numbered_after`, summed where they nest): a warning about
# a sentence of it names the sentence among them all (`numbered`), as an error does.
_SENTENCES_BEFORE: contextvars.ContextVar[int] = contextvars.ContextVar("sentences_before", default=0)


@contextlib.contextmanager
def numbered_after(sentences: int) -> Iterator[None]:
    """A batch read within, after `sentences` sentences of the batches added before it (an `Accumulator`'s, the
    evaluate module's stored ones): an `InvalidInputError` that names a sentence of it names it among them all."""
    before = _SENTENCES_BEFORE.set(_SENTENCES_BEFORE.get() + sentences)
    try:
        yield
    except InvalidInputError as error:
        if error.sentence is None or not sentences:
            raise
        raise error.at(sentence=sentences + error.sentence) from None
    finally:
        _SENTENCES_BEFORE.reset(before)


def numbered(sentence: int) -> int:
    """A sentence of the batch being read (within `numbered_after`) numbered among those of every batch added."""
    return _SENTENCES_BEFORE.get() + sentence


def free_memory() -> int | None:
    """The bytes this process may still allocate: the least of the system's available memory, what is left of its
    address-space limit and what is left of its cgroup's limit; None where none can be read (then nothing is
    refused)."""
    found: list[int] = []
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError):
        pass
    try:  # an address-space limit (ulimit -v), less what the process has mapped already
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            with open("/proc/self/statm", encoding="ascii") as statm:
                mapped = int(statm.read().split()[0]) * resource.getpagesize()
            found.append(max(0, soft - mapped))
    except (ImportError, OSError, ValueError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as limit_file:
            limit = limit_file.read().strip()
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as current_file:
            current = int(current_file.read().strip())
        if limit != "max":
            found.append(max(0, int(limit) - current))
    except (OSError, ValueError):
        pass
    return min(found) if found else None


def refuse_past_free_memory(
    needed: int, needs: str, expected: str, purpose: str = "", floor: int = 0, unit: str = "GB"
) -> None:
    """An `InvalidInputError` (a ValueError, never a MemoryError), before anything is allocated, where `needed`
    bytes are more than this process has free (`free_memory`): "`needs` about 1.6 GB`purpose`, more than the 1.0 GB
    free for this process; expected `expected`" (`unit` "MB": whole megabytes). Below `floor` bytes the system is not
    asked (`FLOOR`, where a look would cost more than it saves). The one refusal of the pairing's overlaps, the
    string grounding's flow, the resamples and `encode`'s tags; the caller adds the place (sentence, side)."""
    if needed < floor:
        return
    free = free_memory()
    if free is not None and needed > free:
        scale, digits = (1e6, ",.0f") if unit == "MB" else (1e9, ".1f")
        raise InvalidInputError(
            f"{needs} about {needed / scale:{digits}} {unit}{purpose}, more than the {free / scale:{digits}} {unit} "
            f"free for this process; expected {expected}"
        )


# Bytes below which `refuse_past_free_memory` is not worth a look at the system (64 MB).
FLOOR = 1 << 26
