"""The window's OpenGL framebuffer without depth and stencil buffers, on X11.

Kivy asks SDL for a 16-bit depth and an 8-bit stencil buffer beside the
window's colour buffer, and nothing in this app draws with depth; its only use
of the stencil is Kivy's scroll views clipping their content, which
``ui/clipping.py`` does with OpenGL's scissor as well.  With Mesa's software
renderer the combined depth-stencil buffer is 4 bytes a pixel of process
memory, cleared every frame: 1.5 MB at 800x480, 3.7 MB at 1280x720
(benchmarks/ui_bench.py, docs/ui.md "Memory").

Kivy sets those sizes itself right before SDL creates the window, but SDL lets
the X11 visual be named (``SDL_VIDEO_X11_WINDOW_VISUALID``), and for the OpenGL
2 context Kivy asks for, SDL makes the context from the window's visual.  So
this module finds a visual whose GLX framebuffer configuration is
double-buffered 8-bit RGBA with no depth, no stencil and no multisampling, and
names it, before Kivy's window exists.  Anywhere else (Wayland, KMS, another
OS, no libGL, a visual already named by the user) it does nothing and Kivy's
default stays: the scroll views' stencil clipping still works there.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import sys
from collections.abc import MutableMapping
from typing import Any

log = logging.getLogger(__name__)

HINT = "SDL_VIDEO_X11_WINDOW_VISUALID"

# GLX constants (GL/glx.h, GL/glxext.h)
_GLX_DOUBLEBUFFER = 5
_GLX_RED_SIZE, _GLX_GREEN_SIZE, _GLX_BLUE_SIZE, _GLX_ALPHA_SIZE = 8, 9, 10, 11
_GLX_DEPTH_SIZE, _GLX_STENCIL_SIZE = 12, 13
_GLX_CONFIG_CAVEAT, _GLX_NONE = 0x20, 0x8000
_GLX_X_VISUAL_TYPE, _GLX_TRUE_COLOR = 0x22, 0x8002
_GLX_VISUAL_ID = 0x800B
_GLX_DRAWABLE_TYPE, _GLX_WINDOW_BIT = 0x8010, 0x1
_GLX_RENDER_TYPE, _GLX_RGBA_BIT = 0x8011, 0x1
_GLX_SAMPLE_BUFFERS = 100000

# What the chosen configuration must read, attribute by attribute; the two bit
# masks are checked with "&" instead (see _visual_id).
_WANTED = {
    _GLX_DOUBLEBUFFER: 1,
    _GLX_RED_SIZE: 8,
    _GLX_GREEN_SIZE: 8,
    _GLX_BLUE_SIZE: 8,
    _GLX_ALPHA_SIZE: 8,
    _GLX_DEPTH_SIZE: 0,
    _GLX_STENCIL_SIZE: 0,
    _GLX_SAMPLE_BUFFERS: 0,
    _GLX_CONFIG_CAVEAT: _GLX_NONE,
    _GLX_X_VISUAL_TYPE: _GLX_TRUE_COLOR,
}


def choose(environ: MutableMapping[str, str] = os.environ) -> int | None:
    """Name a visual without depth and stencil for SDL, if this is X11; the visual's id, or None."""
    if not sys.platform.startswith("linux") or HINT in environ or not environ.get("DISPLAY"):
        return None
    if environ.get("SDL_VIDEODRIVER", "x11") != "x11" or environ.get("KIVY_GL_BACKEND", "") not in ("", "sdl2", "gl"):
        return None
    try:
        visual = _visual_id(environ["DISPLAY"])
    except (OSError, AttributeError, ValueError) as exc:  # no libX11/libGL, or an old one
        log.info("window: keeping the default OpenGL visual (%s)", exc)
        return None
    if visual is not None:
        environ[HINT] = str(visual)
        log.info("window: OpenGL visual 0x%x, no depth or stencil buffer", visual)
    return visual


def _visual_id(display_name: str) -> int | None:
    x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    gl = ctypes.CDLL(ctypes.util.find_library("GL") or "libGL.so.1")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultScreen.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    x11.XFree.argtypes = [ctypes.c_void_p]
    gl.glXGetFBConfigs.restype = ctypes.POINTER(ctypes.c_void_p)
    gl.glXGetFBConfigs.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
    gl.glXGetFBConfigAttrib.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]

    display = x11.XOpenDisplay(display_name.encode())
    if not display:
        return None
    try:
        count = ctypes.c_int(0)
        configs = gl.glXGetFBConfigs(display, x11.XDefaultScreen(display), ctypes.byref(count))
        if not configs:
            return None
        try:
            value = ctypes.c_int(0)

            def attribute(config: Any, name: int) -> int | None:
                ok = gl.glXGetFBConfigAttrib(display, config, name, ctypes.byref(value)) == 0
                return value.value if ok else None

            for i in range(count.value):
                config = configs[i]
                if any(attribute(config, k) != v for k, v in _WANTED.items()):
                    continue
                if not (attribute(config, _GLX_DRAWABLE_TYPE) or 0) & _GLX_WINDOW_BIT:
                    continue
                if not (attribute(config, _GLX_RENDER_TYPE) or 0) & _GLX_RGBA_BIT:
                    continue
                visual = attribute(config, _GLX_VISUAL_ID)
                if visual:
                    return visual
            return None
        finally:
            x11.XFree(configs)
    finally:
        x11.XCloseDisplay(display)
