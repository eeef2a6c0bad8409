"""Touch-only set-up (issue #17, ui-setup): the button profile made on screen (F12),
the text size (F37), Setup's option names and the Fleeced! tie-break, the die hints (F29)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from . import touch_check as tc
from .driver import Ctx
from .scenarios import scenario, wait_for

FACE_PINS = (16, 19, 20, 21, 26, 12)  # where the table wired its six face buttons


def _press_pin(pin: int) -> Iterator[float]:
    """A finger on a real button: gpiozero's mock pin goes low, then high again (pulled up)."""
    from gpiozero import Device

    p = Device.pin_factory.pin(pin)
    p.drive_low()
    yield 0.06
    p.drive_high()
    yield 0.35  # the screen reads the presses ten times a second


def _sensors_opened(ctx: Ctx) -> Iterator[float]:
    """Until every sensor has said online or offline (the app opens them after the first frame)."""
    yield from wait_for(lambda: all(s.reason != "starting" for s in ctx.app.hub.statuses.values()), 20)


def _status(ctx: Ctx) -> str:
    return ctx.app.root.get_screen("calibrate").ids.status.text


@scenario(real_sensors=True)
def buttons_made_on_screen(ctx: Ctx) -> Iterator[float]:
    """No button profile: Calibrate → Buttons asks for each button, refuses a pin twice, skip and redo,
    saves, and the buttons play a die in a game at once (no restart)."""
    # The table's pins: gpiozero's MockFactory with real Buttons (what a Pi's header would be).
    os.environ["BELLWETHER_BUTTONS_BACKEND"] = "mock"
    app = ctx.app
    r: dict[str, Any] = ctx.result
    yield from _sensors_opened(ctx)
    r["before"] = [app.hub.statuses["buttons"].online, app.hub.statuses["buttons"].reason]
    yield from tc.touch_text(ctx, "Settings")
    yield from tc.touch_text(ctx, "Calibrate")
    yield from tc.touch_text(ctx, "Buttons")
    r["none_texts"] = tc.labels(ctx.screen)
    r["problems"] = {"none": tc.check_screen(ctx, "calibrate-buttons-none")}
    yield from tc.touch_text(ctx, "Set up: a button per die face")
    screen = ctx.screen
    r["asked"] = [screen.setup_asking.text]
    r["problems"]["asking"] = tc.check_screen(ctx, "calibrate-buttons-asking")
    for pin in FACE_PINS:
        yield from _press_pin(pin)
        r["asked"].append(screen.setup_asking.text)
    yield from _press_pin(FACE_PINS[0])  # face 1's button again, for OK: refused in words
    r["refused"] = _status(ctx)
    r["refused_bad"] = screen.bad
    r["asked_after_refusal"] = screen.setup_asking.text
    r["problems"]["refused"] = tc.check_screen(ctx, "calibrate-buttons-refused")
    yield from _press_pin(5)  # OK
    yield from tc.touch_text(ctx, "Redo")  # ... changed her mind: OK again
    r["after_redo"] = screen.setup_asking.text
    yield from _press_pin(6)  # OK on another button
    yield from _press_pin(13)  # Undo
    yield from tc.touch_text(ctx, "Skip")  # no whistle button at this table
    r["done_asking"] = screen.setup_asking.text
    r["labels"] = [lb.text for lb in screen.role_labels.values()]
    r["problems"]["all_set"] = tc.check_screen(ctx, "calibrate-buttons-all-set")
    yield from tc.touch_text(ctx, "Save")
    r["saved"] = _status(ctx)
    from calibration.buttons import load_profile

    m = load_profile()
    r["profile"] = {"scheme": m.scheme, "pins": dict(m.pins)}
    r["after_texts"] = tc.labels(screen)
    r["problems"]["saved"] = tc.check_screen(ctx, "calibrate-buttons-saved")
    yield 0.3
    r["online"] = [app.hub.statuses["buttons"].online, app.hub.statuses["buttons"].reason]
    # The buttons play at once: a Tally game, its die entered by the die face 3 button.
    yield from tc.touch_text(ctx, "Back")
    r["settings_texts"] = tc.labels(ctx.screen)
    r["problems"]["settings"] = tc.check_screen(ctx, "settings-buttons-online")
    yield from tc.touch_text(ctx, "Back")
    yield from tc.touch_text(ctx, "Tally")
    yield from tc.touch_text(ctx, "Start game")
    yield from _press_pin(FACE_PINS[2])
    yield from wait_for(lambda: len(app.session.events) == 1)
    e = app.session.events[0]
    r["event"] = {"type": e.type, "faces": list(e.payload["faces"]), "source": e.source.value}
    # A press on the OK button with nothing entered is passed on, never an error.
    r["message"] = app.message


def _option_texts(ctx: Ctx) -> list[str]:
    return [b.text for b in tc.buttons(ctx.screen) if getattr(b, "option_key", None)]


@scenario()
def setup_options_in_words(ctx: Ctx) -> Iterator[float]:
    """Setup's variants named in words (never "Mode: board"), Fleeced!'s tie-break offered and carried into the game;
    six players and every option on one 800x480 screen (F32)."""
    app = ctx.app
    r: dict[str, Any] = ctx.result
    r["options"], r["problems"] = {}, {}
    for title in ("Battle Sheep", "Sheep Hop!"):
        yield from tc.touch_text(ctx, title)
        r["options"][title] = _option_texts(ctx)
        yield from tc.touch_text(ctx, "Back")
    yield from tc.touch_text(ctx, "Fleeced!")
    setup = ctx.screen
    while setup.count < 6:
        yield from tc.touch_text(ctx, "More")
    r["options"]["Fleeced!"] = _option_texts(ctx)
    r["problems"]["six"] = tc.check_screen(ctx, "setup-fleeced-six-options")
    r["all_on_screen"] = tc.all_on_screen([b for b in tc.buttons(setup) if getattr(b, "option_key", None)])
    tie = next(b for b in tc.buttons(setup) if getattr(b, "option_key", None) == "tie_break")
    yield from tc.touch(ctx, tie)
    r["tie_after"] = next(b.text for b in tc.buttons(setup) if getattr(b, "option_key", None) == "tie_break")
    while setup.count > 3:
        yield from tc.touch_text(ctx, "Fewer")
    yield from tc.touch_text(ctx, "Start game")
    yield from wait_for(lambda: app.root.current == "table")
    r["game_options"] = dict(app.session.setup["options"])


def _reason_label(ctx: Ctx) -> Any:
    from kivy.uix.label import Label

    from .layout import _walk

    return next(w for w in _walk(ctx.screen) if isinstance(w, Label) and w.text.startswith("No camera plugged in"))


@scenario(real_sensors=True)
def text_size_large(ctx: Ctx) -> Iterator[float]:
    """Settings → Large text: body text grows on every screen, nothing is cut off or too small, and it is kept."""
    app = ctx.app
    r: dict[str, Any] = ctx.result
    yield from _sensors_opened(ctx)
    yield from tc.touch_text(ctx, "Settings")
    r["before_px"] = _reason_label(ctx).font_size
    home_heading = app.root.get_screen("home").ids.games.parent.parent.children[-1]
    r["home_before_px"] = home_heading.font_size
    yield from tc.touch_text(ctx, "Large text")
    yield from tc.settle(ctx)
    yield 0.2
    r["after_px"] = _reason_label(ctx).font_size
    r["problems"] = {"settings": tc.check_screen(ctx, "settings-large-text")}
    yield from tc.touch_text(ctx, "Back")
    r["home_after_px"] = home_heading.font_size
    r["problems"]["home"] = tc.check_screen(ctx, "home-large-text")
    yield from tc.touch_text(ctx, "Fleeced!")
    while ctx.screen.count < 6:
        yield from tc.touch_text(ctx, "More")
    r["problems"]["setup"] = tc.check_screen(ctx, "setup-large-text")
    while ctx.screen.count > 3:
        yield from tc.touch_text(ctx, "Fewer")
    yield from tc.touch_text(ctx, "Start game")
    yield from wait_for(lambda: app.root.current == "table")
    yield from tc.settle(ctx)
    r["problems"]["table"] = tc.check_screen(ctx, "table-large-text")
    import json

    r["prefs"] = json.loads((app.options.data_dir / "ui-preferences.json").read_text()).get("text_size")


@scenario(real_sensors=True)
def text_size_kept(ctx: Ctx) -> Iterator[float]:
    """The next start keeps Large text."""
    yield from _sensors_opened(ctx)
    yield from tc.touch_text(ctx, "Home")
    yield from tc.touch_text(ctx, "Settings")
    ctx.result["px"] = _reason_label(ctx).font_size
    ctx.result["large_down"] = ctx.screen.ids.text_large.state == "down"


@scenario(real_sensors=True)
def settings_shut_down(ctx: Ctx) -> Iterator[float]:
    """Settings → Shut down (touch twice): a refused power-off is said in words and the app stays;
    an accepted one ends the app (the test checks the command ran and the exit code)."""
    import json

    app = ctx.app
    r: dict[str, Any] = ctx.result
    yield from _sensors_opened(ctx)
    yield from tc.touch_text(ctx, "Settings")
    accepted = os.environ["BELLWETHER_SHUTDOWN_COMMAND"]
    os.environ["BELLWETHER_SHUTDOWN_COMMAND"] = "sh -c 'echo Interactive authentication required. >&2; exit 1'"
    yield from tc.touch_text(ctx, "Shut down")
    r["asks"] = ctx.screen.ids.shutdown.text
    yield from tc.touch_text(ctx, "Touch again to shut down")
    r["refused"] = ctx.screen.ids.speak_reason.text
    r["still"] = app.root.current
    r["problems"] = tc.check_screen(ctx, "settings-shutdown-refused")
    os.environ["BELLWETHER_SHUTDOWN_COMMAND"] = accepted
    yield from tc.touch_text(ctx, "Shut down")
    # The app ends on the next touch: the result is written now.
    from pathlib import Path

    Path(ctx.args.out).write_text(json.dumps(r))
    yield from tc.touch_text(ctx, "Touch again to shut down")
    yield 5  # never reached: the app has stopped
    r["not_stopped"] = True


def _roll_hint(ctx: Ctx) -> Iterator[float]:
    yield from tc.touch_text(ctx, "Shear Panic")
    yield from tc.touch_text(ctx, "Roll for first")
    ctx.result["hint"] = next(t for t in tc.labels(ctx.screen) if t.startswith("Roll "))
    ctx.result["problems"] = tc.check_screen(ctx, f"setup-roll-hint-{'offline' if ctx.app.hub.sensors == {} else 'sensors'}")


@scenario(real_sensors=True)
def roll_hint_sensors_offline(ctx: Ctx) -> Iterator[float]:
    """F29: no camera, no buttons: the roll for first says which die and to touch its face, not the camera's tray."""
    yield from _sensors_opened(ctx)
    yield from _roll_hint(ctx)


@scenario()
def roll_hint_sensors_online(ctx: Ctx) -> Iterator[float]:
    """F29: with the camera and face buttons online, the hint names both."""
    yield from wait_for(lambda: ctx.app.hub.statuses["camera"].online and ctx.app.hub.statuses["buttons"].online, 10)
    yield from _roll_hint(ctx)


def _marks(root: Any) -> list[tuple[tuple[float, ...], str]]:
    from ui.widgets import PlayerMark

    from .layout import _walk

    return [(tuple(round(c, 3) for c in w.rgba), w.shape) for w in _walk(root) if isinstance(w, PlayerMark) and tc.on_screen(w)]


def _to_table(ctx: Ctx, title: str, players: int) -> Iterator[float]:
    yield from tc.touch_text(ctx, title)
    setup = ctx.screen
    while setup.count < players:
        yield from tc.touch_text(ctx, "More")
    while setup.count > players:
        yield from tc.touch_text(ctx, "Fewer")
    ctx.result.setdefault("setup_marks", {})[title] = _marks(setup)
    ctx.result.setdefault("problems", {})[f"{title} setup"] = tc.check_screen(ctx, f"tour-{title[:6]}-setup")
    yield from tc.touch_text(ctx, "Start game")
    yield from wait_for(lambda: ctx.app.root.current == "table")
    yield from tc.settle(ctx)
    ctx.result.setdefault("table_marks", {})[title] = _marks(ctx.screen)
    ctx.result.setdefault("table_texts", {})[title] = tc.labels(ctx.screen)
    ctx.result["problems"][f"{title} table"] = tc.check_screen(ctx, f"tour-{title[:6]}-table")


@scenario(real_sensors=True)
def findings_tour(ctx: Ctx) -> Iterator[float]:
    """The findings checked again at 800x480, sensors offline, by touch: F7 (on-screen keyboard), F17 (one colour
    and shape per player from Setup to the Table), F19 (no developer words), F20 (no dice or whistle panels where a
    game has none), F22 (undo-to asks first), F32 (six players on screen)."""
    r = ctx.result
    yield from _sensors_opened(ctx)
    r["home_texts"] = tc.labels(ctx.screen)
    r["problems"] = {"home": tc.check_screen(ctx, "tour-home")}
    yield from tc.touch_text(ctx, "Settings")
    yield from tc.touch_text(ctx, "Calibrate")
    r["calibrate"] = {}
    for tab in ("Microphone", "Camera", "Buttons"):
        yield from tc.touch_text(ctx, tab)
        yield 0.3
        r["calibrate"][tab] = {"status": ctx.screen.ids.status.text,
                               "disabled": [b.text for b in tc.buttons(ctx.screen) if b.disabled]}
        ctx.shot(f"tour-calibrate-{tab.lower()}")
    yield from tc.touch_text(ctx, "Back")
    yield from tc.touch_text(ctx, "Back")
    # F7: a name by touch alone.
    yield from tc.touch_text(ctx, "Fleeced!")
    yield from tc.touch(ctx, ctx.screen.rows[0].name_input)
    r["keyboard"] = tc.keyboard(ctx) is not None
    ctx.shot("tour-name-keyboard")
    yield from tc.touch_text(ctx, "Cancel")
    yield from tc.touch_text(ctx, "Back")
    yield from _to_table(ctx, "Fleeced!", 6)
    yield from tc.touch_face(ctx, 3)
    yield from tc.touch_face(ctx, 4)
    yield from tc.touch_text(ctx, "Log")
    r["log_texts"] = tc.labels(ctx.screen)
    ctx.shot("tour-log")
    yield from tc.touch_text(ctx, "Start of the game (undo everything)")
    r["log_asks"] = [t for t in tc.labels(ctx.screen) if "Undo" in t or "undo" in t]
    ctx.shot("tour-log-asks")
    yield from tc.touch_text(ctx, "No")
    yield from tc.touch_text(ctx, "Back to the table")
    yield from tc.touch_text(ctx, "Home")
    r["home_list"] = tc.labels(ctx.screen)
    for title in ("Shear Panic", "Battle Sheep", "Sheepdogs of Pendleton Hill"):
        yield from _to_table(ctx, title, 3)
        yield from tc.touch_text(ctx, "Home")


@scenario(real_sensors=True)
def calibrate_offline(ctx: Ctx) -> Iterator[float]:
    """F24: with no microphone and no camera, each Calibrate tab greys what cannot work and says why, its own reason."""
    yield from _sensors_opened(ctx)
    yield from tc.touch_text(ctx, "Settings")
    yield from tc.touch_text(ctx, "Calibrate")
    for tab in ("Microphone", "Camera"):
        yield from tc.touch_text(ctx, tab)
        yield 0.3
        ctx.result[tab] = {"status": ctx.screen.ids.status.text, "bad": ctx.screen.bad,
                           "disabled": sorted(b.text for b in tc.buttons(ctx.screen.ids.body) if b.disabled and b.text),
                           "problems": tc.check_screen(ctx, f"calibrate-offline-{tab.lower()}")}

