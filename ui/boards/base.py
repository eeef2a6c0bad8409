"""What every game's picture is built on: the Setup screen's per-game spec, the
redraw-when-moved mixin, taps on drawn targets, the chosen-button frame.

In a module of its own so the pictures (``generic`` among them) take it from
here while ``ui.boards`` picks a picture by game: no import loop between them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from .. import theme


@dataclass(frozen=True)
class SetupSpec:
    """What the Setup screen asks per player (the game's variants are the game's: ``Game.setup_options``)."""

    key: str = "colour"  # per-player key: "colour" or "character"
    values: tuple[str, ...] = tuple(s.name for s in theme.PALETTES["standard"])


class Picture:
    """Mixin for a game's picture: ``update`` is called on every Table refresh,
    so it redraws (``draw``) only when the game moved on or the palette changed."""

    _shown: Any = None

    def redraw_key(self, session: Any) -> tuple[Any, ...]:
        from kivy.app import App

        return (id(session), len(session.log), App.get_running_app().palette)

    def update(self, session: Any) -> None:
        key = self.redraw_key(session)
        if key == self._shown:
            return
        before, self._shown = self._shown, key
        self.draw(session, before)

    def draw(self, session: Any, before: tuple[Any, ...] | None) -> None:
        raise NotImplementedError

    # The Table lets its picture go while another view shows and makes a new
    # one on return: what a player has touched on it but not yet played (a
    # sheep, a place) is handed over, if the game has not moved meanwhile.
    def held(self) -> Any:
        return None

    def hold(self, value: Any) -> None:
        """Take back what ``held`` returned (the game has not moved since)."""


TAP_SLOP = 12  # px a finger may slide and still tap (more is a drag that scrolls)


class Taps:
    """Mixin for a drawn picture (a Widget) whose touch targets are found by
    ``target_at(x, y)``: a tap is the same target under the finger down and
    up (a drag that scrolls the picture is not a tap); it calls ``tapped``."""

    def target_at(self, x: float, y: float) -> Any:
        return None

    def tapped(self, target: Any) -> None:
        """Called with the target a finger tapped."""

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):  # type: ignore[attr-defined]
            touch.ud[id(self)] = (self.target_at(*touch.pos), tuple(touch.spos))
        return super().on_touch_down(touch)  # type: ignore[misc]

    def on_touch_up(self, touch: Any) -> bool:
        # Compared in screen terms (``spos``): a ScrollView that hands a slow
        # tap on after its timeout may give the release in other coordinates.
        from kivy.core.window import Window

        down = touch.ud.get(id(self))
        if down is not None and down[0] is not None:
            (sx, sy), (ux, uy) = down[1], touch.spos
            if abs(sx - ux) * Window.width < TAP_SLOP and abs(sy - uy) * Window.height < TAP_SLOP:
                touch.ud[id(self)] = None
                self.tapped(down[0])
                return True
        return super().on_touch_up(touch)  # type: ignore[misc]


@functools.cache
def chosen_button_class() -> type:
    """A FitButton that can be marked as the one chosen (a thick accent frame):
    a button's own "down" colour is reset by the finger's release."""
    from kivy.graphics import Color, Line
    from kivy.properties import BooleanProperty

    from ..widgets import FitButton

    class ChosenButton(FitButton):
        chosen = BooleanProperty(False)

        def __init__(self, **kw: Any) -> None:
            super().__init__(**kw)
            self.fbind("chosen", self._frame)
            self.fbind("pos", self._frame)
            self.fbind("size", self._frame)

        def _frame(self, *_: Any) -> None:
            self.canvas.after.remove_group("chosen")
            if self.chosen:
                self.canvas.after.add(Color(*theme.ACCENT, group="chosen"))
                self.canvas.after.add(
                    Line(rectangle=(self.x + 2, self.y + 2, self.width - 4, self.height - 4), width=3, group="chosen")
                )

    return ChosenButton
