"""``bellwether whistle {listen,detect,eval}``: check the microphone, run the detector on files, score it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from calibration.whistle import DEFAULT_DETECTOR, DETECTOR_KINDS

DETECTOR_HELP = ("session4 (steady tones), cascade (candidate stage + learned verifier), combined "
                 "(session4, and the cascade where session4 cannot hear), cascade-cnn (the cascade with its CNN "
                 "verifier) or combined-short (combined, its verifier on a 4-frame patch); "
                 f"default {DEFAULT_DETECTOR} (docs/whistle.md)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("whistle", help="whistle sensing: listen live, detect in a WAV, evaluate")
    cmds = p.add_subparsers(dest="whistle_command", metavar="COMMAND", required=True)

    listen = cmds.add_parser("listen", help="live level meter and whistle events, for checking a setup")
    listen.add_argument("--device", help="input device index or part of its name (default: settings or system default)")
    listen.add_argument("--list-devices", action="store_true", help="list input devices and exit")
    listen.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    listen.set_defaults(func=_listen)

    detect = cmds.add_parser("detect", help="whistles in a WAV file, with times")
    detect.add_argument("file", metavar="FILE.wav")
    detect.add_argument("--json", action="store_true", help="one JSON object per line")
    detect.add_argument("--no-profile", action="store_true", help="ignore the calibration profile (generic whistle)")
    detect.add_argument("--detector", choices=DETECTOR_KINDS, default=DEFAULT_DETECTOR, help=DETECTOR_HELP)
    detect.set_defaults(func=_detect)

    ev = cmds.add_parser("eval", help="recall, precision, false alarms, latency and speed on a labelled manifest")
    ev.add_argument("manifest", metavar="MANIFEST.csv")
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    ev.add_argument("--use-profile", action="store_true",
                    help="use the calibration profile (default: the generic detector, so results compare across machines)")
    ev.add_argument("--detector", choices=DETECTOR_KINDS, default=DEFAULT_DETECTOR, help=DETECTOR_HELP)
    ev.set_defaults(func=_eval)


def _profile(args: argparse.Namespace) -> Any:
    from calibration.whistle import load_profile, profile_path

    return load_profile(profile_path(getattr(args, "config_dir", None)))


def _detect(args: argparse.Namespace) -> int:
    from pathlib import Path

    from calibration.whistle import Profile
    from cli.common import print_json
    from hardware.whistle.evaluation import run_file

    detector = (Profile() if args.no_profile else _profile(args)).detector(args.detector)
    detections, duration, _ = run_file(Path(args.file), detector)
    for d in detections:
        if args.json:
            print_json(d.to_json())
        else:
            who = d.blower or "unknown blower"
            print(f"{d.detected_at:7.3f} s  whistle {d.peak_hz:6.0f} Hz  onset {d.onset:.3f} s  "
                  f"offset {d.offset:.3f} s  confidence {d.confidence:.2f}  {who}")
    if not args.json:
        print(f"{len(detections)} whistle(s) in {duration:.1f} s of audio", file=sys.stderr)
    return 0


def _fmt(v: Any, spec: str) -> str:
    width = int(spec.split(".")[0])
    return "-".rjust(width) if v is None else format(v, spec)


def _eval(args: argparse.Namespace) -> int:
    from calibration.whistle import Profile
    from cli.common import print_json
    from hardware.whistle.evaluation import evaluate

    profile = _profile(args) if args.use_profile else Profile()
    result = evaluate(args.manifest, lambda: profile.detector(args.detector))
    if args.json:
        print_json(result)
        return 0
    print(f"{'category':<18} {'recall':>7} {'prec.':>7} {'FA/h':>8} {'p50 ms':>7} {'p95 ms':>7} {'events':>6} {'hits':>5} {'FAs':>4}")
    for name, r in [*result["by_category"].items(), ("OVERALL", result["overall"])]:
        print(f"{name:<18} {_fmt(r['recall'], '7.3f')} {_fmt(r['precision'], '7.3f')} "
              f"{_fmt(r['false_alarms_per_hour'], '8.1f')} {_fmt(r['latency_ms_p50'], '7.0f')} "
              f"{_fmt(r['latency_ms_p95'], '7.0f')} {r['events']:>6} {r['hits']:>5} {r['false_alarms']:>4}")
    print("(overall leaves out categories starting with 'distant')")
    print(f"real-time factor: {result['realtime_factor']} s of audio per CPU second")
    return 0


def _listen(args: argparse.Namespace) -> int:
    import dataclasses
    import queue
    import time

    from hardware.audio import AudioSettings, list_devices
    from hardware.sensor import SensorStatus
    from hardware.whistle.sensor import DOUBT, WhistleSensor

    if args.list_devices:
        devices = list_devices()
        for d in devices:
            print(d)
        if not devices:
            print("no input devices found", file=sys.stderr)
        return 0
    settings = AudioSettings.load(getattr(args, "config_dir", None))
    if args.device is not None:
        settings = dataclasses.replace(settings, device=int(args.device) if args.device.isdigit() else args.device)
    profile = _profile(args)
    print(f"profile: {profile.source}", flush=True)
    out: queue.Queue[Any] = queue.Queue()
    sensor = WhistleSensor.from_config(out, settings, profile)
    sensor.start()
    start = time.monotonic()
    last_meter = 0.0
    try:
        while args.seconds is None or time.monotonic() - start < args.seconds:
            try:
                item = out.get(timeout=0.1)
            except queue.Empty:
                item = None
            if isinstance(item, SensorStatus):
                print(f"\r{item}".ljust(60), flush=True)
            elif item is not None and item.type == DOUBT:
                print(f"\r(maybe a whistle {item.payload['peak_hz']:.0f} Hz: not reported)".ljust(60), flush=True)
            elif item is not None:
                p = item.payload
                who = p["blower"] or "unknown blower"
                print(f"\rWHISTLE {p['peak_hz']:.0f} Hz  {who}  confidence {item.confidence:.2f}".ljust(60), flush=True)
            now = time.monotonic()
            if now - last_meter >= 0.25 and sys.stdout.isatty():
                db = max(-60.0, sensor.level_db)
                bar = "#" * int((db + 60) / 2)
                print(f"\rlevel {db:6.1f} dBFS |{bar:<30}|", end="", flush=True)
                last_meter = now
            if not sensor.running and out.empty():
                break
    except KeyboardInterrupt:
        pass
    finally:
        sensor.stop()
    print(f"\n{sensor.detections} whistle(s) heard", flush=True)
    return 0
