"""Drawing with Mesa's software OpenGL renderer (llvmpipe) in less memory.

Where there is no GPU driver (a desktop without one, Xvfb in the tests and
benchmarks, a Pi with its V3D driver turned off), Mesa's llvmpipe draws the
window on the CPU.  It collects a frame's draws into a "scene" and rasterizes
it when the frame is flushed; every time a draw uses another texture than the
one before, the scene stores a fresh copy of the fragment state, ~40 kB with
llvmpipe's table of 128 texture slots.  Every label is its own texture, drawn
between plain shapes (Kivy's blank texture), so it switches texture twice: a
screen of 50 labels held ~4 MB of scene data per frame, and with rasterizer
threads several frames' scenes were alive at once.

So, under llvmpipe only: the rasterizer runs in the drawing thread
(``LP_NUM_THREADS=0``, read by llvmpipe when it loads: ``configure`` runs
before anything opens the display), and the scene is flushed after each text
is drawn (``after_text``, called by the Fit* labels' and buttons' canvases,
ui/widgets.kv), so a scene holds one or two labels' worth.  Measured with
benchmarks/ui_bench.py at 1280x720: peak 152 -> 146 MB, the Table drawn in
14.0-14.6 ms instead of 12.2 ms (docs/ui.md "Memory").  A GPU
driver is left alone: flushing mid-frame costs a tiled GPU (the Pi's V3D)
far more than it saves.  ``BELLWETHER_GL_FLUSH=0`` turns the flushes off.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

THREADS = "LP_NUM_THREADS"
SWITCH = "BELLWETHER_GL_FLUSH"

_flush: Callable[[], None] | bool | None = None  # glFlush under llvmpipe, False elsewhere; None until a text is drawn


def _switched_on(environ: Mapping[str, str]) -> bool:
    return environ.get(SWITCH, "1") != "0"


def configure(environ: MutableMapping[str, str] = os.environ) -> None:
    """Before the window exists: llvmpipe rasterizes in the drawing thread
    (other drivers ignore the variable); a value set by the user stays."""
    if _switched_on(environ):
        environ.setdefault(THREADS, "0")


def enabled() -> bool:
    """Whether texts are flushed (known once the window has drawn one)."""
    return bool(_flush)


def after_text(_instruction: Any) -> None:
    """A canvas ``Callback``: hand the scene drawn so far to llvmpipe."""
    global _flush
    if _flush is None:
        from kivy.graphics import opengl as gl

        renderer = gl.glGetString(gl.GL_RENDERER) or b""
        _flush = gl.glFlush if b"llvmpipe" in renderer and _switched_on(os.environ) else False
    if callable(_flush):
        _flush()
