"""``bellwether dice read IMAGE`` and ``bellwether dice eval MANIFEST``.

Both use the camera profile (tray region, calibrated colour/symbol dice) when
there is one; ``--die`` picks the die (``d6`` pip dice by default).
"""

from __future__ import annotations

import argparse

from .common import print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("dice", help="read dice from photos; measure the dice reader")
    cmds = p.add_subparsers(dest="dice_command", metavar="COMMAND", required=True)

    r = cmds.add_parser("read", help="read the dice in one photo")
    r.add_argument("image", help="a photo (PNG, JPEG) of the dice tray")
    r.add_argument("--die", default="d6", help="d6 (pips, default), or a calibrated die: panic, regroup, sheep-hop")
    r.add_argument("--whole-frame", action="store_true", help="ignore the calibrated tray region")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.set_defaults(func=read)

    e = cmds.add_parser("eval", help="measure the reader on a manifest CSV (path,values,count)")
    e.add_argument("manifest", help="manifest CSV; image paths are relative to it")
    e.add_argument("--die", default="d6", help="which die the images show (default d6)")
    e.add_argument("--whole-frame", action="store_true", help="ignore the calibrated tray region")
    e.add_argument("--failures", action="store_true", help="also list the images read wrong")
    e.add_argument("--json", action="store_true", help="print one JSON object")
    e.set_defaults(func=evaluate)

    from .dice_stats import register as register_stats  # the stored rolls' statistics (issue #19)

    register_stats(cmds)


def _reader(args: argparse.Namespace):  # -> hardware.dice.reader.DiceReader
    from calibration.camera import load_profile, profile_path
    from hardware.dice.reader import DiceReader

    reader = DiceReader.from_profile(load_profile(profile_path(getattr(args, "config_dir", None))))
    if args.whole_frame:
        reader.region = None
    return reader


def read(args: argparse.Namespace) -> int:
    from hardware.image_file import read_image

    frame = read_image(args.image)  # size checked before decoding; one line for a bad file
    readings = _reader(args).read(frame, args.die)
    if args.json:
        print_json({"dice": [r.to_json() for r in readings]})
        return 0
    if not readings:
        print("no dice found")
    for r in readings:
        x, y, w, h = r.box
        print(f"{r.kind} {r.face}  confidence {r.confidence:.2f}  at x={x} y={y} ({w}x{h})")
    return 0


def evaluate(args: argparse.Namespace) -> int:
    from hardware.dice.evaluation import evaluate as run
    from hardware.dice.evaluation import load_manifest

    items = load_manifest(args.manifest)
    reader = _reader(args)
    result = run(items, lambda frame: reader.read(frame, args.die))
    figures = result.to_json()
    if args.json:
        if args.failures:
            figures["failures"] = [{"image": n, "values": w, "read": g} for n, w, g in result.failures]
        print_json(figures)
        return 0
    print(f"images            {figures['images']}")
    print(f"image accuracy    {figures['image_accuracy']:.3f}  (the read values equal the label)")
    print(f"die accuracy      {figures['die_accuracy']:.3f}")
    print(f"count accuracy    {figures['count_accuracy']:.3f}")
    print(f"ms per frame      p50 {figures['ms_per_frame_p50']:.1f}  p95 {figures['ms_per_frame_p95']:.1f}  (CPU, one thread)")
    print("confusion (rows: true face 1-6, columns: read face 1-6)")
    for i, row in enumerate(figures["confusion"], 1):
        print(f"  {i}: " + " ".join(f"{v:4d}" for v in row))
    if args.failures:
        for name, want, got in result.failures:
            print(f"  {name}: expected {' '.join(map(str, want)) or '-'}, read {' '.join(map(str, got)) or '-'}")
    return 0
