"""Readers of the export formats, written from their public descriptions
(docs/plays.md), not from our writers: a file our writer makes must read back
through these as the other programs would read it.

BG Stats' export (as public importers read it): an object with ``games``
(``id``, ``name``, ``bggId``, ``cooperative``), ``players`` (``id``, ``name``),
optional ``locations`` (``id``, ``name``) and ``plays``: ``gameRefId``,
``playDate`` "yyyy-MM-dd HH:mm:ss", ``durationMin``, ``ignored``,
optional ``locationRefId``, and ``playerScores``: ``playerRefId``, ``score``,
``winner``, ``startPlayer``, ``seatOrder``, ``rank``, ``role``.

BoardGameGeek's play fields: one row per player, grouped by ``playid``:
``objectid`` (the BGG id, empty when unknown), ``objectname``, ``date``
YYYY-MM-DD, ``length`` minutes, ``incomplete`` 0/1, per player ``name``,
``startposition``, ``color``, ``score``, ``win`` 0/1.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any


class FormatError(AssertionError):
    pass


def _need(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise FormatError(f"{where}: no {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise FormatError(f"{where}.{key}: expected {kind}, got {value!r}")
    return value


def _by_id(items: list[Any], where: str) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for i, item in enumerate(items):
        ident = _need(item, "id", int, f"{where}[{i}]")
        if ident in out:
            raise FormatError(f"{where}[{i}]: id {ident} used twice")
        _need(item, "name", str, f"{where}[{i}]")
        out[ident] = item
    return out


def read_bgstats(text: str) -> list[dict[str, Any]]:
    doc = json.loads(text)
    if not isinstance(doc, dict):
        raise FormatError("a BG Stats file is a JSON object")
    games = _by_id(_need(doc, "games", list, "file"), "games")
    players = _by_id(_need(doc, "players", list, "file"), "players")
    locations = _by_id(doc.get("locations", []), "locations")
    out = []
    for i, play in enumerate(_need(doc, "plays", list, "file")):
        where = f"plays[{i}]"
        game = games.get(_need(play, "gameRefId", int, where))
        if game is None:
            raise FormatError(f"{where}.gameRefId: no such game")
        when = dt.datetime.strptime(_need(play, "playDate", str, where), "%Y-%m-%d %H:%M:%S")
        loc = play.get("locationRefId")
        if loc is not None and loc not in locations:
            raise FormatError(f"{where}.locationRefId: no such location")
        scores = []
        for j, ps in enumerate(_need(play, "playerScores", list, where)):
            w = f"{where}.playerScores[{j}]"
            player = players.get(_need(ps, "playerRefId", int, w))
            if player is None:
                raise FormatError(f"{w}.playerRefId: no such player")
            score = ps.get("score")
            if score is not None and not isinstance(score, (int, float, str)):
                raise FormatError(f"{w}.score: {score!r}")
            scores.append(
                {
                    "name": player["name"],
                    "score": None if score in (None, "") else float(score),
                    "winner": _need(ps, "winner", bool, w),
                    "start": bool(ps.get("startPlayer", False)),
                    "seat": ps.get("seatOrder", 0),
                    "rank": ps.get("rank", 0),
                    "role": ps.get("role", ""),
                }
            )
        out.append(
            {
                "game": game["name"],
                "bggId": game.get("bggId", 0),
                "cooperative": bool(game.get("cooperative", False)),
                "date": when,
                "minutes": _need(play, "durationMin", int, where),
                "ignored": bool(play.get("ignored", False)),
                "location": locations[loc]["name"] if loc is not None else None,
                "players": scores,
            }
        )
    return out


BGG_NEEDED = ("playid", "objectid", "objectname", "date", "length", "incomplete", "name", "startposition", "color", "score", "win")


def read_bgg_csv(text: str) -> list[dict[str, Any]]:
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    if rows:
        missing = [c for c in BGG_NEEDED if c not in rows[0]]
        if missing:
            raise FormatError(f"BGG CSV: no column {missing}")
    plays: dict[str, dict[str, Any]] = {}
    for n, row in enumerate(rows, 2):
        play = plays.setdefault(
            row["playid"],
            {
                "objectid": int(row["objectid"]) if row["objectid"] else None,
                "game": row["objectname"],
                "date": dt.date.fromisoformat(row["date"]),
                "minutes": int(row["length"]),
                "incomplete": row["incomplete"] == "1",
                "players": [],
            },
        )
        if row["win"] not in ("0", "1") or row["incomplete"] not in ("0", "1"):
            raise FormatError(f"BGG CSV line {n}: win/incomplete must be 0 or 1")
        play["players"].append(
            {
                "name": row["name"],
                "score": float(row["score"]) if row["score"] else None,
                "winner": row["win"] == "1",
                "startposition": int(row["startposition"]) if row["startposition"] else None,
                "color": row["color"],
            }
        )
    return list(plays.values())


def read_plain_csv(text: str) -> list[dict[str, Any]]:
    plays: dict[str, dict[str, Any]] = {}
    for row in csv.DictReader(io.StringIO(text, newline="")):
        play = plays.setdefault(row["game_number"], {"game": row["game"], "finished": row["finished"] == "yes", "result": row["result"], "players": []})
        play["players"].append({"name": row["player"], "score": float(row["score"]) if row["score"] else None, "winner": row["winner"] == "yes", "start": row["start_player"] == "yes"})
    return list(plays.values())
