"""Widgets every screen uses: text that fits its box, big buttons, player marks.

``FitLabel`` wraps its text to its width and steps the font down until the
text fits its height, so long player names or rule texts shrink instead of
being cut off on the 800x480 display; the layout tests check the result.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import sp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from . import theme

ALIGNED = ("left", "center", "right")  # what text_pos places; "justify" needs the widget's width


class FitMixin:
    """Shrink the font (down to ``min_font``, never under ``theme.min_text()``) until the wrapped text fits."""

    max_font = NumericProperty(sp(20))
    min_font = NumericProperty(sp(theme.MIN_TEXT_PX))

    def __init__(self, **kw: Any) -> None:
        self._fit_trigger = Clock.create_trigger(self._fit, -1)
        super().__init__(**kw)
        self.fbind("size", self._refit)
        self.fbind("text", self._refit)
        self.fbind("halign", self._fit_trigger)  # it decides whether one line gets a narrow texture
        self.fbind("max_font", self._fit_trigger)
        self.fbind("min_font", self._fit_trigger)
        self._fit_trigger()

    def _refit(self, *_: Any) -> None:
        # Label's own texture update, scheduled by the same change, runs before
        # _fit: until _fit decides again, the text wraps to the width, so a long
        # new text is never drawn as one line wider than the widget.
        self._label.usersize = self._wrapped()
        self._fit_trigger()

    def _wrapped(self) -> tuple[float, None]:
        """The text size that wraps the text to the widget's width (Kivy's text_size includes the padding)."""
        return (max(1, self.width), None)

    def _fit(self, *_: Any) -> None:
        if self.width < 4 or self.height < 4:
            return
        pad_x = self.padding[0] + self.padding[2] if len(self.padding) == 4 else 2 * self.padding[0]
        # Measure with the core label's layout pass only: rendering a texture
        # per trial size would allocate (GL) memory for every step down; the
        # lines are the wrapped width less the padding.
        core = self._label
        core.usersize = self._wrapped()  # the widget's text_size is set once, below
        core.resolve_font_name()
        avail = self.width - pad_x
        words = set(self.text.split())
        # Whole-pixel sizes, always floats: SDL2_ttf opens (and Kivy caches, up to
        # 64) one font per distinct size text, so 13 and 13.0 would be two fonts.
        # The floor holds whatever a caller asks: text under 14 px is not read at
        # arm's length on the 7" panel (a text that cannot fit there is a layout
        # to fix, and the layout check reports it as clipped).
        smallest = float(round(max(self.min_font, theme.min_text())))
        size = max(smallest, float(round(self.max_font * theme.text_scale())))  # Settings' text size
        while True:
            core.options["font_size"] = size
            tw, th = core.render()
            # Kivy breaks a word wider than the line mid-word ("multicolour/ed"):
            # that counts as not fitting, like text taller than the box.
            whole = all(core.get_extents(w)[0] <= avail for w in words)
            if (th <= self.height and tw <= self.width and whole) or size <= smallest:
                break
            size = max(smallest, float(math.floor(size * 0.88)))
        self.font_size = size
        want: tuple[float | None, None] = self._wrapped()
        if self.halign in ALIGNED and "\n" not in self.text and core.get_extents(self.text)[0] <= avail:
            # One line: a texture as wide as the text instead of as wide as the
            # widget (texture memory grows with the display: docs/ui.md "Memory"),
            # placed by halign (text_pos, widgets.kv).
            want = (None, None)
        core.usersize = want
        if tuple(self.text_size) != want:  # an unchanged text_size must not make Label render again
            self.text_size = want
        self.texture_update()  # one texture, at the size that fits, before the next frame

    def text_pos(self, *_watched: Any) -> tuple[int, int]:
        """Where the texture goes: by ``halign`` across, centred up and down
        (widgets.kv passes the properties it depends on, so that kv computes it
        again when they change)."""
        tw, th = self.texture_size
        if self.halign == "left":
            x = self.x
        elif self.halign == "right":
            x = self.right - tw
        else:
            x = self.center_x - tw / 2.0
        return int(x), int(self.center_y - th / 2.0)


class FitLabel(FitMixin, Label):
    pass


class FitButton(FitMixin, Button):
    pass


class TallLabel(FitLabel):
    """A label as tall as its text wrapped to its width at ``max_font`` (at least
    ``min_height``; give it ``size_hint_y: None``): a long line is read whole, on
    more lines, instead of shrunk under the 14 px floor or cut."""

    min_height = NumericProperty(0)

    def __init__(self, **kw: Any) -> None:
        self._grow_trigger = Clock.create_trigger(self._grow, -1)
        super().__init__(**kw)
        for prop in ("width", "text", "max_font", "min_height"):
            self.fbind(prop, self._grow_trigger)
        self._grow_trigger()

    def _grow(self, *_: Any) -> None:
        from kivy.core.text import Label as CoreLabel

        pad_x = self.padding[0] + self.padding[2] if len(self.padding) == 4 else 2 * self.padding[0]
        core = CoreLabel(text=self.text, font_size=self.max_font, bold=self.bold,
                         text_size=(max(self.width - pad_x - 4, 40), None), halign="left")
        _w, h = core.render()  # the layout pass only: no texture is made
        self.height = max(self.min_height, h + 6)


class FitToggle(FitMixin, ToggleButton):
    pass


def shape_points(shape: str, cx: float, cy: float, s: float) -> list[float]:
    """Outline of a player shape of radius ``s`` around (cx, cy); "cross" is drawn apart."""
    n, r2, rot = {
        "triangle": (3, 1.0, math.pi / 2),
        "square": (4, 1.0, math.pi / 4),
        "diamond": (4, 1.0, 0.0),
        "star": (10, 0.45, math.pi / 2),
        "circle": (24, 1.0, 0.0),
        "cross": (4, 1.0, math.pi / 4),
    }.get(shape, (24, 1.0, 0.0))
    pts: list[float] = []
    for i in range(n):
        r = s if (i % 2 == 0 or r2 == 1.0) else s * r2
        a = rot + 2 * math.pi * i / n
        pts += [cx + r * math.cos(a), cy + r * math.sin(a)]
    return pts


def fan(pts: list[float], cx: float, cy: float) -> tuple[list[float], list[int]]:
    """Mesh vertices and indices filling a star-shaped outline from its centre."""
    verts: list[float] = [cx, cy, 0, 0]
    for i in range(0, len(pts), 2):
        verts += [pts[i], pts[i + 1], 0, 0]
    verts += [pts[0], pts[1], 0, 0]
    return verts, list(range(len(verts) // 4))


def reuse(pool: list[Any], count: int, make: Callable[[], Any], keep: int = 12) -> list[Any]:
    """The first ``count`` widgets of ``pool``, making the missing ones.

    Pictures redraw after every event: widgets made anew each time would
    allocate new (GL) textures and buffers each time, and leave garbage for the
    collector; reused ones keep theirs when their text stays the same.  Spares
    beyond ``keep`` (after a rare long list) are let go.
    """
    while len(pool) < count:
        pool.append(make())
    del pool[max(count, keep) :]
    return pool[:count]


def keep_children(container: Any, count: int, make: Callable[[], Any]) -> list[Any]:
    """Exactly ``count`` children in ``container``, in display order: the ones
    there are kept (rows a picture refreshes in place, see ``reuse``), missing
    ones made with ``make``, extra ones removed."""
    while len(container.children) < count:
        container.add_widget(make(), index=len(container.children))
    while len(container.children) > count:
        container.remove_widget(container.children[0])
    return list(reversed(container.children))


def fans_mesh(outlines: list[tuple[list[float], float, float]]) -> dict[str, list[Any]]:
    """``Mesh`` arguments (mode "triangles") filling every star-shaped outline
    (points, centre x, centre y) of the list: one vertex buffer for all of them
    instead of one per shape (~0.1 MB each under Mesa's software GL)."""
    vertices: list[float] = []
    indices: list[int] = []
    for pts, cx, cy in outlines:
        verts, _ = fan(pts, cx, cy)
        base = len(vertices) // 4
        n = len(verts) // 4
        vertices += verts
        for k in range(1, n - 1):
            indices += [base, base + k, base + k + 1]
    return {"vertices": vertices, "indices": indices}


def shapes_mesh(shape: str, at: list[tuple[float, float]], radius: float) -> dict[str, list[Any]]:
    """``fans_mesh`` of one player shape of ``radius`` at every point."""
    return fans_mesh([(shape_points(shape, x, y, radius), x, y) for x, y in at])


def outlines_mesh(outlines: list[list[float]]) -> dict[str, list[Any]]:
    """``Mesh`` arguments (mode "lines", one pixel wide) for closed outlines."""
    vertices: list[float] = []
    indices: list[int] = []
    for pts in outlines:
        base = len(vertices) // 4
        n = len(pts) // 2
        for i in range(n):
            vertices += [pts[2 * i], pts[2 * i + 1], 0, 0]
            indices += [base + i, base + (i + 1) % n]
    return {"vertices": vertices, "indices": indices}


class Panel(BoxLayout):
    """A box with a flat background colour (``bg``)."""

    bg = ListProperty(list(theme.PANEL))


class PlayerMark(Widget):
    """A player's colour as a filled shape with a dark outline.

    The shape differs per seat, so the mark still tells players apart in
    greyscale or for colour-blind players.
    """

    shape = StringProperty("circle")
    rgba = ListProperty([1, 1, 1, 1])
    active = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        # Drawn once per frame after layout has settled: a layout moves x, y,
        # width and height one at a time, and drawing between them misplaces the shape.
        self._redraw = Clock.create_trigger(self._draw, -1)
        super().__init__(**kw)
        for prop in ("pos", "size", "shape", "rgba", "active"):
            self.fbind(prop, self._redraw)
        self._redraw()

    def _points(self) -> list[float]:
        return shape_points(self.shape, *self.center, min(self.width, self.height) * 0.42)

    def _draw(self, *_: Any) -> None:
        from kivy.graphics import Color, Line, Mesh, Rectangle

        self.canvas.clear()
        with self.canvas:
            if self.shape == "cross":
                s = min(self.width, self.height) * 0.42
                t = s * 0.38
                cx, cy = self.center
                Color(0, 0, 0, 1)
                Rectangle(pos=(cx - s - 2, cy - t - 2), size=(2 * s + 4, 2 * t + 4))
                Rectangle(pos=(cx - t - 2, cy - s - 2), size=(2 * t + 4, 2 * s + 4))
                Color(*self.rgba)
                Rectangle(pos=(cx - s, cy - t), size=(2 * s, 2 * t))
                Rectangle(pos=(cx - t, cy - s), size=(2 * t, 2 * s))
            else:
                pts = self._points()
                cx, cy = self.center
                verts, indices = fan(pts, cx, cy)
                Color(*self.rgba)
                Mesh(vertices=verts, indices=indices, mode="triangle_fan")
                Color(0, 0, 0, 1)
                Line(points=[*pts, pts[0], pts[1]], width=1.5, close=True)
            if self.active:
                Color(*theme.TEXT)
                Line(rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2), width=1.5)


def load_kv(module_file: str) -> None:
    """Load the .kv file that sits next to a module (one .kv per screen)."""
    path = os.path.splitext(module_file)[0] + ".kv"
    if path not in Builder.files:
        Builder.load_file(path)


load_kv(__file__)
