""""Share results": write plays to a USB stick the Pi has mounted, or to its data
folder, in the format the table's other app reads.  No network: a folder."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion import paths
from companion.errors import BellwetherError
from companion.plays.export import FORMATS, default_name, render, share_folders, write_atomic

from . import theme
from .widgets import FitButton, FitLabel, FitToggle


class SharePanel(ModalView):
    """Pick the format (BG Stats by default), then touch the folder to write to."""

    def __init__(self, sessions: Sequence[int] | None = None, **kw: Any) -> None:
        super().__init__(size_hint=(0.96, 0.94), auto_dismiss=False, background_color=(0, 0, 0, 0.6), **kw)
        self.sessions = None if sessions is None else list(sessions)
        self.format = "bgstats"
        self.written: Path | None = None
        box = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(6))
        with box.canvas.before:
            from kivy.graphics import Color, Rectangle

            Color(*theme.PANEL)
            self._bg = Rectangle(pos=box.pos, size=box.size)
        box.bind(pos=lambda w, v: setattr(self._bg, "pos", v), size=lambda w, v: setattr(self._bg, "size", v))
        what = "this game" if self.sessions else "every finished game"
        box.add_widget(FitLabel(text=f"Share results: {what}", size_hint_y=None, height=dp(36), max_font=sp(22), min_font=sp(14), bold=True))
        formats = BoxLayout(size_hint_y=None, height=theme.touch_size(), spacing=dp(4))
        self.toggles = {}
        for f in FORMATS.values():
            t = FitToggle(text=f.label, group="share-format", allow_no_selection=False, state="down" if f.name == self.format else "normal", max_font=sp(18), min_font=sp(14))
            t.format_name = f.name
            t.bind(on_release=lambda btn: self.choose(btn.format_name))
            self.toggles[f.name] = t
            formats.add_widget(t)
        box.add_widget(formats)
        box.add_widget(FitLabel(text="Write to:", size_hint_y=None, height=dp(26), max_font=sp(16), min_font=sp(14), color=theme.MUTED))
        self.folders = GridLayout(cols=1, spacing=dp(4), size_hint_y=None, row_default_height=theme.touch_size() + dp(10), row_force_default=True)
        self.folders.bind(minimum_height=self.folders.setter("height"))
        app = App.get_running_app()
        data = paths.data_dir(getattr(getattr(app, "options", None), "data_dir", None))
        for label, folder in share_folders(data):
            b = FitButton(text=label, max_font=sp(18), min_font=sp(14))
            b.folder, b.label = folder, label
            b.bind(on_release=lambda btn: self.write(btn.folder, btn.label))
            self.folders.add_widget(b)
        scroll = ScrollView(do_scroll_x=False)  # one row a USB stick, the data folder last
        scroll.add_widget(self.folders)
        box.add_widget(scroll)
        self.status = FitLabel(text="No network needed: plug in a USB stick to see it here.", size_hint_y=None, height=dp(48), max_font=sp(16), min_font=sp(14))
        box.add_widget(self.status)
        close = FitButton(text="Close", size_hint_y=None, height=theme.touch_size())
        close.bind(on_release=lambda *_: self.dismiss())
        box.add_widget(close)
        self.add_widget(box)

    def choose(self, format_name: str) -> None:
        self.format = format_name

    def write(self, folder: Path, label: str = "") -> Path | None:
        app = App.get_running_app()
        if app.store is None:
            self.status.text = "No game store is open."
            return None
        try:
            text, count = render(app.store, self.format, sessions=self.sessions)
            if count == 0:
                self.status.text = "Nothing to share yet: no finished game."
                return None
            path = write_atomic(Path(folder) / default_name(self.format), text)
        except BellwetherError as e:
            self.status.text = f"Not written: {e}"
            self.status.color = theme.WARN
            return None
        self.status.color = theme.TEXT
        self.written = path
        self.status.text = f"{count} play{'' if count == 1 else 's'} written: {path.name} ({label or path.parent})"
        return path
