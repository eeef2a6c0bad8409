"""Text rendering that keeps no second copy of every label's pixels.

Kivy 2.3's SDL2 text provider renders a label into an SDL surface, copies the
pixels into the label's GL texture, and then keeps the surface until that
label is rendered again (``LabelSDL2._surface``): every label on screen holds
its text twice, once as a texture and once as a surface in the C heap.  For a
table app that stays on for hours that is 4-5 MB of resident memory in play
(``benchmarks/ui_bench.py``, peak 165 -> 160 MB), for nothing: the texture is
what is drawn, and a re-render makes a new surface anyway.
"""

from __future__ import annotations

from typing import Any

_patched = False


def release_label_surfaces() -> None:
    """Let the SDL2 text provider drop each surface once its pixels are copied.

    Other text providers (Pango, PIL) keep no surface; they are left alone.
    """
    global _patched
    if _patched:
        return
    try:
        import kivy
        from kivy.core.text.text_sdl2 import LabelSDL2
    except ImportError:  # another text provider: nothing kept twice
        return
    if not kivy.__version__.startswith("2.") or not hasattr(LabelSDL2, "_render_end"):
        # A private detail of Kivy 2.x: another Kivy is left as it is (its labels
        # may keep their surfaces; benchmarks/ui_bench.py would show it).
        return

    def _render_end(self: Any) -> Any:
        surface = self._surface
        self._surface = None  # freed now (SDL_FreeSurface in its __dealloc__), not at the next render
        return surface.get_data()

    LabelSDL2._render_end = _render_end
    _patched = True
