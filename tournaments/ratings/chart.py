"""Geometry of the rating history chart (pure; the SVG markup is a template).

The x axis counts rated matches (evenly spaced: a player's 40th match sits at the same place
whatever the calendar), the y axis is Elo with round gridlines chosen so there are 3 to 6 of
them. Time runs left to right in every language, as on printed charts in Arabic too; the SVG
sets ``direction="ltr"`` so its numbers do not mirror on right-to-left pages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 28  # plot margins inside the viewBox
STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MAX_DOTS = 60  # a dot per match only while they stay readable


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..."
    dots: tuple  # ((x, y, value), ...) or () when there are too many matches
    last: tuple  # (x, y) of the current rating
    y_ticks: tuple  # Tick per gridline
    x_labels: tuple  # ((x, label), ...): first and last match number
    plot: tuple  # (left, top, right, bottom) of the plot area
    matches: int
    low: float
    high: float


def nice_range(low: float, high: float) -> tuple[float, float, float]:
    """A (start, stop, step) covering [low, high] with 3 to 6 round gridlines."""
    if high - low < 10.0:
        low, high = low - 5.0, high + 5.0
    for step in STEPS:
        start, stop = math.floor(low / step) * step, math.ceil(high / step) * step
        if (stop - start) / step <= 5:
            return start, stop, step
    return start, stop, step


def build(values: list[float], width: int = WIDTH, height: int = HEIGHT) -> Chart:
    """``values``: the rating before the first match, then after each match (two or more)."""
    start, stop, step = nice_range(min(values), max(values))
    if stop == start:
        stop = start + step
    left, top, right, bottom = LEFT, TOP, width - RIGHT, height - BOTTOM
    count = len(values) - 1
    x_of = lambda i: left + (right - left) * i / max(count, 1)  # noqa: E731
    y_of = lambda v: bottom - (bottom - top) * (v - start) / (stop - start)  # noqa: E731
    xy = [(round(x_of(i), 1), round(y_of(v), 1)) for i, v in enumerate(values)]
    ticks = tuple(Tick(round(y_of(start + n * step), 1), f"{start + n * step:.0f}")
                  for n in range(int(round((stop - start) / step)) + 1))
    dots = tuple((x, y, round(v)) for (x, y), v in zip(xy, values)) if count <= MAX_DOTS else ()
    return Chart(width, height, " ".join(f"{x},{y}" for x, y in xy), dots, xy[-1], ticks,
                 ((left, "0"), (right, str(count))), (left, top, right, bottom), count, min(values), max(values))
