"""Home: pick a game, or resume a stored one; recent results."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion import registry
from companion.errors import BellwetherError

from .. import prefs, theme
from ..widgets import FitButton, load_kv
from . import release

log = logging.getLogger(__name__)

MAX_STORED = 30  # the list is for picking up recent games, not an archive


def game_availability(broken: Mapping[str, str] | None = None) -> list[tuple[str, str, str | None]]:
    """(name, title, why unavailable or None) for every registered game.

    An engine still being written (module missing, or failing when picked:
    ``broken``) is listed but disabled with the reason, so the picker always
    shows all five games.  Nothing is imported here: Home does not hold five
    engines in memory to show five titles.
    """
    broken = broken or {}
    out = []
    for name in registry.names():
        why = broken.get(name) or registry.missing(name)
        out.append((name, registry.title(name), None if why is None else f"not available: {why}"))
    return out


def describe_stored(info: Any) -> str:
    """One line for a stored game: date, players, and where it stands."""
    try:
        title = registry.title(info.game)
    except BellwetherError:  # a game no longer registered: its name will do
        title = info.game
    when = time.strftime("%d %b %H:%M", time.localtime(info.updated))
    players = ", ".join(info.players)
    outcome = info.summary.get("outcome")
    if outcome:
        winners = outcome.get("winners") or (outcome.get("ranking") or ["?"])[:1]
        if outcome.get("headline"):  # a cooperative result: the table's, not one player's
            state = f"finished: {outcome['headline']}"
        else:
            state = f"finished, {'shared by ' + ' and '.join(winners) if len(winners) > 1 else 'won by ' + winners[0]}"
    elif info.summary.get("abandoned"):
        state = "abandoned"
    else:
        state = "in play"
    return f"{title} · {when} · {players} · {state}"


class HomeScreen(Screen):
    _shown: Any = None

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.broken: dict[str, str] = {}  # games whose engine failed when picked, and why

    def refresh(self) -> None:
        app = App.get_running_app()
        available = game_availability(self.broken)
        infos = app.store.sessions()[:MAX_STORED] if app.store is not None else []
        key = (available, [(i.id, i.updated) for i in infos], app.palette)
        if key == self._shown:
            return  # rebuilding would replace a button under a finger mid-tap
        self._shown = key
        games = self.ids.games
        games.clear_widgets()
        for name, title, why in available:
            b = FitButton(text=title if why is None else f"{title}\n({why})", disabled=why is not None)
            b.game_name = name
            b.bind(on_release=lambda btn: self.pick(btn.game_name))
            games.add_widget(b)
        stored = self.ids.stored
        stored.clear_widgets()
        for info in infos:
            row = BoxLayout(spacing=dp(4))
            b = FitButton(text=describe_stored(info), halign="left", max_font=17, min_font=sp(14))
            b.session_id = info.id
            b.bind(on_release=lambda btn: self.resume(btn.session_id))
            remove = FitButton(text="Remove", size_hint_x=None, width=theme.touch_size() * 1.8, min_font=sp(14))
            remove.info = info
            remove.bind(on_release=lambda btn: self.ask_remove(btn.info))
            row.add_widget(b)
            row.add_widget(remove)
            stored.add_widget(row)
        self.ids.nothing_stored.opacity = 0 if infos else 1

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def on_pre_leave(self, *_: Any) -> None:
        # Home stays built but its lists are let go while a game is on: the
        # Setup and Table screens are built next, in their memory.
        self.ids.games.clear_widgets()
        self.ids.stored.clear_widgets()
        self._shown = None
        release()

    def pick(self, game_name: str) -> None:
        app = App.get_running_app()
        try:
            registry.get(game_name)  # the engine's module is imported here, on first pick
        except Exception as e:  # an engine still being written may fail in any way: the others play on
            log.exception("engine %s failed to load", game_name)
            self.broken[game_name] = f"{type(e).__name__}: {e}"
            app.message = f"{registry.title(game_name)} is not available: {e}"
            self.refresh()
            return
        app.root.get_screen("setup").prepare(game_name)
        app.go("setup")

    # -- tidying the list ----------------------------------------------------------
    _asked: Any = None  # the stored game waiting for Abandon / Delete / Keep

    def ask_remove(self, info: Any) -> None:
        """Remove asks first: abandon (kept in the history, marked) or delete (gone), or keep."""
        self._asked = info
        finished = bool(info.summary.get("outcome")) or bool(info.summary.get("abandoned"))
        self.ids.confirm_text.text = f"{describe_stored(info).split(' · ')[0]} of {time.strftime('%d %b %H:%M', time.localtime(info.updated))}: delete it, or abandon it (kept in the history)?"
        self.ids.abandon.disabled = finished
        self.ids.abandon.opacity = 0 if finished else 1
        self.ids.confirm.height = theme.touch_size() + dp(52)
        self.ids.confirm.opacity = 1
        self.ids.confirm.disabled = False
        self.ids.abandon.disabled = finished

    def keep(self) -> None:
        self._asked = None
        self.ids.confirm.height = 0
        self.ids.confirm.opacity = 0
        self.ids.confirm.disabled = True

    def remove(self, how: str) -> None:
        app = App.get_running_app()
        info, self._asked = self._asked, None
        if info is not None and app.store is not None:
            try:
                (app.store.delete_session if how == "delete" else app.store.abandon_session)(info.id)
            except BellwetherError as e:
                app.message = str(e)
            if how == "delete" and prefs.open_game(app.options.data_dir) == info.id:
                prefs.set_open_game(app.options.data_dir, None)
        self.keep()
        self._shown = None
        self.refresh()

    def resume(self, session_id: int) -> None:
        app = App.get_running_app()
        try:
            app.open_session(session_id)
        except BellwetherError as e:
            app.message = str(e)
            self.refresh()
load_kv(__file__)
