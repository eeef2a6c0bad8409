"""Calibrate: the live microphone (level, spectrum with the whistle band, the
whistle wizard), the camera (preview, tray, colour sampling) and the buttons
(press each in turn), each with its progress on screen.

The logic is ``calibration/``'s, run by ``ui.wizards`` in worker threads;
this screen only shows their state, ten times a second while it is open.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.events import WHISTLE

from .. import theme
from ..widgets import FitButton, FitLabel, load_kv
from ..wizards import RUNNING, ButtonSetup, ButtonTest, CameraWizard, FramePreview, WhistleWizard

TICK = 0.1


class LevelMeter(Widget):
    level = NumericProperty(-120.0)  # dBFS


class SpectrumView(Widget):
    """Bars of a live spectrum (dB), the whistle band shaded behind them."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.centres: Any = None
        self.db: Any = None
        self.band: tuple[float, float] | None = None
        self.bind(pos=self.redraw, size=self.redraw)

    def update(self, centres: Any, db: Any, band: tuple[float, float] | None) -> None:
        self.centres, self.db, self.band = centres, db, band
        self.redraw()

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        with self.canvas:
            Color(*theme.PANEL_LIGHT)
            Rectangle(pos=self.pos, size=self.size)
            if self.centres is None or len(self.centres) == 0:
                return
            top = float(self.centres[-1] + (self.centres[1] - self.centres[0]) / 2)
            if self.band:
                Color(*theme.ACCENT[:3], 0.35)
                x0 = self.x + self.width * self.band[0] / top
                x1 = self.x + self.width * min(self.band[1], top) / top
                Rectangle(pos=(x0, self.y), size=(max(1, x1 - x0), self.height))
            Color(*theme.OK)
            w = self.width / len(self.db)
            for i, v in enumerate(self.db):
                h = self.height * max(0.0, min(1.0, (float(v) + 100) / 100))
                Rectangle(pos=(self.x + i * w + 1, self.y), size=(max(1, w - 2), h))


class Preview(Widget):
    """The camera's frame, the tray drawn on it; dragging a finger across it sets the tray."""

    def __init__(self, screen: CalibrateScreen, **kw: Any) -> None:
        super().__init__(**kw)
        self.screen = screen
        self.frame_size: tuple[int, int] | None = None
        self.texture: Texture | None = None
        self.tray: tuple[int, int, int, int] | None = None
        self._down: tuple[float, float] | None = None
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, frame: Any, tray: tuple[int, int, int, int] | None) -> None:
        h, w = frame.shape[:2]
        step = max(1, w // 320)  # a small texture: the preview is for aiming, not reading
        small = frame[::-step, ::step].copy()  # flipped: textures start at the bottom
        sh, sw = small.shape[:2]
        if self.texture is None or self.texture.size != (sw, sh):
            self.texture = Texture.create(size=(sw, sh), colorfmt="rgb")
        self.texture.blit_buffer(small[:, :, ::-1].tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.frame_size, self.tray = (w, h), tray
        self.redraw()

    def _fit(self) -> tuple[float, float, float]:
        w, h = self.frame_size or (640, 480)
        scale = min(self.width / w, self.height / h)
        return scale, self.x + (self.width - w * scale) / 2, self.y + (self.height - h * scale) / 2

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        scale, ox, oy = self._fit()
        w, h = self.frame_size or (640, 480)
        with self.canvas:
            # No frame yet (or no camera): a dark panel, not a white blank.
            Color(*((1, 1, 1, 1) if self.texture is not None else theme.PANEL_LIGHT))
            Rectangle(texture=self.texture, pos=(ox, oy), size=(w * scale, h * scale))
            if self.tray:
                x, y, tw, th = self.tray
                Color(*theme.WARN)
                Line(rectangle=(ox + x * scale, oy + (h - y - th) * scale, tw * scale, th * scale), width=dp(1.5))

    def to_frame(self, wx: float, wy: float) -> tuple[int, int]:
        scale, ox, oy = self._fit()
        w, h = self.frame_size or (640, 480)
        fx = (wx - ox) / scale
        fy = h - (wy - oy) / scale
        return int(max(0, min(w, fx))), int(max(0, min(h, fy)))

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos) and self.frame_size:
            self._down = touch.pos
            touch.grab(self)
            return True
        return super().on_touch_down(touch)

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is self and self._down is not None:
            touch.ungrab(self)
            (x0, y0), (x1, y1) = self.to_frame(*self._down), self.to_frame(*touch.pos)
            self._down = None
            box = (min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
            self.screen.set_tray(box if box[2] >= 16 and box[3] >= 16 else None)
            return True
        return super().on_touch_up(touch)


class CalibrateScreen(Screen):
    tab = StringProperty("microphone")
    bad = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.whistles: WhistleWizard | None = None
        self.button_test: ButtonTest | None = None
        self.preview = FramePreview()
        self.camera: CameraWizard | None = None
        self.spectrum: Any = None
        self._tick = None

    # -- showing -------------------------------------------------------------------
    def on_pre_enter(self, *_: Any) -> None:
        self.show(self.tab)
        self._tick = Clock.schedule_interval(self.tick, TICK)

    def on_leave(self, *_: Any) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        self._detach_spectrum()
        if self.button_setup is not None and self.button_setup.running:
            self.button_setup.cancel()  # the pins go back to the buttons sensor
        self.button_setup = None
        self.button_said = ""

    def leave(self) -> None:
        App.get_running_app().go("settings")

    def sensor(self, name: str) -> Any:
        return App.get_running_app().hub.sensors.get(name)

    def _say(self, text: str, bad: bool = False) -> None:
        self.ids.status.text = text
        self.bad = bad

    def _label(self, text: str = "", height: float | None = None, **kw: Any) -> FitLabel:
        return FitLabel(
            text=text, size_hint_y=None if height else 1, height=height or 0, max_font=kw.pop("max_font", sp(16)), **kw
        )

    def _row(self, *widgets: Widget, height: float | None = None) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=height or theme.touch_size(), spacing=dp(4))
        for w in widgets:
            row.add_widget(w)
        return row

    def _button(self, text: str, action: Any, **kw: Any) -> FitButton:
        b = FitButton(text=text, **kw)
        b.bind(on_release=lambda *_: action())
        return b

    def show(self, tab: str) -> None:
        self.tab = tab
        body = self.ids.body
        body.clear_widgets()
        self._detach_spectrum()
        self._say("")  # the last tab's message is not this tab's (F24: the Camera tab said the microphone's)
        getattr(self, f"_build_{tab}")(body)
        self.tick(0)

    # -- microphone --------------------------------------------------------------------
    def _players(self) -> list[str]:
        app = App.get_running_app()
        if app.session is not None:
            return [p["name"] for p in app.session.setup["players"]]
        return list(app.prefs.last_players) or ["Player 1", "Player 2"]

    def _build_microphone(self, body: BoxLayout) -> None:
        from hardware.whistle.spectrum import Spectrum, attach

        mic = self.sensor("microphone")
        self.level_text = self._label(width=dp(170), size_hint_x=None)
        self.meter = LevelMeter()
        body.add_widget(self._row(self.level_text, self.meter, height=dp(34)))
        self.spectrum_view = SpectrumView()
        body.add_widget(self.spectrum_view)
        self.band_text = self._label(height=dp(24), max_font=sp(14), color=theme.MUTED)
        body.add_widget(self.band_text)
        if mic is not None and hasattr(mic, "taps"):
            self.spectrum = attach(mic, Spectrum())
        players = self._players()
        self.whistle_button = self._button("Calibrate whistles", self.start_whistles, size_hint_x=0.8)
        body.add_widget(self._row(self._label(f"Whistles of {', '.join(players)}"), self.whistle_button))
        self.progress = self._label(height=dp(50), max_font=sp(18))
        body.add_widget(self.progress)
        # Shown only after a failed check blow: another check, or go on without it.
        self.check_row = self._row(
            self._button("Check again", lambda: self.answer_check(True)),
            self._button("Go on", lambda: self.answer_check(False)),
        )
        body.add_widget(self.check_row)
        self._show_check_row(False)

    def _show_check_row(self, shown: bool) -> None:
        self.check_row.height = theme.touch_size() if shown else 0
        self.check_row.opacity = 1 if shown else 0
        self.check_row.disabled = not shown

    def answer_check(self, again: bool) -> None:
        if self.whistles is not None and self.whistles.asking:
            self.whistles.answer(again)

    def _detach_spectrum(self) -> None:
        from hardware.whistle.spectrum import detach

        mic = self.sensor("microphone")
        if self.spectrum is not None and mic is not None:
            detach(mic, self.spectrum)
        self.spectrum = None

    def start_whistles(self) -> None:
        mic = self.sensor("microphone")
        if self.whistles is not None and self.whistles.running:
            self.whistles.cancel()
            return
        self.whistles = WhistleWizard(mic, self._players())
        self.whistles.start()

    def _tick_microphone(self) -> None:
        mic = self.sensor("microphone")
        level = getattr(mic, "level_db", None)
        if isinstance(level, (int, float)):
            self.meter.level = level
            self.level_text.text = f"Level {level:.0f} dBFS"
        else:
            self.level_text.text = "Level: no microphone"
        band = None
        det = getattr(mic, "detector", None)
        if det is not None:
            band = tuple(det.band_hz)
        if self.spectrum is not None:
            centres, db = self.spectrum.snapshot()
            self.spectrum_view.update(centres, db, band)
            self.band_text.text = (
                f"Whistle band {band[0]:.0f}–{band[1]:.0f} Hz (shaded); loudest now near {self.spectrum.peak_hz():.0f} Hz"
                if band
                else ""
            )
        w = self.whistles
        offline = mic is None or not getattr(mic, "online", False)
        # Greyed with the reason rather than a button that does nothing (usability test F24).
        self.whistle_button.disabled = offline and not (w is not None and w.running)
        if offline:
            from .settings import plain_reason

            status = App.get_running_app().hub.statuses.get("microphone")
            why = status.reason if status else "not opened"
            plain = plain_reason("microphone", False, why) or f"The microphone is offline: {why}."
            self._say(f"Plug in a microphone to calibrate whistles. {plain}", True)
        elif w is None:
            self._say("Each player blows three times when asked; the room should be quiet first." + self._heard())
        else:
            bars = "   ".join(_whistle_bar(n, d, t, w.checks.get(n)) for n, (d, t, _note) in w.bars.items())
            self.progress.text = w.current + ("\n" + bars if bars else "")
            self._show_check_row(bool(w.asking))
            self.whistle_button.text = "Stop" if w.running else "Calibrate whistles"
            if w.state == "failed":
                self._say(f"Not calibrated: {w.error}", True)
            elif w.state == "done":
                self._say(f"Saved: {w.saved}." + self._heard())
            elif w.asking:
                self._say(f"{w.asking}'s check blow failed: Check again, or Go on without it.", True)
            else:
                self._say("Listening…")

    @staticmethod
    def _heard() -> str:
        """The last blow heard here: a try of the calibration, never a move in the game."""
        event = App.get_running_app().heard_while_calibrating
        if event is None or event.type != WHISTLE:
            return ""
        who = f"{event.player}'s whistle" if event.player else "a whistle no player's profile matches"
        return f" Just heard: {who} (a try, not a move in the game)."

    # -- camera ------------------------------------------------------------------------------
    def _build_camera(self, body: BoxLayout) -> None:
        cam = self.sensor("camera")
        self.preview.attach(cam)
        if self.camera is None:
            self.camera = CameraWizard(self.preview)
        row = BoxLayout(spacing=dp(6))
        self.preview_widget = Preview(self)
        row.add_widget(self.preview_widget)
        side = BoxLayout(orientation="vertical", spacing=dp(4), size_hint_x=0.55)
        self.die_button = self._button("", self.cycle_die, size_hint_y=None, height=theme.touch_size())
        self.capture_button = self._button("", self.capture, size_hint_y=None, height=theme.touch_size())
        side.add_widget(self.die_button)
        side.add_widget(self.capture_button)
        self.save_button = self._button("Save the die", self.save_die, size_hint_y=None, height=theme.touch_size())
        side.add_widget(self.save_button)
        self.tray_button = self._button(
            "Tray: whole frame", lambda: self.set_tray(None), size_hint_y=None, height=theme.touch_size()
        )
        side.add_widget(self.tray_button)
        self.camera_progress = self._label(max_font=sp(15))
        side.add_widget(self.camera_progress)
        row.add_widget(side)
        body.add_widget(row)

    def cycle_die(self) -> None:
        from calibration.camera import DEFAULT_FACES

        dice = list(DEFAULT_FACES)
        self.camera.choose_die(dice[(dice.index(self.camera.die) + 1) % len(dice)])

    def set_tray(self, box: tuple[int, int, int, int] | None) -> None:
        if self.camera is not None:
            self.camera.set_tray(box)

    def capture(self) -> None:
        try:
            self.camera.capture()
        except Exception as e:
            self._say(f"No capture: {e}", True)

    def save_die(self) -> None:
        try:
            error = self.camera.save(self.sensor("camera"))
        except Exception as e:
            self._say(f"Not saved: {e}", True)
            return
        self._say(self.camera.lines[-1], bool(error))  # saved; and used now, or why not

    def _tick_camera(self) -> None:
        frame = self.preview.last
        if frame is not None:
            self.preview_widget.show(frame, self.camera.profile.tray)
        cam = self.camera
        nxt = cam.next_capture()
        self.die_button.text = f"Die: {cam.die}"
        self.capture_button.text = (
            "Capture the empty tray" if nxt == "empty" else (f"Capture face {nxt}" if nxt else "All faces taken")
        )
        status = App.get_running_app().hub.statuses.get("camera")
        offline = status is None or not status.online
        # Greyed with the reason rather than buttons that fail when touched (usability test F24).
        for b in (self.die_button, self.save_button, self.tray_button):
            b.disabled = offline
        self.capture_button.disabled = offline or not nxt
        # The last steps, short: where it was saved is the status line's (a long path here ran over the buttons)
        steps = [line for line in cam.lines if not line.startswith(("Saved ", "The unreadable profile"))][-2:]
        self.camera_progress.text = "\n".join(steps) or ("" if offline else "Drag across the picture to mark the tray.")
        if offline:
            from .settings import plain_reason

            why = status.reason if status else "not opened"
            plain = plain_reason("camera", False, why) or f"The camera is offline: {why}."
            self._say(f"Plug in a camera to sample dice. {plain}", True)
        elif frame is None and not self.bad:
            self._say("Waiting for the camera's first picture…", True)
        elif frame is not None and self.bad and self.ids.status.text.startswith(("Waiting for", "Plug in")):
            self._say("")

    # -- buttons ---------------------------------------------------------------------------------
    def _build_buttons(self, body: BoxLayout) -> None:
        """The profile as it is (with its test), or the set-up wizard asking for one button after another."""
        setup = self.button_setup
        self.role_labels: dict[str, FitLabel] = {}
        if setup is not None and setup.running:
            self.setup_asking = self._label(max_font=sp(22), bold=True, height=dp(56))
            body.add_widget(self.setup_asking)
            grid = self._role_grid()
            for role in setup.builder.roles:
                label = self._label(max_font=sp(16), min_font=sp(14))
                self.role_labels[role] = label
                grid.add_widget(label)
            body.add_widget(grid)
            body.add_widget(Widget())  # the rows stay together at the top on a tall screen
            self.skip_button = self._button("Skip", self.skip_button_role)
            body.add_widget(self._row(
                self.skip_button,
                self._button("Redo", self.redo_button_role),
                self._button("Save", self.save_buttons),
                self._button("Cancel", self.cancel_button_setup),
            ))
            return
        sensor = self.sensor("buttons")
        mapping = getattr(sensor, "map", None)
        grid = self._role_grid()
        if mapping is None:
            grid.cols, grid.row_default_height = 1, dp(72)
            grid.add_widget(self._label(
                "No GPIO buttons are set up. If the table has buttons wired to the Pi, "
                "touch a Set up button and press each button when asked; otherwise the touchscreen does everything."
            ))
        else:
            from calibration.buttons import ROLE_WORDS

            for role, pin in mapping.pins.items():
                label = self._label(f"{ROLE_WORDS.get(role, role)}: pin {pin}", max_font=sp(16), min_font=sp(14))
                label.pin_text = label.text
                self.role_labels[role] = label
                grid.add_widget(label)
        body.add_widget(grid)
        body.add_widget(Widget())
        self.test_button = self._button("Test the buttons", self.start_buttons, disabled=mapping is None)
        body.add_widget(self._row(
            self._button("Set up: a button per die face", lambda: self.start_button_setup("faces")),
            self._button("Set up: step and OK buttons", lambda: self.start_button_setup("step")),
            self.test_button,
        ))

    button_setup: ButtonSetup | None = None

    @staticmethod
    def _role_grid() -> Any:
        """Three buttons a line, rows of a fixed height (a tall screen leaves the room below them)."""
        from kivy.uix.gridlayout import GridLayout

        grid = GridLayout(cols=3, spacing=dp(2), size_hint_y=None, row_default_height=dp(40), row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))
        return grid

    def start_button_setup(self, scheme: str) -> None:
        if self.button_test is not None and self.button_test.running:
            return
        self.button_setup = ButtonSetup(App.get_running_app().hub, scheme)
        self.button_setup.start()
        if self.button_setup.state == "failed":
            self._say(self.button_setup.error, True)
            self.button_said = self.button_setup.error
            return
        self.button_said = ""
        self.show("buttons")

    def skip_button_role(self) -> None:
        if self.button_setup is not None:
            self.button_said = self.button_setup.builder.skip()

    def redo_button_role(self) -> None:
        if self.button_setup is not None:
            self.button_said = self.button_setup.builder.redo()

    def save_buttons(self) -> None:
        if self.button_setup is None:
            return
        self.button_said = self.button_setup.save()
        if not self.button_setup.running:
            self.show("buttons")

    def cancel_button_setup(self) -> None:
        if self.button_setup is not None:
            self.button_setup.cancel()
            self.button_said = "Not changed: the buttons are as they were."
        self.show("buttons")

    button_said = ""

    def start_buttons(self) -> None:
        if self.button_test is not None and self.button_test.running:
            return
        self.button_test = ButtonTest(self.sensor("buttons"))
        self.button_test.start()

    def _tick_buttons(self) -> None:
        setup = self.button_setup
        if setup is not None and setup.running:
            from calibration.buttons import ROLE_WORDS

            said = setup.poll()
            if said:
                self.button_said = said[-1]
            b = setup.builder
            self.setup_asking.text = b.asking()
            for i, (role, label) in enumerate(self.role_labels.items()):
                pin = b.pins.get(role)
                now = " (now)" if role == b.current else ""
                state = f"pin {pin}" if pin is not None else "no button" if i < b.index else "not yet"
                label.text = f"{ROLE_WORDS[role]}: {state}{now}"
                label.color = theme.ACCENT if now else theme.TEXT
            self.skip_button.disabled = b.done
            refused = self.button_said.startswith(("That button", "Not saved"))
            self._say(self.button_said or "Press each button on the table when it is asked for.", refused)
            return
        t = self.button_test
        if t is None:
            default = "Touch Test the buttons, then press each button when asked."
            if getattr(self.sensor("buttons"), "map", None) is None:
                default = ""
            self._say(self.button_said or default, self.button_said.startswith(("No GPIO", "None of", "Saved, but")))
            return
        for role, label in self.role_labels.items():
            label.text = label.pin_text + (" — works" if role in t.ok else "")
        self.test_button.disabled = t.state == RUNNING
        if t.state == "failed":
            self._say(f"Button test: {t.error}", True)
        elif t.state == "done":
            self._say("Every button answered on its pin.")
        else:
            self._say(t.lines[-1] if t.lines else "")

    def tick(self, _dt: float) -> None:
        getattr(self, f"_tick_{self.tab}")()


def _whistle_bar(name: str, done: int, total: int, check: Any) -> str:
    """A player's blows heard, then the check blow's verdict (in words: the font has no tick marks)."""
    verdict = "" if check is None else ", checked" if check.ok else ", check failed"
    return f"{name} {'#' * done}{'-' * (total - done)} {done}/{total}{verdict}"


load_kv(__file__)
