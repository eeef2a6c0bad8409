"""``bellwether calibrate board GAME``: check a game's board data against your own board.

Some facts are printed only on the physical board or pieces (Shear Panic's panic
spaces and gates, the Sheep Hop! wolf paths, which Pendleton Hill pastures
touch, the Battle Sheep board shape).  Each game ships them as commented TOML
with a best-known default.  This wizard copies those files into
``<config dir>/boards/<game>/`` for the table to check and correct once;
``setup_options`` then puts the corrected data into every new game's setup, so
that game records stay self-contained and replay anywhere.
"""

from __future__ import annotations

import argparse
import json
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion import paths, registry
from companion.config import load_toml, profile_present
from companion.errors import ConfigError, SetupError


@dataclass(frozen=True)
class DataFile:
    """One shipped TOML file and the setup option it fills."""

    name: str  # file name in the game's package, "{n}" for the player count
    option: str  # the setup option (options.<option>) it becomes
    extract: Callable[[dict[str, Any]], Any] = lambda data: data  # from the file to the option

    def file_for(self, players: int) -> str:
        return self.name.format(n=players)


# What each game ships and where it goes in the setup.  Fleeced! needs none:
# the table reports positions, the engine never reads the board's squares.
BOARDS: dict[str, tuple[DataFile, ...]] = {
    "shear-panic": (
        DataFile("track-{n}.toml", "track"),
        DataFile("tiles.toml", "tiles"),
        DataFile("flock.toml", "flock"),
    ),
    "battle-sheep": (DataFile("board.toml", "board", lambda d: d["board"]),),
    "sheep-hop": (DataFile("board.toml", "board"),),
    "pendleton-hill": (DataFile("board.toml", "board"),),
}


def profile_dir(game: str, config_dir: str | None = None) -> Path:
    return paths.config_dir(config_dir) / "boards" / game


def _package(game: str) -> str:
    return registry.BUILTIN[game]


def _shipped(game: str, f: DataFile, players: int) -> str:
    return resources.files(_package(game)).joinpath(f.file_for(players)).read_text(encoding="utf-8")


def _players(game: str, players: int | None) -> int:
    g = registry.get(game)
    if players is None:
        return max(g.min_players, min(4, g.max_players))
    if not g.min_players <= players <= g.max_players:
        raise ConfigError("--players", "players", f"{g.min_players} to {g.max_players} for {g.title}", players)
    return players


def _check_game(game: str) -> None:
    if game not in BOARDS:
        registry.get(game)  # an unknown name gets the registry's clear error
        raise ConfigError("bellwether calibrate board", "GAME", "a game with board data: " + ", ".join(BOARDS), game)


def setup_options(game: str, players: int, config_dir: str | None = None) -> dict[str, Any]:
    """The corrected board data for a new game's ``options``; {} when none was saved.

    A profile that does not validate raises ConfigError naming its file and key,
    so a typo on the board check is reported, never silently ignored.
    """
    if game not in BOARDS:
        return {}
    folder = profile_dir(game, config_dir)
    options: dict[str, Any] = {}
    for f in BOARDS[game]:
        path = folder / f.file_for(players)
        if profile_present(path):
            try:
                options[f.option] = f.extract(load_toml(path))
            except KeyError as e:
                raise ConfigError(path, str(e.args[0]), "a table as in the shipped file") from None
    if options:
        _validate(game, players, options, folder)
    return options


def _validate(game: str, players: int, options: dict[str, Any], folder: Path) -> None:
    setup = {"players": [{"name": f"Player {i + 1}"} for i in range(players)], "options": options}
    try:
        registry.get(game).validate_setup(setup)
    except (SetupError, ConfigError) as e:
        file, key = _locate(game, players, e.key, folder)
        raise ConfigError(file, key, e.expected, e.actual) from None


def _locate(game: str, players: int, key: str, folder: Path) -> tuple[Path, str]:
    """The profile file and the key inside it for a setup key like options.track.panic."""
    key = key.removeprefix("options.")
    for f in BOARDS[game]:
        if key == f.option or key.startswith((f"{f.option}.", f"{f.option}[")):
            inner = key[len(f.option) :].lstrip(".")
            return folder / f.file_for(players), inner or "(file)"
    return folder, key


def install_defaults(game: str, players: int, config_dir: str | None = None, reset: bool = False) -> list[Path]:
    """Copy the shipped files into the profile folder (an existing copy is kept
    unless ``reset``, and then it is renamed aside, never deleted)."""
    folder = profile_dir(game, config_dir)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for f in BOARDS[game]:
        path = folder / f.file_for(players)
        if path.exists() and reset:
            path.rename(path.with_name(f"{path.name}.{time.strftime('%Y%m%d-%H%M%S')}.bak"))
        if not path.exists():
            path.write_text(_shipped(game, f, players), encoding="utf-8")
        written.append(path)
    return written


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="shear-panic, battle-sheep, sheep-hop or pendleton-hill")
    p.add_argument("--players", type=int, help="the player count (Shear Panic's track depends on it)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="validate your corrected files")
    group.add_argument("--show", action="store_true", help="print the data new games will use, as JSON")
    group.add_argument(
        "--reset", action="store_true", help="start again from the shipped defaults (old files kept as .bak)"
    )


def main(args: argparse.Namespace) -> int:
    _check_game(args.game)
    players = _players(args.game, args.players)
    config_dir = getattr(args, "config_dir", None)
    if args.show:
        options = setup_options(args.game, players, config_dir)
        for f in BOARDS[args.game]:
            if f.option not in options:
                options[f.option] = f.extract(tomllib.loads(_shipped(args.game, f, players)))
        print(json.dumps(options, indent=2))
        return 0
    if args.check:
        if not setup_options(args.game, players, config_dir):
            print(f"No corrected board data for {args.game} yet: new games use the shipped defaults.")
            return 0
        print(f"{profile_dir(args.game, config_dir)}: ok, new {args.game} games will use it.")
        return 0
    files = install_defaults(args.game, players, config_dir, reset=args.reset)
    title = registry.get(args.game).title
    print(f"Board check for {title}. Compare these files with your own board and correct them:")
    for path in files:
        print(f"  {path}")
    print("Each file says at its top what is certain and what is a best guess.")
    print(
        f"Then run: bellwether calibrate board {args.game} --check"
        + (f" --players {players}" if args.game == "shear-panic" else "")
    )
    setup_options(args.game, players, config_dir)  # the fresh copy validates
    return 0
