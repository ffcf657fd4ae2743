"""The one error class of bad input: a `ValueError` that says where (docs/scoring.md §1)."""

from __future__ import annotations

from typing import Any


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


def shown(value: Any, limit: int = 100) -> str:
    """`repr(value)`, cut short for an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
