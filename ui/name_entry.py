"""Typing a name by touch: Kivy's own on-screen keyboard, and the recent names to tap.

The 7" panel has no physical keyboard: touching a name on Setup opens this
view over the whole window, with the name as typed, the names used in
earlier games (one touch each), Kivy's ``VKeyboard`` (sized so its keys are
at least the touch size), and Done / Cancel.  A physical keyboard still
works in the text field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from kivy.uix.modalview import ModalView
from kivy.uix.vkeyboard import VKeyboard

from . import theme
from .widgets import FitButton, load_kv

MAX_RECENT = 6
MAX_NAME = 24  # characters


def recent_names(prefs: Any, taken: Iterable[str]) -> list[str]:
    """Names from earlier games (last table first), without those already at this table."""
    seen = {n.strip().lower() for n in taken if n.strip()}
    names = list(prefs.last_players)
    for setup in prefs.setups.values():
        names += [str(n) for n in (setup.get("names") or ())]
    out: list[str] = []
    for n in names:
        key = n.strip().lower()
        if key and key not in seen and not key.startswith("player "):
            seen.add(key)
            out.append(n.strip())
    return out[:MAX_RECENT]


class NameEntry(ModalView):
    """The whole-window name editor; ``done(name)`` is called with the new name."""

    def __init__(self, title: str, name: str, recent: list[str], done: Callable[[str], None], **kw: Any) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background_color=theme.BACKGROUND, **kw)
        self._done = done
        self.ids.title.text = title
        self.ids.field.text = "" if name.startswith("Player ") else name
        for n in recent:
            b = FitButton(text=n, min_font=14, max_font=20)
            b.bind(on_release=lambda btn: self.finish(btn.text))
            self.ids.recent.add_widget(b)
        self.ids.recent_row.height = theme.touch_size() if recent else 0
        self.ids.recent_row.opacity = 1 if recent else 0
        # Thin margins: the keys get the width (15 key widths a row must each reach the touch size at 800 px).
        keyboard = VKeyboard(do_translation=False, do_rotation=False, do_scale=False, size_hint=(None, None),
                             margin_hint=[0.01, 0.004, 0.01, 0.004], key_margin=[1, 1, 1, 1])
        keyboard.bind(on_textinput=self._typed, on_key_down=self._special)
        self.keyboard = keyboard
        self.ids.key_area.add_widget(keyboard)
        self.ids.key_area.bind(size=self._fit_keyboard, pos=self._fit_keyboard)

    def _fit_keyboard(self, holder: Any, *_: Any) -> None:
        self.keyboard.size = holder.size
        self.keyboard.pos = holder.pos

    def _typed(self, _keyboard: Any, text: str) -> None:
        field = self.ids.field
        if len(field.text) >= MAX_NAME:
            return
        # A name starts each word with a capital: no shift key to find on a touchscreen.
        if not field.text or field.text.endswith(" "):
            text = text.upper()
        field.text += text

    def _special(self, _keyboard: Any, keycode: str | None, text: str | None, _modifiers: Any) -> None:
        if keycode == "backspace":
            self.ids.field.text = self.ids.field.text[:-1]
        elif keycode == "enter":
            self.finish(self.ids.field.text)
        elif keycode is None and text:  # a keyboard window that is not SDL2 sends characters here
            self._typed(_keyboard, text)

    def clear(self) -> None:
        self.ids.field.text = ""

    def finish(self, name: str) -> None:
        name = " ".join(name.split())
        self.dismiss()
        if name:
            self._done(name)


load_kv(__file__)
