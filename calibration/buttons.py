"""``bellwether calibrate buttons``: map GPIO pins to roles and press each
button to confirm its pin.

The profile is ``buttons.toml`` in the config dir::

    version = 1
    scheme = "faces"        # faces | step
    bounce_ms = 30
    hold_ms = 500           # step scheme: a held step button repeats this often
    pull_up = true          # buttons wired to ground
    # backend = "mock"      # gpiozero's MockFactory (demo, tests); default: the Pi's pins
    [pins]
    confirm = 17
    undo = 27
    whistle = 22
    face1 = 5               # ... face6, or step = 5 for the step scheme

``candidate_pins = [5, 6, 13]`` (optional) lists the pins the on-screen
wizard listens on (default: ``DEFAULT_CANDIDATES``, every GPIO of the Pi's
header that no common add-on claims).

The on-screen wizard (Settings → Calibrate → Buttons, ``ui.wizards``) makes
the profile without a terminal: ``PinListener`` listens on the candidate pins,
``ProfileBuilder`` asks for each action in turn and records the pin pressed
for it (refusing a pin another action has), and ``save`` writes the file.

``--pin ROLE=PIN`` (repeat) sets pins, ``--from FILE`` takes a whole mapping
from a TOML file of the same form; then each button is checked by asking
for a press (``--no-check`` skips that, e.g. to prepare a profile away from
the Pi).
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.config import dump_toml, load_table, profile_present, save_text_atomic
from companion.errors import BellwetherError, ConfigError
from companion.paths import config_dir

PROFILE_VERSION = 1
PROFILE_NAME = "buttons.toml"
# BCM numbers of the 40-pin header's GPIOs, less those a Pi usually has busy:
# 0-1 (HAT ID EEPROM), 2-3 (I2C, with fixed pull-ups), 7-11 (SPI), 14-15 (serial console).
DEFAULT_CANDIDATES: tuple[int, ...] = (4, 5, 6, 12, 13, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27)


class CalibrationError(BellwetherError, RuntimeError):
    """A button did not answer, or another one did."""


def profile_path(directory: str | Path | None = None) -> Path:
    return config_dir(directory) / PROFILE_NAME


def _pin(v: Any) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 40) or (isinstance(v, str) and bool(v.strip()))


def load_profile(path: str | Path | None = None) -> Any:
    """The ButtonMap in the profile, or None when there is no profile."""
    from hardware.buttons import ROLES, SCHEMES, ButtonMap

    path = Path(path) if path else profile_path()
    if not profile_present(path):
        return None
    t = load_table(path)
    t.get("version", lambda v: v == PROFILE_VERSION, f"{PROFILE_VERSION} (run calibrate buttons again)")
    t.only("version", "scheme", "bounce_ms", "hold_ms", "pull_up", "backend", "pins", "candidate_pins")
    pins_table = t.table("pins")
    pins = {}
    for role in pins_table.data:
        if role not in ROLES:
            raise ConfigError(path, f"pins.{role}", "one of " + ", ".join(ROLES), role)
        pins[role] = pins_table.get(role, _pin, 'a GPIO number 0-40 or a pin name such as "GPIO17"')
    scheme = t.string("scheme", "faces", choices=SCHEMES)
    if scheme == "step" and not {"step", "confirm"} <= set(pins):
        raise ConfigError(path, "pins", "a step and a confirm pin for the step scheme", sorted(pins))
    seen: dict[str, str] = {}
    for role, pin in pins.items():
        if str(pin) in seen:
            raise ConfigError(path, f"pins.{role}", f"a pin no other button uses (pins.{seen[str(pin)]} has it)", pin)
        seen[str(pin)] = role
    backend = t.string("backend", None, choices=("gpiozero", "mock")) if "backend" in t else None
    return ButtonMap(
        pins=pins,
        scheme=scheme,
        bounce_s=t.number("bounce_ms", 30.0, lo=0, hi=1000) / 1000.0,
        hold_s=t.number("hold_ms", 500.0, lo=50, hi=5000) / 1000.0,
        pull_up=t.boolean("pull_up", True),
        backend=backend,
    )


def candidate_pins(path: str | Path | None = None) -> tuple[int | str, ...]:
    """The pins the on-screen wizard listens on: the profile's ``candidate_pins``, else the default."""
    path = Path(path) if path else profile_path()
    if not profile_present(path):
        return DEFAULT_CANDIDATES
    t = load_table(path)
    pins = t.list("candidate_pins", None, of=_pin, expected='a list of GPIO numbers 0-40 or pin names such as "GPIO17"')
    return tuple(pins) if pins else DEFAULT_CANDIDATES


def to_toml(m: Any, candidates: tuple[int | str, ...] | None = None) -> str:
    data: dict[str, Any] = {
        "version": PROFILE_VERSION,
        "scheme": m.scheme,
        "bounce_ms": round(m.bounce_s * 1000),
        "hold_ms": round(m.hold_s * 1000),
        "pull_up": m.pull_up,
        "backend": m.backend or None,
        "candidate_pins": list(candidates) if candidates and tuple(candidates) != DEFAULT_CANDIDATES else None,
        "pins": dict(m.pins),
    }
    return dump_toml(data, "Bellwether GPIO buttons: written by `bellwether calibrate buttons` or Calibrate → Buttons.")


def save(m: Any, path: str | Path | None = None, candidates: tuple[int | str, ...] | None = None) -> Path:
    """Write the profile atomically (a kill never leaves half a file for the sensor to read)."""
    return save_text_atomic(Path(path) if path else profile_path(), to_toml(m, candidates))


# -- the on-screen wizard ---------------------------------------------------------------
ROLE_WORDS: dict[str, str] = {
    "confirm": "OK (confirm)",
    "undo": "Undo",
    "whistle": "Whistle",
    "step": "Step (counts the die up)",
    **{f"face{i}": f"Die face {i}" for i in range(1, 7)},
}
# What each scheme asks for, in order; the first ones are needed, the rest may be skipped.
SCHEME_ROLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "faces": (tuple(f"face{i}" for i in range(1, 7)), ("confirm", "undo", "whistle")),
    "step": (("step", "confirm"), ("undo", "whistle")),
}


class ProfileBuilder:
    """The wizard's steps, without devices: ask for each action, record the pin pressed for it.

    ``press(pin)`` answers in words what happened; a pin another action already
    has is refused and nothing changes.  ``skip`` leaves an action without a
    button, ``redo`` goes back one action and forgets its pin.
    """

    def __init__(self, scheme: str = "faces", base: Any = None) -> None:
        needed, optional = SCHEME_ROLES[scheme]
        self.scheme = scheme
        self.needed = needed
        self.roles = needed + optional
        self.base = base  # an existing ButtonMap: its bounce, hold and pull-up are kept
        self.pins: dict[str, int | str] = {}
        self.index = 0
        self.said = ""

    @property
    def current(self) -> str | None:
        return self.roles[self.index] if self.index < len(self.roles) else None

    @property
    def done(self) -> bool:
        return self.current is None

    def asking(self) -> str:
        role = self.current
        if role is None:
            return "Every button is set: touch Save to use them."
        optional = "" if role in self.needed else " (or Skip if the table has none)"
        return f"Press the button for {ROLE_WORDS[role]}{optional} ({self.index + 1} of {len(self.roles)})."

    def press(self, pin: int | str) -> str:
        role = self.current
        if role is None:
            self.said = f"Pin {pin} pressed; every button is already set (Redo to change one)."
            return self.said
        owner = next((r for r, p in self.pins.items() if str(p) == str(pin)), None)
        if owner is not None:
            self.said = (
                f"That button is already {ROLE_WORDS[owner]}: press a different one for {ROLE_WORDS[role]}"
                f" (or Redo to change {ROLE_WORDS[owner]})."
            )
            return self.said
        self.pins[role] = pin
        self.index += 1
        self.said = f"{ROLE_WORDS[role]}: pin {pin}."
        return self.said

    def skip(self) -> str:
        role = self.current
        if role is None:
            return self.said
        self.pins.pop(role, None)
        self.index += 1
        self.said = f"{ROLE_WORDS[role]}: no button."
        return self.said

    def redo(self) -> str:
        if self.index == 0:
            return self.said
        self.index -= 1
        role = self.roles[self.index]
        self.pins.pop(role, None)
        self.said = f"Again: {ROLE_WORDS[role]}."
        return self.said

    def missing(self) -> list[str]:
        """Needed actions that have no button yet, in words."""
        return [ROLE_WORDS[r] for r in self.needed if r not in self.pins]

    def mapping(self) -> Any:
        """The ButtonMap to save; CalibrationError (in words) while a needed action has no button."""
        import dataclasses

        from hardware.buttons import ButtonMap

        missing = self.missing()
        if missing:
            raise CalibrationError(f"Not saved: {', '.join(missing)} still need a button.")
        pins = {r: self.pins[r] for r in self.roles if r in self.pins}
        base = self.base or ButtonMap()
        m = dataclasses.replace(base, pins=pins, scheme=self.scheme)
        m.check()
        return m


class PinListener:
    """gpiozero ``Button``s on the candidate pins; each press is queued as its pin.

    gpiozero calls back in its own thread, so presses only go on a queue that
    the screen reads (``presses``).  A pin that cannot be opened (used by
    another program, not on this board) is left out and named in ``unusable``.
    """

    def __init__(self, pins: tuple[int | str, ...], factory: Any, pull_up: bool = True, bounce_s: float = 0.03) -> None:
        import queue

        from gpiozero import Button
        from gpiozero.exc import GPIOZeroError

        self.queue: queue.Queue[int | str] = queue.Queue()
        self.buttons: dict[int | str, Any] = {}
        self.unusable: dict[int | str, str] = {}
        self.bounce_s = bounce_s
        self._last: dict[int | str, float] = {}
        for pin in pins:
            try:
                b = Button(pin, pull_up=pull_up, bounce_time=bounce_s or None, pin_factory=factory)
            except (GPIOZeroError, ValueError, OSError) as e:
                self.unusable[pin] = str(e)
                continue
            b.when_pressed = self._callback(pin)
            self.buttons[pin] = b

    def _callback(self, pin: int | str) -> Callable[[], None]:
        def pressed() -> None:
            now = time.monotonic()
            if now - self._last.get(pin, -1e9) >= self.bounce_s:  # MockFactory ignores bounce_time
                self.queue.put(pin)
            self._last[pin] = now

        return pressed

    def presses(self) -> list[int | str]:
        import queue

        out = []
        while True:
            try:
                out.append(self.queue.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        for b in self.buttons.values():
            b.close()
        self.buttons = {}


def check_buttons(m: Any, factory: Any, timeout: float = 20.0, progress: Callable[[str], None] = print) -> None:
    """Ask for a press of each mapped button in turn; the right one must answer."""
    from gpiozero import Button

    buttons = {role: Button(pin, pull_up=m.pull_up, bounce_time=m.bounce_s or None, pin_factory=factory)
               for role, pin in m.pins.items()}
    try:
        pressed: list[str] = []
        event = threading.Event()
        for role, b in buttons.items():
            b.when_pressed = (lambda r: lambda: (pressed.append(r), event.set()))(role)
        for i, (role, pin) in enumerate(m.pins.items(), 1):
            words = ROLE_WORDS.get(role, role)
            progress(f"[{i}/{len(m.pins)}] press the {words} button (pin {pin})...")
            deadline = time.monotonic() + timeout
            while True:
                event.wait(max(0.0, deadline - time.monotonic()))
                event.clear()
                if not pressed:
                    raise CalibrationError(f"no press of the {words} button (pin {pin}) within {timeout:g} s: check its wiring")
                got = pressed.pop(0)
                if got == role:
                    progress(f"[{i}/{len(m.pins)}] {words} on pin {pin}: ok")
                    break
                raise CalibrationError(f"expected the {words} button (pin {pin}) but {ROLE_WORDS.get(got, got)} "
                                       f"(pin {m.pins[got]}) was pressed: swap the pins in the profile or the wires")
    finally:
        for b in buttons.values():
            b.close()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pin", action="append", default=[], metavar="ROLE=PIN",
                   help="map a role (confirm, undo, whistle, step, face1..face6) to a pin; repeat")
    p.add_argument("--from", dest="from_file", metavar="FILE", help="take the mapping from this TOML file")
    p.add_argument("--scheme", choices=("faces", "step"), help="dice entry by face buttons or by step/confirm")
    p.add_argument("--backend", choices=("gpiozero", "mock"), help="record a pin backend (mock: no hardware)")
    p.add_argument("--no-check", action="store_true", help="write the profile without pressing the buttons")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for each press (default 20)")
    p.add_argument("--profile", help="profile file (default: buttons.toml in the config dir)")


def main(args: argparse.Namespace) -> int:
    import dataclasses

    from hardware.buttons import ROLES, ButtonMap, pin_factory

    path = Path(args.profile) if args.profile else profile_path(getattr(args, "config_dir", None))
    base = load_profile(args.from_file) if args.from_file else (load_profile(path) if path.exists() else None)
    if args.from_file and base is None:
        raise CalibrationError(f"no such file: {args.from_file}")
    m = base or ButtonMap()
    pins = dict(m.pins)
    for item in args.pin:
        role, sep, pin = item.partition("=")
        if not sep or role not in ROLES or not pin.strip():
            raise ConfigError("--pin", "pin", "ROLE=PIN with ROLE one of " + ", ".join(ROLES), item)
        pins[role] = int(pin) if pin.isdigit() else pin.strip()
    m = dataclasses.replace(m, pins=pins, scheme=args.scheme or m.scheme, backend=args.backend or m.backend)
    if not m.pins:
        raise ConfigError("--pin", "pins", "at least one ROLE=PIN (or --from FILE)", "none")
    try:
        m.check()
    except BellwetherError as e:
        raise CalibrationError(str(e)) from None
    if not args.no_check:
        try:
            _, factory = pin_factory(m.backend)
        except BellwetherError as e:
            raise CalibrationError(f"cannot check the buttons: {e} (use --no-check to write the profile anyway)") from None
        check_buttons(m, factory, args.timeout)
    saved = save(m, path)
    print(f"wrote {saved}")
    return 0
