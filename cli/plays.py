"""``bellwether plays export``: finished games for BG Stats, BoardGameGeek or a spreadsheet."""

from __future__ import annotations

import argparse
import sys

from .common import check_output, open_store


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("plays", help="stored games as plays for BG Stats, BoardGameGeek or a spreadsheet")
    cmds = p.add_subparsers(dest="plays_command", metavar="COMMAND", required=True)
    e = cmds.add_parser("export", help="write the plays (finished games by default)")
    e.add_argument("--since", metavar="DATE", help="only games started on or after this date (YYYY-MM-DD)")
    e.add_argument("--format", default="bgstats", help="bgstats (default: BG Stats JSON), bgg-csv (BoardGameGeek), csv")
    e.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of standard output")
    e.add_argument("--incomplete", action="store_true", help="also games not finished, marked incomplete")
    e.add_argument("--location", default="", help="where the games were played (BG Stats location, BGG location)")
    e.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from companion.plays.export import fmt, render, write_atomic
    from companion.plays.model import parse_since

    fmt(args.format)  # a bad format is named before the store is opened
    since = parse_since(args.since) if args.since else None
    check_output(args)
    with open_store(args) as store:
        text, count = render(store, args.format, since, args.incomplete, location=args.location)
    if args.output:
        path = write_atomic(args.output, text)
        print(f"{count} play{'' if count == 1 else 's'} written to {path}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
