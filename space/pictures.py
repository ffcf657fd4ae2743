"""How the page's pictures are drawn, encoded and kept: a matplotlib `Figure` on the Agg canvas, the fonts its
labels use, and the `Picture` that the page's events draw after the tables are shown (the pictures themselves are
`figures` and, for the Agreement task, `agreement.agreement_figure`).

Events run in several threads at once and pyplot's global figure list is not thread-safe, so every figure is a
`matplotlib.figure.Figure` of its own on an Agg canvas (`new_figure`); nothing is kept after Gradio encodes it as
a PNG. Agg is also the backend for anything that imports pyplot (Gradio's plot component does, to close figures).

Drawing is most of a request's time (a picture takes 0.05-0.25 s to draw and encode, the scoring of an example
0.02 s; benchmarks/space.py), so a picture is also a `Picture`: the function that draws it and the numbers it
draws, which the page's events encode through `png_url` after the tables are shown, and which a picture already
drawn for the same numbers reuses (`caps.PICTURE_CACHE` of them are kept).
"""

from __future__ import annotations

import base64
import hashlib
import io
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import matplotlib
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from . import caps

matplotlib.use("Agg")
# Labels are the user's type and annotator names, never formulas: with matplotlib's default, a name between two
# dollar signs was read as mathtext, and one it cannot parse (`$\foo$`, `$^$`) raised ValueError when the picture
# was encoded, after the tables were shown (a traceback for the picture step, no picture).
matplotlib.rcParams["text.parse_math"] = False
# A type name in a script that no installed font covers is drawn as boxes, not warned about once per glyph.
warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font", category=UserWarning)

FIGURE_DPI = 100


def font_family() -> list[str]:
    """Matplotlib's default sans-serif font, then a CJK font if one is installed (fonts-noto-cjk on Debian), so
    that a type such as 告白气球 is drawn, glyph by glyph falling back to it; nothing is downloaded."""
    names = {font.name for font in font_manager.fontManager.ttflist}
    preferred = [f"Noto Sans CJK {region}" for region in ("SC", "TC", "JP", "KR", "HK")]
    cjk = [name for name in preferred if name in names] or sorted(name for name in names if "CJK" in name)
    return ["DejaVu Sans", *cjk[:1]]


FONT_FAMILY = font_family()


def new_figure(width: float, height: float) -> Figure:
    """A figure of its own, `width` by `height` inches, laid out by matplotlib's constrained layout, on an Agg
    canvas."""
    figure = Figure(figsize=(width, height), dpi=FIGURE_DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def shade(colour_map: str, value: float) -> tuple[float, float, float, float]:
    """The colour of `value` (0 to 1) in matplotlib's colour map `colour_map`."""
    return matplotlib.colormaps[colour_map](value)


@dataclass(frozen=True)
class Picture:
    """A picture not drawn yet: `draw(data)` is its figure. `data` holds only what the drawing reads (a capped
    number of types and numbers, the types' names as given), so that its repr says what the picture shows."""

    draw: Callable[[Any], Figure | None]
    data: Any

    def figure(self) -> Figure | None:
        return self.draw(self.data)

    def key(self) -> str:
        """What the drawing depends on: the function, its numbers, the caps it reads and the fonts, as a digest of
        their repr. The names in the numbers are the visitor's, as long as they came (the drawing shortens them):
        kept whole, the keys of 12 types of 40,000 characters held 0.5 MB each, 64 of them in `DRAWN`."""
        settings = {name: value for name, value in vars(caps).items() if name.isupper() and name != "PICTURE_CACHE"}
        depends = repr((self.draw.__module__, self.draw.__qualname__, self.data, settings, FONT_FAMILY))
        return hashlib.sha256(depends.encode("utf-8", "backslashreplace")).hexdigest()


def draw(picture: Picture | None) -> Figure | None:
    """The figure of `picture` (None for none)."""
    return None if picture is None else picture.figure()


def encode(figure: Figure) -> str:
    """The figure as a PNG data URL, as Gradio's plot component encodes a matplotlib figure (`savefig` with the
    figure's own settings), so that the page shows the same bytes whichever encoded it."""
    with io.BytesIO() as output:
        figure.savefig(output, format="png")
        return "data:image/png;base64," + base64.b64encode(output.getvalue()).decode("ascii")


class _Drawn:
    """The data URLs of the pictures drawn last, by `Picture.key`: at most `caps.PICTURE_CACHE`, the least recently
    used dropped first. Events run in threads, so the dictionary is used under a lock; two threads drawing one new
    picture at once both draw it (the same bytes)."""

    def __init__(self) -> None:
        self._urls: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self._lock:
            url = self._urls.get(key)
            if url is not None:
                self._urls.move_to_end(key)
            return url

    def put(self, key: str, url: str) -> None:
        with self._lock:
            self._urls[key] = url
            self._urls.move_to_end(key)
            while len(self._urls) > max(0, caps.PICTURE_CACHE):
                self._urls.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._urls.clear()


DRAWN = _Drawn()


def is_drawn(picture: Picture | None) -> bool:
    """Whether `png_url(picture)` answers without drawing: no picture, or one drawn before for the same key."""
    return picture is None or DRAWN.get(picture.key()) is not None


def png_url(picture: Picture | None) -> str | None:
    """`picture` drawn and encoded as a PNG data URL (`encode`), or the one drawn before for the same key; None
    for no picture (or a drawing that has none)."""
    if picture is None:
        return None
    key = picture.key()
    url = DRAWN.get(key)
    if url is None:
        figure = picture.figure()
        if figure is None:
            return None
        url = encode(figure)
        DRAWN.put(key, url)
    return url
