"""Entry point of the touchscreen app: ``ui.app.run(args) -> int``.

Only the standard library is imported at module level: Kivy reads its
environment and window configuration when first imported, so those are set
here first, and ``bellwether games`` never pays for Kivy.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from companion import paths
from companion.errors import ConfigError

DEFAULT_SIZE = (800, 480)  # the official Raspberry Pi 7" display


def parse_size(text: str | None) -> tuple[int, int]:
    if not text:
        return DEFAULT_SIZE
    m = re.fullmatch(r"\s*(\d{2,5})\s*[xX×]\s*(\d{2,5})\s*", text)
    if not m:
        raise ConfigError("--size", "size", "WIDTHxHEIGHT, e.g. 800x480", text)
    return int(m.group(1)), int(m.group(2))


def _lean_process() -> None:
    """Two process-wide memory settings for the app (benchmarks/ui_bench.py, docs/ui.md "Memory").

    - The app never uses the network, but Kivy's clock imports asyncio, which
      imports ``ssl`` only to offer TLS, and that maps OpenSSL (~4 MB resident).
      A ``None`` entry makes ``import ssl`` fail, which asyncio expects and
      handles (it then offers no TLS); nothing else in the app imports it.
    - glibc raises its mmap threshold after the first large block is freed, so
      later textures and text surfaces land inside the heap, where what they
      leave behind splits it.  A fixed 64 KiB threshold keeps large blocks in
      their own mappings, returned whole when freed (~1-2 MB in play at
      1280x720, none measurable at 800x480).  Its price: the camera's frames
      are mapped afresh each time too, 11% more time per dice reading
      (10.9 -> 12.1 ms p50 on the development machine, target 30 ms).
    """
    if "ssl" not in sys.modules:
        sys.modules["ssl"] = None  # type: ignore[assignment]
    if sys.platform.startswith("linux"):
        import contextlib
        import ctypes

        # Not glibc (musl has no mallopt): nothing to set.
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).mallopt(-3, 64 * 1024)  # M_MMAP_THRESHOLD (glibc's malloc.h)


def _quiet_cutbuffer() -> None:
    """Kivy's X cut-buffer probe (xclip/xsel only, whatever KIVY_CLIPBOARD says) logs a
    CRITICAL with tracebacks when neither is installed, which reads like a crash in the
    journal.  Nothing here needs the cut buffer (the SDL2 clipboard serves the app), so
    that record becomes one INFO line."""
    import logging

    def soften(record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and str(record.msg).startswith("Cutbuffer: Unable to find"):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg, record.args, record.exc_info = "Cutbuffer: none (xclip/xsel not installed; not needed)", (), None
        return True

    logging.getLogger("kivy").addFilter(soften)


def configure_kivy(size: tuple[int, int], fullscreen: bool) -> None:
    """Set Kivy's environment and window before anything imports Kivy."""
    # Kivy must not parse the bellwether command line as its own options.
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    # Images through SDL2 only: Kivy's PIL and ffpyplayer image providers
    # would import Pillow, numpy and FFmpeg (~14 MB) for PNGs SDL2 reads itself.
    os.environ.setdefault("KIVY_IMAGE", "sdl2")
    # OpenCV's own warnings (a missing /dev/video0 at every retry) would fill the
    # terminal of a Pi with no camera; the Settings screen says it in one line.
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
    # The clipboard through SDL2 (always there with the window): Kivy's first choices
    # on Linux run the xclip/xsel programs, which a Pi image does not have.
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2,dummy")
    _lean_process()
    if os.environ.get("KIVY_HOME"):
        Path(os.environ["KIVY_HOME"]).mkdir(parents=True, exist_ok=True)  # Kivy creates only the last folder
    if "kivy.core.window" in sys.modules:
        return  # a window already exists (tests that build the app twice are not supported)
    from kivy.config import Config

    _quiet_cutbuffer()

    Config.set("kivy", "exit_on_escape", "0")  # Escape must not end a game by accident
    Config.set("input", "mouse", "mouse,disable_multitouch")  # right-click would leave red dots
    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "show_cursor", "0" if fullscreen else "1")
    # No multisampling: flat shapes and text gain nothing from it, and the
    # multisampled framebuffer costs ~12 MB (measured with benchmarks/ui_bench.py).
    Config.set("graphics", "multisamples", "0")
    from . import gl_visual, llvmpipe

    # Under Mesa's software renderer, draw in less memory (ui/llvmpipe.py); first,
    # as gl_visual's query already loads the renderer.
    llvmpipe.configure()
    # No depth or stencil buffer beside the window's colour buffer, where the
    # platform lets us say so (X11): 4 bytes a pixel the app never draws into.
    gl_visual.choose()


def run(args: argparse.Namespace) -> int:
    size = parse_size(getattr(args, "size", None))
    fullscreen = bool(getattr(args, "fullscreen", False))
    # --data-dir and --config-dir reach every reader and writer the app has (sensor
    # openers, the Calibrate screen, board checks), all of which ask companion.paths.
    for option, env in (("data_dir", "BELLWETHER_DATA_DIR"), ("config_dir", "BELLWETHER_CONFIG_DIR")):
        explicit = getattr(args, option, None)
        if explicit is not None:
            os.environ[env] = str(paths.data_dir(explicit) if option == "data_dir" else paths.config_dir(explicit))
    configure_kivy(size, fullscreen)
    from .application import AppOptions, BellwetherApp

    options = AppOptions(
        data_dir=Path(paths.data_dir(getattr(args, "data_dir", None))),
        game=getattr(args, "game", None),
        resume=getattr(args, "resume", None),
    )
    app = BellwetherApp(options)
    app.run()
    return app.exit_code
