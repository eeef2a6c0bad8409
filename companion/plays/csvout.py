"""Plays as CSV: BoardGameGeek's play-log fields, and a plain table for spreadsheets.

Both have one row per player per play (a play's own columns repeated), so a
spreadsheet or a logging script reads them with no nesting.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from .model import Play

# The fields a BGG play takes (its XML API and logplay form): the game by its
# BGG object id, date, length in minutes, location, quantity, incomplete,
# nowinstats, comments; per player: name, username, startposition, color,
# score, new, rating, win.  ``playid`` groups a play's rows (our game number).
BGG_COLUMNS = (
    "playid", "objectid", "objectname", "date", "length", "location", "quantity", "incomplete", "nowinstats",
    "comments", "name", "username", "startposition", "color", "score", "new", "rating", "win",
)  # fmt: skip

PLAIN_COLUMNS = (
    "game_number", "game", "date", "time", "minutes", "finished", "cooperative", "result",
    "player", "seat", "score", "winner", "start_player", "rank", "colour",
)  # fmt: skip


def _text(rows: Iterable[Sequence[object]], header: Sequence[str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")  # RFC 4180, what spreadsheets expect
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def bgg(plays: Iterable[Play], location: str = "") -> str:
    rows = []
    for play in plays:
        for p in play.players:
            rows.append(
                (
                    play.session_id, play.bgg_id or "", play.title, play.local_start().strftime("%Y-%m-%d"),
                    play.duration_min, location, 1, int(not play.finished), 0, play.result,
                    p.name, "", p.start_position, p.colour, "" if p.score is None else p.score,
                    0, 0, int(p.winner),
                )
            )
    return _text(rows, BGG_COLUMNS)


def plain(plays: Iterable[Play]) -> str:
    rows = []
    for play in plays:
        start = play.local_start()
        for p in play.players:
            rows.append(
                (
                    play.session_id, play.title, start.strftime("%Y-%m-%d"), start.strftime("%H:%M"), play.duration_min,
                    "yes" if play.finished else "no (incomplete)", "yes" if play.cooperative else "no", play.result,
                    p.name, p.seat, "" if p.score is None else p.score, "yes" if p.winner else "no",
                    "yes" if p.start_player else "no", p.rank, p.colour,
                )
            )
    return _text(rows, PLAIN_COLUMNS)
