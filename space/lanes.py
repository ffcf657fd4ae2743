"""Which requests run at once: two lanes, a small one for requests of at most `caps.SMALL_REQUEST_BYTES` and a
large one for the rest, each running at most its workers at a time (`caps.SMALL_LANE_WORKERS`,
`caps.LARGE_LANE_WORKERS`), so that a one-line request waits only for other small ones, never behind 1 MB ones.

Gradio queues a request per event, and an endpoint is one event, so it cannot route by size; the page's events
therefore let Gradio start every request at once (`concurrency_limit=None`) and the lanes decide which run. A
lane with `caps.LANE_WAITING` requests waiting answers `Busy` to the next one, so waiting is bounded too.
The caps are read on every request, as everywhere in `space/`. `in_lane` and `steps_in_lane` wrap an answer (or an
answer in steps) so that it runs in its request's lane.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from . import caps

Result = TypeVar("Result")


class Busy(Exception):
    """The lane of a request has as many waiting as it may hold; the message says so in the page's words."""


class Lane:
    """Work run at most `workers()` at a time, at most `caps.LANE_WAITING` more waiting their turn."""

    def __init__(self, name: str, workers: Callable[[], int]) -> None:
        self.name = name
        self.workers = workers
        self.running = 0
        self.waiting = 0
        self._turn = threading.Condition()

    def enter(self) -> None:
        """Wait for a free worker of the lane and take it (`leave` gives it back); `Busy` at once when too many
        wait already."""
        with self._turn:
            if self.running >= self.workers() and self.waiting >= caps.LANE_WAITING:
                raise Busy(
                    f"The page is busy: {self.waiting:,} {self.name} requests are waiting already. Try again in a "
                    "minute, or use the command line (`python ner_semeval.py FILE`)."
                )
            self.waiting += 1
            try:
                self._turn.wait_for(lambda: self.running < self.workers())
            finally:
                self.waiting -= 1
            self.running += 1

    def leave(self) -> None:
        """Give back the worker taken by `enter`."""
        with self._turn:
            self.running -= 1
            self._turn.notify()

    def run(self, work: Callable[..., Result], *arguments: object) -> Result:
        """`work(*arguments)` once a worker of the lane is free; `Busy` at once when too many wait already."""
        self.enter()
        try:
            return work(*arguments)
        finally:
            self.leave()


def request_size(text: object) -> int:
    """The bytes of a request's text as `caps.MAX_BYTES` counts them (UTF-8; a lone surrogate, which the page
    refuses, as three bytes); 0 for anything that is not text."""
    return len(text.encode("utf-8", "surrogatepass")) if isinstance(text, str) else 0


class Lanes:
    """The page's two lanes: `small` and `large`."""

    def __init__(self) -> None:
        self.small = Lane("small", lambda: caps.SMALL_LANE_WORKERS)
        self.large = Lane("large", lambda: caps.LARGE_LANE_WORKERS)

    def lane_for(self, size: int) -> Lane:
        """The small lane for at most `caps.SMALL_REQUEST_BYTES`, else the large one."""
        return self.small if size <= caps.SMALL_REQUEST_BYTES else self.large

    def run(self, size: int, work: Callable[..., Result], *arguments: object) -> Result:
        """`work(*arguments)` in the lane of a request of `size` bytes (`Busy` when that lane is full)."""
        return self.lane_for(size).run(work, *arguments)


def in_lane(
    lane_of: Lanes,
    answer: Callable[..., Any],
    busy: Callable[..., Any],
    size: Callable[[Any], int] = request_size,
) -> Callable[..., Any]:
    """`answer` run in the lane of its request (`size` of its first argument: the text, or an upload's path);
    when that lane is full, `busy(message, *arguments)` instead. The signature stays `answer`'s, which Gradio
    reads for the endpoint's parameters."""

    @functools.wraps(answer)
    def run(*arguments: Any) -> Any:
        try:
            return lane_of.run(size(arguments[0] if arguments else None), answer, *arguments)
        except Busy as full:
            return busy(str(full), *arguments)

    return run


def steps_in_lane(
    lane_of: Lanes,
    steps: Callable[..., Iterator[Any]],
    busy: Callable[..., Any],
    size: Callable[[Any], int] = request_size,
) -> Callable[..., Iterator[Any]]:
    """`in_lane` for an answer given in steps (a generator, which Gradio streams): the lane is held until the last
    step, and a full lane answers `busy(message, *arguments)` as the one step."""

    @functools.wraps(steps)
    def run(*arguments: Any) -> Iterator[Any]:
        lane = lane_of.lane_for(size(arguments[0] if arguments else None))
        try:
            lane.enter()
        except Busy as full:
            yield busy(str(full), *arguments)
            return
        try:
            yield from steps(*arguments)
        finally:
            lane.leave()

    return run


def upload_size(path: str | None) -> int:
    """The bytes of an uploaded file (0 for none: `upload_page` answers that at once)."""
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0
