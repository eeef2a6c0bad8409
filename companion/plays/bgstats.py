"""Plays in the shape of BG Stats' own JSON export, which BG Stats imports.

The shape follows public code that reads or writes BG Stats export files
(docs/plays.md names them): top-level ``games``, ``players``, ``locations``,
``plays``; a play refers to its game (``gameRefId``), location
(``locationRefId``) and, in ``playerScores``, to each player (``playerRefId``)
by the ids of those lists.  Dates are local time ``YYYY-MM-DD HH:MM:SS``.
Ids are stable uuid5 values, so importing the same game twice is one play.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from typing import Any

from .model import Play

NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "bellwether.table-companion")
ABOUT = "Plays from Bellwether, the sheep board game table companion. Open this file with BG Stats (import) to add them."
DATE = "%Y-%m-%d %H:%M:%S"


def _uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{key}")).upper()


def document(plays: Iterable[Play], location: str = "") -> dict[str, Any]:
    games: dict[str, dict[str, Any]] = {}
    players: dict[str, dict[str, Any]] = {}
    locations: list[dict[str, Any]] = []
    if location:
        locations.append({"id": 1, "uuid": _uuid("location", location), "name": location})
    out_plays = []
    for play in plays:
        if play.game not in games:
            games[play.game] = {
                "id": len(games) + 1,
                "uuid": _uuid("game", play.game),
                "name": play.title,
                "bggName": play.title,
                "bggId": play.bgg_id or 0,  # 0: no BoardGameGeek id known
                "cooperative": play.cooperative,
                "highestWins": True,
                "noPoints": False,
                "usesTeams": False,
            }
        scores = []
        for p in play.players:
            if p.name not in players:
                players[p.name] = {"id": len(players) + 1, "uuid": _uuid("player", p.name), "name": p.name, "isAnonymous": False}
            scores.append(
                {
                    "playerRefId": players[p.name]["id"],
                    "score": p.score,
                    "winner": p.winner,
                    "newPlayer": False,
                    "startPlayer": p.start_player,
                    "seatOrder": p.seat,
                    "rank": p.rank,
                    "role": p.colour,
                }
            )
        entry: dict[str, Any] = {
            "uuid": _uuid("play", f"{play.session_id}:{play.started!r}"),
            "gameRefId": games[play.game]["id"],
            "playDate": play.local_start().strftime(DATE),
            "durationMin": play.duration_min,
            "ignored": not play.finished,  # BG Stats leaves ignored plays out of its statistics
            "manualWinner": False,
            "rounds": 0,
            "board": "",
            "usesTeams": False,
            "playImages": "[]",
            "comments": play.result if play.finished else f"Incomplete: {play.result}",
            "playerScores": scores,
        }
        if locations:
            entry["locationRefId"] = 1
        out_plays.append(entry)
    return {"about": ABOUT, "games": list(games.values()), "players": list(players.values()), "locations": locations, "plays": out_plays}


def dumps(plays: Iterable[Play], location: str = "") -> str:
    return json.dumps(document(plays, location), ensure_ascii=False, indent=1) + "\n"
