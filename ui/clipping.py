"""Scroll views clip what they hold to their own rectangle with OpenGL's scissor.

Kivy's ScrollView clips with the stencil buffer, and the window may have none
(ui/gl_visual.py: it costs 4 bytes a pixel under Mesa's software renderer),
so ``ui/widgets.kv`` gives every ScrollView a scissor as well.  The scissor is
in window pixels, and a view inside a RelativeLayout (a Screen, Home's stored
games list) moves on the window when the layout moves without its own ``pos``
changing, so the rectangle is taken from ``to_window`` as each frame is drawn,
not bound once.  Nested views clip to the intersection.  ``install`` closes
any scissor left open at the start of each frame (a drawing error mid-frame
would otherwise clip every later frame).  The rectangles are window pixels:
they would be wrong inside an Fbo (a ShaderTransition, ``export_to_png``) or
a rotated window, neither of which the app uses.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.graphics import opengl as gl

Rect = tuple[int, int, int, int]
_open: list[Rect] = []  # the scissors of the views being drawn, innermost last


def _intersect(a: Rect, b: Rect) -> Rect:
    x, y = max(a[0], b[0]), max(a[1], b[1])
    right, top = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return x, y, max(0, right - x), max(0, top - y)


def clip_to(widget: Any) -> Callable[[Any], None]:
    """A canvas ``Callback`` (before the view's content) that clips to ``widget``."""

    def push(_instruction: Any) -> None:
        x, y = widget.to_window(*widget.pos)
        left, bottom = math.floor(x), math.floor(y)  # whole pixels, the view's edges included
        width = max(0, math.ceil(x + widget.width) - left)
        height = max(0, math.ceil(y + widget.height) - bottom)
        rect: Rect = (left, bottom, width, height)
        if _open:
            rect = _intersect(rect, _open[-1])
        _open.append(rect)
        gl.glEnable(gl.GL_SCISSOR_TEST)
        gl.glScissor(*rect)

    return push


def unclip(_instruction: Any) -> None:
    """A canvas ``Callback`` (after the view's content): back to the enclosing view's scissor, or none."""
    if _open:
        _open.pop()
    if _open:
        gl.glScissor(*_open[-1])
    else:
        gl.glDisable(gl.GL_SCISSOR_TEST)


def _reset(_instruction: Any) -> None:
    _open.clear()
    gl.glDisable(gl.GL_SCISSOR_TEST)


def install(window: Any) -> None:
    """Close every scissor at the start of each frame of ``window`` (once)."""
    from kivy.graphics import Callback

    if not getattr(window, "_bellwether_clip_reset", False):
        window.canvas.before.add(Callback(_reset))
        window._bellwether_clip_reset = True


def depth() -> int:
    """Scissors open now (0 between frames; tests)."""
    return len(_open)
