"""Games and records: ``games``, ``replay``, ``validate``, ``export``, ``sessions``."""

from __future__ import annotations

import argparse
import sys
import time

from companion import records, registry
from companion.config import save_text_atomic
from companion.errors import RecordError, os_reason
from companion.game import shown
from companion.session import Session

from .common import check_output, open_store, print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list the registered games, one name a line")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("replay", help="replay a game record and print the final state, scores and outcome")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("validate", help="check a game record; name the first illegal line")
    p.add_argument("file")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("export", help="print a stored game as a game record")
    p.add_argument("id", type=int)
    p.add_argument("-o", "--output", help="write to this file instead of standard output")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("sessions", help="list stored games")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sessions)


def cmd_games(args: argparse.Namespace) -> int:
    for name in registry.BUILTIN:
        print(name)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    session = Session.from_file(args.file, history=False)
    if args.json:
        print_json(session.to_json())
        return 0
    summary = session.to_json()
    print(f"{session.game.title}: {session.event_count} events")
    # Names are checked at setup, but a stored game may predate that rule: never raw to the terminal.
    for name, points in summary["scores"].items():
        print(shown(f"  {name}: {points}"))
    outcome = session.outcome()
    if outcome is None:
        print(shown(f"Not finished. Next: {session.prompt().text}"))
    else:
        if outcome.headline:  # a cooperative game: the table's result, no ranking
            print(shown(f"Result: {outcome.headline}"))
        else:
            print(shown("Ranking: " + ", ".join(outcome.ranking)))
        if len(outcome.winner_names()) > 1 and outcome.won is None:
            print(shown("Shared win: " + " and ".join(outcome.winner_names())))
        if outcome.tie_break:
            print(shown(f"Tie-break: {outcome.tie_break}"))
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    session = Session.from_file(args.file, history=False)
    print(f"{args.file}: ok, {session.event_count} events of {session.game.title}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    check_output(args)
    with open_store(args) as store:
        session = Session.resume(store, args.id)
        text = records.dumps(session.record(exported=time.strftime("%Y-%m-%dT%H:%M:%S%z")))
    if args.output:
        try:
            save_text_atomic(
                args.output, text, make_folder=False
            )  # a full disk leaves the old file whole, never a cut-off one
        except OSError as e:
            raise RecordError(
                args.output, 0, f"not written ({os_reason(e)}); any old file there is unchanged"
            ) from None
    else:
        sys.stdout.write(text)
        sys.stdout.flush()  # a write error (a full disk, /dev/full) must show here, as one line and status 1
    return 0


def cmd_sessions(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        infos = store.sessions()
    if args.json:
        print_json(
            [{"id": i.id, "game": i.game, "players": i.players, "updated": i.updated, **i.summary} for i in infos]
        )
        return 0
    if not infos:
        print("No stored games yet.")
    for i in infos:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(i.updated))
        state = "finished" if i.summary.get("outcome") else "in play"
        print(
            shown(
                f"{i.id:>4}  {when}  {i.game:<15} {', '.join(i.players):<30} {state}, {i.summary.get('events', 0)} events"
            )
        )
    return 0
