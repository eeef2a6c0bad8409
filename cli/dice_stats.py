"""``bellwether dice stats``: is the table's dice fair?  Face counts of every die
the app has read, a chi-square test each, and the answer in words."""

from __future__ import annotations

import argparse

from .common import open_store, print_json


def register(cmds: argparse._SubParsersAction) -> None:
    s = cmds.add_parser("stats", help="face counts and a fairness test of every die in the stored games")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--by-game", action="store_true", help="also each game on its own")
    s.set_defaults(func=stats)


def stats(args: argparse.Namespace) -> int:
    from companion.plays.dicestats import p_words, stored_rolls, tally

    with open_store(args) as store:
        rolls = stored_rolls(store)
    table = tally(rolls, by_game=args.by_game or args.json)
    if args.json:
        print_json({"rolls": len(rolls), "dice": [d.to_json() for d in table]})
        return 0
    if not table:
        print("No dice rolled in the stored games yet.")
        return 0
    for d in table:
        stat, p = d.test()
        print(f"{d.label}: {d.rolls} roll{'' if d.rolls == 1 else 's'}")
        width = max(len(str(f)) for f in d.faces) + 1
        width = max(width, max(len(str(c)) for c in d.counts) + 1)
        print("  face " + "".join(f"{f!s:>{width}}" for f in d.faces))
        print("  count" + "".join(f"{c:>{width}}" for c in d.counts))
        print(f"  chi-square {stat:.2f} ({len(d.faces) - 1} df), {p_words(p)}: {d.verdict()}")
    return 0
