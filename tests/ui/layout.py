"""Geometry checks run inside the app process on the screen being shown.

Text is clipped when a label's rendered texture is larger than the label, and
overlaps when two labels' rectangles intersect; buttons too small to touch
are reported as well, words broken mid-word for want of width, and
characters the label's font has no glyph for (they would show as an empty box).  Only what is actually visible counts: labels with no
text, zero size or zero opacity, and rows scrolled out of a ScrollView, are
skipped.
"""

from __future__ import annotations

from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.uix.button import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

SLACK = 1.0  # pixels of rounding
NO_GLYPH = "\ue000"  # a private-use character: no font the app uses draws it
_missing: dict[tuple[str, str, bool], bool] = {}


def _pixels(text: str, font: str, bold: bool) -> bytes:
    label = CoreLabel(text=text, font_name=font, bold=bold, font_size=24)
    label.refresh()
    return bytes(label.texture.pixels)


def _no_glyph(ch: str, font: str, bold: bool) -> bool:
    """Whether the font draws ``ch`` as its missing-glyph box."""
    key = (ch, font, bold)
    if key not in _missing:
        _missing[key] = _pixels(ch, font, bold) == _pixels(NO_GLYPH, font, bold)
    return _missing[key]


def _visible(w: Any) -> bool:
    node = w
    while node is not None:
        if getattr(node, "opacity", 1) <= 0:
            return False
        parent = node.parent
        if parent is node:
            break
        node = parent
    return w.width > 1 and w.height > 1


def _window_rect(w: Any) -> tuple[float, float, float, float]:
    x0, y0 = w.to_window(w.x, w.y)
    x1, y1 = w.to_window(w.right, w.top)
    return x0, y0, x1, y1


def _clip_rect(w: Any) -> tuple[float, float, float, float]:
    """The part of the window the widget can show in: the window, narrowed by any ScrollView above it."""
    rect = (0.0, 0.0, float(Window.width), float(Window.height))
    node = w.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            r = _window_rect(node)
            rect = (max(rect[0], r[0]), max(rect[1], r[1]), min(rect[2], r[2]), min(rect[3], r[3]))
        node = node.parent
    return rect


def _inside(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] >= b[0] - SLACK and a[1] >= b[1] - SLACK and a[2] <= b[2] + SLACK and a[3] <= b[3] + SLACK


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > SLACK and h > SLACK else 0.0


def _walk(w: Any) -> list[Any]:
    out = [w]
    for c in reversed(w.children):  # in the order they were added
        out += _walk(c)
    return out


def check(root: Any, min_touch: float) -> list[str]:
    """Problems on the shown screen, as readable sentences (empty: all good)."""
    problems: list[str] = []
    shown: list[tuple[Any, tuple[float, float, float, float]]] = []
    for w in _walk(root):
        if isinstance(w, TextInput) or not _visible(w):
            continue
        if not isinstance(w, Label):
            continue
        rect = _window_rect(w)
        clip = _clip_rect(w)
        fully_shown = _inside(rect, clip)
        partly_shown = _overlap(rect, clip) > 0
        if not partly_shown:
            continue  # scrolled away: reachable by scrolling, not clipped
        is_button = isinstance(w, ButtonBehavior)
        if is_button and not w.disabled and (w.width < min_touch - SLACK or w.height < min_touch - SLACK):
            problems.append(f"button {w.text!r} is {w.width:.0f}x{w.height:.0f} px, under {min_touch:.0f} px")
        if not w.text:
            continue
        boxes = sorted({ch for ch in w.text if ord(ch) > 127 and _no_glyph(ch, w.font_name, w.bold)})
        if boxes:
            problems.append(f"no glyph for {''.join(boxes)!r} in {w.text[:40]!r} ({w.font_name})")
        if not fully_shown and not _inside(rect, (0, 0, Window.width, Window.height)):
            problems.append(f"label {w.text[:40]!r} runs off the window: {rect}")
        if w.text_size and w.text_size[0] and not w.markup:
            # Kivy breaks a word wider than the line mid-word ("multicoloure/d");
            # its text_size includes the padding.
            pad = w._label.options["padding"]
            line = w.text_size[0] - pad[0] - pad[2]
            broken = sorted(word for word in set(w.text.split()) if w._label.get_extents(word)[0] > line + SLACK)
            if broken:
                problems.append(f"word broken across lines: {broken[0]!r} in {w.text[:40]!r}, lines {line:.0f} px")
        tw, th = w.texture_size
        if tw > w.width + SLACK or th > w.height + SLACK:
            problems.append(f"text clipped: {w.text[:50]!r} needs {tw:.0f}x{th:.0f} in {w.width:.0f}x{w.height:.0f}")
        if fully_shown:
            shown.append((w, rect))
    for i, (a, ra) in enumerate(shown):
        for b, rb in shown[i + 1 :]:
            if _overlap(ra, rb) > 0:
                problems.append(f"labels overlap: {a.text[:30]!r} and {b.text[:30]!r}")
    return problems


def texts(root: Any) -> list[str]:
    """Every visible label's text, top to bottom (for assertions and reports)."""
    found = [(w, _window_rect(w)) for w in _walk(root) if isinstance(w, Label) and w.text and _visible(w)]
    found.sort(key=lambda p: (-p[1][3], p[1][0]))
    return [w.text for w, _ in found]
