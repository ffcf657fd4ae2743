"""Which answer the page keeps: a visitor's actions numbered in the order the server receives them, and the events
of an action overtaken by a newer one that writes the same outputs left out, so that the page always ends on the
answer of the visitor's latest action.

Gradio runs the page's events at once (each in its lane, `space/lanes.py`), and its `trigger_mode="always_last"`
orders the runs of one event only: an example clicked, then the mode changed before its answer came, are two
events, and the first one started can finish last and write its stale answer over the newer one. Each session
holds one `Turns` (app.py keeps it in a `gr.State`, which Gradio gives every event of the session as the same
object). An action's first event takes a turn (`Turns.take`), which marks the groups of outputs that the action's
events write as the action's; the events chained after it (`.then`) follow that turn (`Turns.follow`). An event
shows a step only while no newer action has marked the groups that the event writes (`Turn.current`): an overtaken
event leaves every output as it is (half of an old answer beside a new one is no better), and stops its work.

`answering` wraps an event's answer (a function or a generator of steps) so that it does so; the first step of
an overtaken generator is its `left` value (gr.skip() for each output: this module does not import gradio).

While an older event that writes the same outputs still runs, each step of the newer action repeats the values its
earlier steps showed. Gradio 6's page (its core's `update_state`) reads a component's value back before it writes
a progress status to it, and writes that value again after: a value that arrives in between, while another event's
progress marks the same outputs, is overwritten by the old one (the summary kept the older answer's numbers under
the newer answer's status, in about one overtaken click of five). The repeat, a step later, is written once that
status has settled.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import threading
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any


class Turns:
    """One session's actions: the number of the last one taken, and for each group of outputs the number of the
    latest action that writes it; for each chain (an action's trigger), the turn its first event took last."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._taken = 0
        self._latest: dict[str, int] = {}
        self._chains: dict[str, int] = {}
        self._running: list[tuple[int, frozenset[str]]] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> Turns:
        # Gradio deep-copies a gr.State's initial value for each session: each session starts with no action.
        return Turns()

    def take(self, chain: str, writes: Collection[str]) -> Turn:
        """A new action of `chain`, whose events write the groups `writes`: the actions before it that write
        any of them are overtaken."""
        with self._lock:
            self._taken += 1
            for group in writes:
                self._latest[group] = self._taken
            self._chains[chain] = self._taken
            return Turn(self, self._taken)

    def follow(self, chain: str) -> Turn:
        """The turn of `chain`'s latest action, for an event chained after its first one."""
        with self._lock:
            return Turn(self, self._chains.get(chain, 0))

    def latest(self, group: str) -> int:
        """The number of the latest action that writes `group` (0: none yet)."""
        with self._lock:
            return self._latest.get(group, 0)

    @contextlib.contextmanager
    def running(self, turn: Turn, writes: Collection[str]) -> Iterator[None]:
        """An event of `turn` that writes the groups `writes` runs meanwhile (`Turn.overtakes_running`)."""
        entry = (turn.number, frozenset(writes))
        with self._lock:
            self._running.append(entry)
        try:
            yield
        finally:
            with self._lock:
                self._running.remove(entry)

    def older_running(self, number: int, writes: Collection[str]) -> bool:
        """Whether an event of an action older than `number` that writes any of the groups `writes` still runs."""
        with self._lock:
            return any(older < number and not groups.isdisjoint(writes) for older, groups in self._running)


def _leaves(value: Any, kept: Any) -> bool:
    """Whether `value` leaves its output as it is: it is `kept`, that output's `left` value (gr.skip(), a dict)."""
    return type(value) is type(kept) and value == kept


@dataclass(frozen=True)
class Turn:
    """One action's turn: its number among its session's `turns`."""

    turns: Turns
    number: int

    def current(self, writes: Collection[str]) -> bool:
        """Whether no newer action writes any of the groups `writes`."""
        return all(self.turns.latest(group) <= self.number for group in writes)

    def overtakes_running(self, writes: Collection[str]) -> bool:
        """Whether an event of an older action that writes any of the groups `writes` still runs."""
        return self.turns.older_running(self.number, writes)


def answering(
    answer: Callable[..., Any],
    chain: str,
    writes: Collection[str],
    left: tuple[Any, ...],
    takes: Collection[str] = (),
    within: Callable[[Callable[..., Any]], Callable[..., Any]] = lambda run: run,
) -> Callable[..., Any]:
    """`answer` as an event of `chain` whose outputs are the groups `writes`, called with the session's `Turns`
    after its own arguments. With `takes` (the groups the whole action writes), the event is the action's first
    and takes a turn as soon as it is called; otherwise it follows its chain's. `within` wraps the work (a lane:
    `lanes.in_lane`, `lanes.steps_in_lane`): an action overtaken while it waited there starts no work. Overtaken
    before it starts or between its steps, the event answers `left` (its outputs left as they are) and stops.
    Called without a `Turns` (a test, a script), it is `within(answer)`. Gradio reads the event's parameters
    from the signature: `answer`'s, then `turns`."""

    def turn_of(arguments: tuple[Any, ...]) -> tuple[tuple[Any, ...], Turn | None]:
        if not arguments or not isinstance(arguments[-1], Turns):
            return arguments, None
        turns = arguments[-1]
        return arguments[:-1], turns.take(chain, takes) if takes else turns.follow(chain)

    run: Callable[..., Any]
    if inspect.isgeneratorfunction(answer):

        @functools.wraps(answer)
        def steps(*arguments: Any) -> Iterator[Any]:
            arguments, turn = turn_of(arguments)
            if turn is None:
                yield from within(answer)(*arguments)
                return

            def started(*arguments: Any) -> Iterator[Any]:
                if turn.current(writes):
                    yield from answer(*arguments)
                else:
                    yield left

            # Each step is shown only if the action is still the latest once the step is computed; while an older
            # event writing the same outputs runs, with the values of the steps before it (the module's docstring).
            shown = left
            with turn.turns.running(turn, writes):
                for step in within(started)(*arguments):
                    if not turn.current(writes):
                        yield left
                        return
                    shown = tuple(old if _leaves(new, kept) else new for old, new, kept in zip(shown, step, left))
                    yield shown if turn.overtakes_running(writes) else step

        run = steps
    else:

        @functools.wraps(answer)
        def call(*arguments: Any) -> Any:
            arguments, turn = turn_of(arguments)
            if turn is None:
                return within(answer)(*arguments)
            with turn.turns.running(turn, writes):
                result = within(lambda *arguments: answer(*arguments) if turn.current(writes) else left)(*arguments)
                return result if turn.current(writes) else left

        run = call
    # Gradio calls the event with one value per input, the Turns last: a signature that takes them (one whose
    # `*arguments` takes any number is left as it is).
    signature = inspect.signature(answer)
    if all(parameter.kind is not inspect.Parameter.VAR_POSITIONAL for parameter in signature.parameters.values()):
        turns = inspect.Parameter("turns", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)
        signature = signature.replace(parameters=[*signature.parameters.values(), turns])
    run.__signature__ = signature  # type: ignore[attr-defined]
    return run
