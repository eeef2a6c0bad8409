"""Settings: each sensor online or offline and why, what it reports; palette; speech.

Only what the sensor objects themselves provide is shown: a sensor module
that is missing is listed offline with the reason, never with a made-up meter.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from .. import theme
from ..widgets import FitLabel, PlayerMark, load_kv

# A sensor's technical reason, in the players' words (the technical one stays on the card, in grey).
PLAIN_REASONS: tuple[tuple[str, str, str], ...] = (
    ("camera", "/dev/video", "No camera plugged in: dice are entered by touch."),
    ("microphone", "ALSA", "No microphone found: plug in a USB microphone (it is found within seconds); whistles are entered by touch."),
    ("buttons", "no button profile", "No buttons set up: touch Calibrate, then Buttons, if the table has GPIO buttons."),
    ("buttons", "stopped", "Lent to Calibrate, Buttons while the buttons are set up or tested."),
    ("buttons", "GPIO", "No GPIO buttons found: the touchscreen does everything they would."),
)


def plain_reason(name: str, online: bool, reason: str) -> str | None:
    """Why a sensor is offline, in plain words, or None where the reason is already plain."""
    if online:
        return None
    for sensor, marker, words in PLAIN_REASONS:
        if sensor == name and marker.lower() in reason.lower():
            return words
    return None


SHUTDOWN_COMMAND = "systemctl poweroff"  # logind lets the desktop's user do it; deploy/ has the rule for the service


def run_shutdown() -> str | None:
    """Ask the system to power off; None once it accepted, else why not in one line."""
    import os
    import shlex
    import subprocess

    command = shlex.split(os.environ.get("BELLWETHER_SHUTDOWN_COMMAND") or SHUTDOWN_COMMAND)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return lines[0] if lines else f"{command[0]} exited with {done.returncode}"
    return None


# What a sensor reports (SensorHub.details), in the players' words; the rest (its class, internal
# timers, what it waits for) is for the log, not the table.
DETAIL_WORDS: dict[str, str] = {
    "frames": "Pictures read",
    "fps": "Pictures a second",
    "detections": "Whistles heard",
    "level_db": "Sound level now (dBFS)",
    "device": "Device",
    "backend": "Device kind",
    "profile_error": "Profile problem",
}


def plain_details(details: list[tuple[str, str]]) -> list[str]:
    """The details worth showing, each a line in words (numbers rounded)."""
    lines = []
    for key, value in details:
        if key not in DETAIL_WORDS or value in ("", "None"):
            continue
        with contextlib.suppress(ValueError):  # a figure is rounded; words stay as they are
            value = f"{float(value):.0f}" if "." in value else value
        lines.append(f"{DETAIL_WORDS[key]}: {value}")
    return lines


class SensorCard(BoxLayout):
    def __init__(self, name: str, purpose: str, online: bool, reason: str, since: float, details: list[tuple[str, str]], **kw: Any) -> None:
        details_text = plain_details(details)
        plain = plain_reason(name, online, reason)
        lines = 2 + len(details_text) + (plain is not None)
        super().__init__(orientation="vertical", size_hint_y=None, height=dp(36) * lines, **kw)  # two lines of 14 px each
        state = "ONLINE" if online else "OFFLINE"
        head = FitLabel(text=f"{name.capitalize()}: {state} — {purpose}", bold=True, max_font=sp(18), min_font=sp(14), color=theme.OK if online else theme.WARN)
        when = time.strftime("%H:%M:%S", time.localtime(since))
        self.add_widget(head)
        if plain is not None:
            self.add_widget(FitLabel(text=plain, max_font=sp(16), min_font=sp(14)))
            self.add_widget(FitLabel(text=f"Details: {reason} (since {when})", max_font=sp(14), min_font=sp(14), color=theme.MUTED))
        else:
            self.add_widget(FitLabel(text=f"{'In use' if online else 'Why'}: {reason} (since {when})", max_font=sp(15), min_font=sp(14)))
        for line in details_text:
            self.add_widget(FitLabel(text=line, max_font=sp(14), min_font=sp(14), color=theme.MUTED))


class SettingsScreen(Screen):
    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    _shown: Any = None

    def refresh(self) -> None:
        app = App.get_running_app()
        details = {name: app.hub.details(name) for name in app.hub.statuses}
        key = (tuple(sorted(app.hub.statuses.items())), repr(details), app.palette, app.speak, app.text_size)
        if key == self._shown:
            return  # unchanged: keep the widgets (and any finger on them)
        self._shown = key
        cards = self.ids.sensors
        cards.clear_widgets()
        for name, status in sorted(app.hub.statuses.items()):
            spec = app.hub.specs.get(name)
            cards.add_widget(
                SensorCard(name, spec.purpose if spec else "", status.online, status.reason, status.time, details[name])
            )
        swatches = self.ids.swatches
        if self._swatches_for == app.palette and swatches.children:
            self._rest(app)  # the sensors' figures changed, not the palette: the legend stays as it is
            return
        self._swatches_for = app.palette
        swatches.clear_widgets()
        for i in range(len(theme.PALETTES[app.palette])):
            sw = theme.swatch(app.palette, i)
            swatches.add_widget(PlayerMark(rgba=list(sw.rgba), shape=theme.shape(i), size_hint_x=None, width=dp(30)))
            swatches.add_widget(FitLabel(text=sw.name, max_font=sp(14), min_font=sp(14)))
        self._rest(app)

    _swatches_for: str | None = None

    def _rest(self, app: Any) -> None:
        self.ids.palette_standard.state = "down" if app.palette == "standard" else "normal"
        self.ids.palette_cb.state = "down" if app.palette == "colour-blind" else "normal"
        self.ids.speak.state = "down" if app.speak else "normal"
        self.ids.text_normal.state = "down" if app.text_size == "normal" else "normal"
        self.ids.text_large.state = "down" if app.text_size == "large" else "normal"
        self.ids.speak.disabled = not app.speaker.available
        self.ids.speak.text = "Spoken prompts: on" if app.speak else "Spoken prompts: off"
        self.ids.speak_reason.text = f"Speech: {app.speaker.reason}"
        self.ids.speak_reason.color = theme.MUTED
        self.ids.quit.text = "Touch again to quit" if self._quit_armed else "Quit the app"

    _quit_armed = False
    _shutdown_armed = False

    def quit(self) -> None:
        """Quit for a kiosk (the service does not restart an app that quit on purpose); a second touch confirms."""
        if not self._quit_armed:
            self._quit_armed = True
            self.ids.quit.text = "Touch again to quit"
            return
        App.get_running_app().stop()

    def shutdown(self) -> None:
        """Switch the Pi off safely (a kiosk has no keyboard; pulling the plug can spoil the SD card).

        A second touch confirms; the game is already stored (every event is), so it resumes
        after the next start.  The command is ``SHUTDOWN_COMMAND`` (environment
        ``BELLWETHER_SHUTDOWN_COMMAND`` to change it); if it is refused the screen says so.
        """
        if not self._shutdown_armed:
            self._shutdown_armed = True
            self.ids.shutdown.text = "Touch again to shut down"
            return
        self._shutdown_armed = False
        error = run_shutdown()
        if error is None:
            App.get_running_app().stop()
            return
        self.ids.shutdown.text = "Shut down"
        self.ids.speak_reason.text = f"Could not shut down ({error}): quit the app, then switch off at the wall."
        self.ids.speak_reason.color = theme.WARN

    def on_leave(self, *_: Any) -> None:
        # No widget is touched here: the screen's content is already let go when it
        # is left (ui.screens.Screens), and its ids are dead (a ReferenceError that
        # ended the app on leaving Settings); the next visit builds "Shut down" anew.
        self._quit_armed = False
        self._shutdown_armed = False


load_kv(__file__)
