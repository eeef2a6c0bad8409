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
    t.only("version", "scheme", "bounce_ms", "hold_ms", "pull_up", "backend", "pins")
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


def to_toml(m: Any) -> str:
    data: dict[str, Any] = {
        "version": PROFILE_VERSION,
        "scheme": m.scheme,
        "bounce_ms": round(m.bounce_s * 1000),
        "hold_ms": round(m.hold_s * 1000),
        "pull_up": m.pull_up,
        "backend": m.backend or None,
        "pins": dict(m.pins),
    }
    return dump_toml(data, "Bellwether GPIO buttons: written by `bellwether calibrate buttons`.")


def save(m: Any, path: str | Path | None = None) -> Path:
    return save_text_atomic(Path(path) if path else profile_path(), to_toml(m))


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
            progress(f"[{i}/{len(m.pins)}] press the {role} button (pin {pin})...")
            deadline = time.monotonic() + timeout
            while True:
                event.wait(max(0.0, deadline - time.monotonic()))
                event.clear()
                if not pressed:
                    raise CalibrationError(f"no press of the {role} button (pin {pin}) within {timeout:g} s: check its wiring")
                got = pressed.pop(0)
                if got == role:
                    progress(f"[{i}/{len(m.pins)}] {role} on pin {pin}: ok")
                    break
                raise CalibrationError(f"expected the {role} button (pin {pin}) but {got} (pin {m.pins[got]}) was pressed: "
                                       "swap the pins in the profile or the wires")
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
