"""``bellwether calibrate camera``: the camera, the tray, and the faces of the
colour and symbol dice, sampled under the table's own light.

The profile is ``camera.toml`` in the config dir::

    version = 1
    [camera]            # backend: picamera2 | opencv | image | video | fake
    backend = "opencv"
    device = 0
    width = 640
    height = 480
    [tray]
    region = [x, y, w, h]   # where dice may lie, in frame pixels
    [pips]                  # optional overrides of hardware.dice.pips.PipParams
    [dice.panic]            # one table per colour/symbol die
    kind = "colour"         # colour decides (symbol helps) | symbol decides
    die_px = 64.0           # die side in pixels
    tray_lab = [L, a, b]    # the empty tray's colour
    [dice.panic.faces.green]
    lab = [L, a, b]         # CIELAB of the face's mark, white-balanced
    symbol = ["0011..", ...]  # the mark's shape, 24 x 24

Driven from files (tests, or a photo session)::

    bellwether calibrate camera --backend opencv --tray 40 30 560 420 \\
        --die panic --empty tray.png --face green=green.png --face black=black.png ...

Live: ``--die panic`` without ``--face`` asks for each face in turn, captures
from the camera, shows progress, and writes a preview (``--preview FILE``:
the frame with what was found drawn on it; the Pi's camera app has no window).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config import dump_toml, is_device, load_table, profile_present, save_text_atomic
from companion.errors import BellwetherError, ConfigError
from companion.paths import config_dir

PROFILE_VERSION = 1
PROFILE_NAME = "camera.toml"
BACKENDS = ("picamera2", "opencv", "image", "video", "fake")
DEFAULT_FACES: dict[str, tuple[str, ...]] = {
    "panic": ("white", "black", "blue", "green", "red", "yellow"),
    "regroup": ("+", "X"),
    "sheep-hop": ("orange", "pink", "blue", "multicolour", "wolves", "big-wolf"),
}
TEMPLATE = 24


class CalibrationError(BellwetherError, RuntimeError):
    """The wizard could not sample what it needs (no die in view, two dice, ...)."""


def profile_path(directory: str | Path | None = None) -> Path:
    return config_dir(directory) / PROFILE_NAME


@dataclass
class CameraProfile:
    camera: dict[str, Any] = field(default_factory=lambda: {"width": 640, "height": 480})
    tray: tuple[int, int, int, int] | None = None
    pip_overrides: dict[str, float] = field(default_factory=dict)
    dice: dict[str, Any] = field(default_factory=dict)  # die name -> hardware.dice.colour.ColourDie
    source: str = "defaults"

    @property
    def pips(self) -> Any:
        from hardware.dice.pips import PipParams

        return dataclasses.replace(PipParams(), **self.pip_overrides)

    # -- TOML ---------------------------------------------------------------
    def to_toml(self) -> str:
        data: dict[str, Any] = {"version": PROFILE_VERSION, "camera": dict(self.camera)}
        if self.tray is not None:
            data["tray"] = {"region": list(self.tray)}
        if self.pip_overrides:
            data["pips"] = dict(sorted(self.pip_overrides.items()))
        if self.dice:
            data["dice"] = {
                name: {
                    "kind": die.kind,
                    "die_px": round(die.die_px, 2),
                    "tray_lab": None if die.tray_lab is None else [round(v, 2) for v in die.tray_lab],
                    "faces": {face.name: face.to_toml() for face in die.faces},
                }
                for name, die in self.dice.items()
            }
        return dump_toml(data, "Bellwether camera calibration: written by `bellwether calibrate camera`.")

    def save(self, path: str | Path | None = None) -> Path:
        return save_text_atomic(Path(path) if path else profile_path(), self.to_toml())


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _lab_in_range(lab: list[float]) -> bool:
    return 0 <= lab[0] <= 100 and all(-128 <= v <= 127 for v in lab[1:])


# The range of every pip-reader number a profile may set: (lo, hi, above), with
# ``above`` a strict lower bound (a zero kernel or reference width breaks the
# reader).  A parameter not listed gets the range its unit implies
# (companion.config.unit_range).
PIP_RANGES: dict[str, tuple[float | None, float | None, float | None]] = {
    "reference_width": (None, 8192, 0),
    "kernel": (1, 255, None),
    "die_kernel": (1, 1023, None),
    "min_area": (None, 100_000, 0),
    "max_area": (None, 1_000_000, 0),
    "min_contrast": (0, 1, None),
    "min_background": (0, 255, None),
    "max_elongation": (1, 100, None),
    "min_ring": (0, 1, None),
    "min_fill": (0, 1, None),
    "die_size": (None, 100, 0),
    "min_die_gap": (None, 100, 0),
    "face_span": (None, 100, 0),
    "die_contrast": (0, 255, None),
    "min_top": (0, 1, None),
    "min_face": (0, 1, None),
    "nadir_x": (-100, 100, None),
    "nadir_y": (-100, 100, None),
    "nadir_distance": (None, 100, 0),
    "min_view_evidence": (0, 100, None),
    "min_view_agreement": (0, 1, None),
    "max_view_misfit": (0, 10, None),
    "contrast_steps": (1, 10, None),
    "min_pattern_top": (0, 1, None),
    "max_region_pips": (1, 1000, None),
    "sharp_contrast": (None, 1, 0),
    "blur_contrast": (0, 1, None),
    "min_blur_contrast": (0, 1, None),
}


def load_profile(path: str | Path | None = None) -> CameraProfile:
    """The camera profile, or the defaults (whole frame, pip dice only) when there is none.

    A bad value is a ConfigError naming the file, the key and what was expected.
    """
    import numpy as np

    from hardware.dice.colour import ColourDie, FaceSample
    from hardware.dice.pips import PipParams

    path = Path(path) if path else profile_path()
    if not profile_present(path):
        return CameraProfile(source=f"defaults (no profile at {path})")
    t = load_table(path)
    t.get("version", lambda v: v == PROFILE_VERSION, f"{PROFILE_VERSION} (run calibrate camera again)")
    t.only("version", "camera", "tray", "pips", "dice")
    cam = t.table("camera", {}).only("backend", "device", "width", "height", "fps", "path")
    camera: dict[str, Any] = {}
    if "backend" in cam:
        camera["backend"] = cam.string("backend", choices=BACKENDS)
    if "device" in cam:
        camera["device"] = cam.get("device", is_device, "a camera index from 0 to 255 or a device path")
    camera["width"] = cam.integer("width", 640, lo=64, hi=4096)
    camera["height"] = cam.integer("height", 480, lo=48, hi=4096)
    if "fps" in cam:
        camera["fps"] = cam.number("fps", lo=1, hi=120)
    if "path" in cam:
        camera["path"] = cam.string("path")
    tray = None
    region = (
        t.table("tray", {})
        .only("region")
        .list(
            "region",
            None,
            of=lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
            expected="[x, y, width, height] in whole pixels",
        )
    )
    if region is not None:
        if len(region) != 4 or region[2] < 16 or region[3] < 16:
            raise ConfigError(path, "tray.region", "[x, y, width, height] with width and height >= 16", region)
        if region[0] + region[2] > camera["width"] or region[1] + region[3] > camera["height"]:
            raise ConfigError(
                path,
                "tray.region",
                f"a region inside the {camera['width']}x{camera['height']} frame (x + width <= "
                f"{camera['width']}, y + height <= {camera['height']})",
                region,
            )
        tray = (region[0], region[1], region[2], region[3])
    known = {f.name: "int" if f.type == "int" else "float" for f in dataclasses.fields(PipParams)}
    overrides = t.table("pips", {}).overrides(known, PIP_RANGES)
    if overrides.get("min_area", PipParams.min_area) >= overrides.get("max_area", PipParams.max_area):
        raise ConfigError(path, "pips.min_area", "a number below pips.max_area", overrides.get("min_area"))
    dice = {}
    for name in t.table("dice", {}).data:
        d = t.table("dice").table(name).only("kind", "die_px", "tray_lab", "faces")
        faces = []
        for fname in d.table("faces").data:
            f = d.table("faces").table(fname).only("lab", "symbol")
            lab = f.list("lab", of=_number, expected="[L, a, b] numbers")
            if len(lab) != 3 or not _lab_in_range(lab):
                raise ConfigError(
                    path, f"dice.{name}.faces.{fname}.lab", "[L, a, b] with L 0 to 100, a and b -128 to 127", lab
                )
            symbol = None
            rows = f.list(
                "symbol",
                None,
                of=lambda r: isinstance(r, str) and len(r) == TEMPLATE and set(r) <= {"0", "1"},
                expected=f"{TEMPLATE} strings of {TEMPLATE} 0/1 characters",
            )
            if rows is not None:
                if len(rows) != TEMPLATE:
                    raise ConfigError(path, f"dice.{name}.faces.{fname}.symbol", f"{TEMPLATE} rows", len(rows))
                symbol = np.array([[c == "1" for c in r] for r in rows], np.float32)
            faces.append(FaceSample(fname, (float(lab[0]), float(lab[1]), float(lab[2])), symbol))
        if not faces:
            raise ConfigError(path, f"dice.{name}.faces", "at least one sampled face", "none")
        tray_lab = d.list("tray_lab", None, of=_number, expected="[L, a, b] numbers")
        if tray_lab is not None and (len(tray_lab) != 3 or not _lab_in_range(tray_lab)):
            raise ConfigError(path, f"dice.{name}.tray_lab", "[L, a, b] with L 0 to 100, a and b -128 to 127", tray_lab)
        dice[name] = ColourDie(
            die=name,
            kind=d.string("kind", "colour", choices=("colour", "symbol")),
            faces=tuple(faces),
            die_px=d.number("die_px", 60.0, lo=8, hi=1000),
            tray_lab=tuple(float(v) for v in tray_lab) if tray_lab and len(tray_lab) == 3 else None,
        )
    return CameraProfile(camera, tray, overrides, dice, source=str(path))


# -- sampling -----------------------------------------------------------------


def tray_colour(frame: Any, region: tuple[int, int, int, int] | None) -> tuple[float, float, float]:
    import numpy as np

    from hardware.dice.colour import _lab

    if region is not None:
        x, y, w, h = region
        frame = frame[y : y + h, x : x + w]
    return tuple(float(v) for v in np.median(_lab(frame).reshape(-1, 3), axis=0))  # type: ignore[return-value]


def sample_die(
    die: str,
    kind: str,
    frames: Mapping[str, Any],
    die_px: float,
    empty: Any | None,
    region: tuple[int, int, int, int] | None,
    progress: Callable[[str], None] = print,
) -> Any:
    """A ColourDie from one frame per face (each showing only that die, that face up)."""
    from hardware.dice.colour import ColourDie, sample_face

    tray_lab = tray_colour(empty, region) if empty is not None else None
    faces = []
    for i, (name, frame) in enumerate(frames.items(), 1):
        try:
            face = sample_face(frame, name, die_px, tray_lab, region)
        except BellwetherError as e:
            raise CalibrationError(f"{die}: {e}") from None
        faces.append(face)
        lab = ", ".join(f"{v:.0f}" for v in face.lab)
        progress(f"[{i}/{len(frames)}] {die} face {name!r}: colour Lab({lab})")
    _check_apart(die, kind, faces, progress)
    return ColourDie(die, kind, tuple(faces), die_px, tray_lab)


def _check_apart(die: str, kind: str, faces: list[Any], progress: Callable[[str], None]) -> None:
    """Warn when two faces would be hard to tell apart (the rulebook warns of green and black)."""
    import math

    from hardware.dice.colour import symbol_similarity

    for i, a in enumerate(faces):
        for b in faces[i + 1 :]:
            de = math.dist(a.lab, b.lab)
            same_shape = symbol_similarity(a.symbol, b.symbol) > 0.8
            if (kind == "colour" and de < 10) or (kind == "symbol" and same_shape):
                progress(
                    f"warning: {die} faces {a.name!r} and {b.name!r} look alike (Delta E {de:.1f}); "
                    "more light on the tray will help"
                )


# -- the command ----------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", choices=BACKENDS, help="camera backend to use and record")
    p.add_argument("--device", help="camera index or device path (OpenCV)")
    p.add_argument("--source", metavar="FILE", help="the photo or video for the image and video backends")
    p.add_argument("--size", nargs=2, type=int, metavar=("W", "H"), help="capture size (default 640 480)")
    p.add_argument("--tray", nargs=4, type=int, metavar=("X", "Y", "W", "H"), help="tray region in frame pixels")
    p.add_argument("--die", choices=tuple(DEFAULT_FACES), help="sample the faces of this colour/symbol die")
    p.add_argument("--kind", choices=("colour", "symbol"), help="what decides a face (default: symbol for regroup)")
    p.add_argument("--faces", help="comma-separated face names (default: the die's usual faces)")
    p.add_argument(
        "--face",
        action="append",
        default=[],
        metavar="NAME=IMAGE",
        help="a photo with that face up (repeat per face); without it, capture live",
    )
    p.add_argument("--empty", metavar="IMAGE", help="a photo of the empty tray (live: captured first)")
    p.add_argument("--die-px", type=float, help="die side in pixels (default: 60 at 640 wide)")
    p.add_argument("--preview", metavar="FILE", help="write the last frame with what was found drawn on it")
    p.add_argument("--profile", help="profile file (default: camera.toml in the config dir)")


def _read_image(path: str) -> Any:
    from companion.errors import RecordError
    from hardware.image_file import read_image

    try:
        return read_image(path)  # size checked before decoding, truncated files refused
    except RecordError as e:
        raise CalibrationError(str(e)) from None


def _live_frames(
    args: argparse.Namespace, profile: CameraProfile, names: tuple[str, ...]
) -> tuple[Any, dict[str, Any]]:
    from hardware.camera import open_camera

    _, cam = open_camera(profile.camera, profile_path(args.config_dir) if args.profile is None else args.profile)
    try:
        input("Clear the tray and press Enter... ")
        empty = _steady(cam)
        frames = {}
        for i, name in enumerate(names, 1):
            input(f"[{i}/{len(names)}] Put the {args.die} die in the tray with {name!r} on top, then press Enter... ")
            frames[name] = _steady(cam)
    finally:
        cam.close()
    return empty, frames


def _steady(cam: Any, n: int = 5) -> Any:
    """The median of a few frames: sensor noise averages out."""
    import numpy as np

    return np.median(np.stack([cam.read() for _ in range(n)]), axis=0).astype(np.uint8)


def main(args: argparse.Namespace) -> int:
    path = Path(args.profile) if args.profile else profile_path(getattr(args, "config_dir", None))
    profile = load_profile(path) if path.exists() else CameraProfile()
    if args.backend:
        profile.camera["backend"] = args.backend
    if args.device is not None:
        profile.camera["device"] = int(args.device) if args.device.isdigit() else args.device
    if args.source:
        profile.camera["path"] = str(Path(args.source).resolve())
    if args.size:
        profile.camera["width"], profile.camera["height"] = args.size
    if args.tray:
        x, y, w, h = args.tray
        if min(args.tray) < 0 or w < 16 or h < 16:
            raise ConfigError("--tray", "tray", "X Y W H with W and H >= 16 and none negative", args.tray)
        profile.tray = (x, y, w, h)
    if args.die:
        names = tuple(n.strip() for n in args.faces.split(",")) if args.faces else DEFAULT_FACES[args.die]
        kind = args.kind or ("symbol" if args.die == "regroup" else "colour")
        die_px = args.die_px or 60.0 * profile.camera.get("width", 640) / 640
        if args.face:
            frames = {}
            for item in args.face:
                name, sep, image = item.partition("=")
                if not sep or not name or not image:
                    raise ConfigError("--face", "face", "NAME=IMAGE", item)
                frames[name] = _read_image(image)
            empty = _read_image(args.empty) if args.empty else None
        else:
            empty, frames = _live_frames(args, profile, names)
        missing = [n for n in names if n not in frames] if not args.faces and args.face else []
        die = sample_die(args.die, kind, frames, die_px, empty, profile.tray)
        profile.dice[args.die] = die
        if missing:
            print(f"note: faces not sampled for {args.die}: {', '.join(missing)}")
        if args.preview:
            _write_preview(args.preview, list(frames.values())[-1], die, profile.tray)
    saved = profile.save(path)
    print(f"wrote {saved}")
    return 0


def _write_preview(path: str, frame: Any, die: Any, region: tuple[int, int, int, int] | None) -> None:
    import cv2

    from hardware.dice.colour import read_colour_dice

    shown = frame.copy()
    if region is not None:
        x, y, w, h = region
        cv2.rectangle(shown, (x, y), (x + w, y + h), (255, 200, 0), 1)
    for r in read_colour_dice(frame, die, region):
        x, y, w, h = r.box
        cv2.rectangle(shown, (x, y), (x + w, y + h), (0, 255, 0), 2)
        cv2.putText(
            shown, f"{r.face} {r.confidence:.2f}", (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 255, 0), 1
        )
    if not cv2.imwrite(path, shown):
        raise CalibrationError(f"cannot write preview {path}")
