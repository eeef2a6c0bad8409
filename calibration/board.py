"""``bellwether calibrate board GAME``: check a game's board data against your own board.

Some facts are printed only on the physical board or pieces (Shear Panic's panic
spaces and gates, the Sheep Hop! wolf paths, which Pendleton Hill pastures
touch, the Battle Sheep board shape).  Each game ships them as commented TOML
with a best-known default beside its code and says which (``Game.board_files``);
what they mean, their words and their corrections are the game's own
(``Game.board_check``, ``companion.board_check``).  This module only keeps the
table's copy: the wizard copies the files into ``<config dir>/boards/<game>/``
for the table to check and correct once, ``open_check`` / ``save_check`` load
and save the Check the board screen's copy, and ``setup_options`` puts the
corrected data into every new game's setup, so that game records stay
self-contained and replay anywhere.
"""

from __future__ import annotations

import argparse
import json
import time
import tomllib
from pathlib import Path
from typing import Any

from companion import paths, registry
from companion.board_check import BoardCheck, DataFile, shipped_text
from companion.config import Table, dump_toml, load_toml, profile_present, save_text_atomic
from companion.errors import ConfigError, SetupError, UnknownGame


def files(game: str) -> tuple[DataFile, ...]:
    """The board files a game ships (``Game.board_files``); () for an unknown game or one without."""
    try:
        return registry.get(game).board_files
    except UnknownGame:
        return ()


def board_games() -> list[str]:
    """The registered games with board data, in the registry's order."""
    return [g for g in registry.names() if files(g)]


def profile_dir(game: str, config_dir: str | None = None) -> Path:
    return paths.config_dir(config_dir) / "boards" / game


def _shipped(game: str, f: DataFile, players: int) -> str:
    return shipped_text(registry.get(game), f, players)


def _players(game: str, players: int | None) -> int:
    g = registry.get(game)
    if players is None:
        return max(g.min_players, min(4, g.max_players))
    if not g.min_players <= players <= g.max_players:
        raise ConfigError("--players", "players", f"{g.min_players} to {g.max_players} for {g.title}", players)
    return players


def _check_game(game: str) -> None:
    registry.get(game)  # an unknown name gets the registry's clear error
    if not files(game):
        raise ConfigError("bellwether calibrate board", "GAME", "a game with board data: " + ", ".join(board_games()), game)


def setup_options(game: str, players: int, config_dir: str | None = None) -> dict[str, Any]:
    """The corrected board data for a new game's ``options``; {} when none was saved.

    A profile that does not validate raises ConfigError naming its file and key,
    so a typo on the board check is reported, never silently ignored.
    """
    if not files(game):
        return {}
    folder = profile_dir(game, config_dir)
    options: dict[str, Any] = {}
    for f in files(game):
        path = folder / f.file_for(players)
        if profile_present(path):
            loaded = load_toml(path)
            # One rule for every profile (docs/profiles.md): a key the shipped file does not
            # have is a typo, refused by name, never silently dropped.
            Table(loaded, path).only(*tomllib.loads(_shipped(game, f, players)))
            try:
                options[f.option] = f.extract(loaded)
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
    for f in files(game):
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
    for f in files(game):
        path = folder / f.file_for(players)
        if path.exists() and reset:
            path.rename(path.with_name(f"{path.name}.{time.strftime('%Y%m%d-%H%M%S')}.bak"))
        if not path.exists():
            save_text_atomic(path, _shipped(game, f, players))  # a full disk never leaves half a board file
        written.append(path)
    return written


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="a game with board data: " + ", ".join(board_games()))
    p.add_argument("--players", type=int, help="the player count (a board file may depend on it)")
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
        for f in files(args.game):
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
    written = install_defaults(args.game, players, config_dir, reset=args.reset)
    title = registry.get(args.game).title
    print(f"Board check for {title}. Compare these files with your own board and correct them:")
    for path in written:
        print(f"  {path}")
    print("Each file says at its top what is certain and what is a best guess.")
    print(
        f"Then run: bellwether calibrate board {args.game} --check"
        + (f" --players {players}" if any("{n}" in f.name for f in files(args.game)) else "")
    )
    setup_options(args.game, players, config_dir)  # the fresh copy validates
    return 0


# -- the Check the board screen's data: the table's copy loaded and saved -------------


def has_board(game: str) -> bool:
    return bool(files(game))


def open_check(game: str, players: int, config_dir: str | None = None) -> BoardCheck:
    """The game's board check over the table's checked copy where there is one that
    loads, else the shipped data (``origin`` says which, or why a copy was not used)."""
    check = registry.get(game).board_check(players)
    if check is None:
        raise ConfigError("bellwether calibrate board", "GAME", "a game with board data", game)
    folder = profile_dir(game, config_dir)
    for f in files(game):
        path = folder / f.file_for(players)
        if profile_present(path):
            try:
                check.data[f.option] = load_toml(path)
                check.origin = "checked"
            except ConfigError as e:
                check.origin = f"shipped ({e})"
    return check


def save_check(check: BoardCheck, config_dir: str | None = None) -> list[Path]:
    """Validate, then write each file atomically into the profile folder new games read."""
    check.validate()
    game = check.game
    stamp = time.strftime("%Y-%m-%d %H:%M")
    written = []
    for f in game.board_files:
        name = f.file_for(check.players)
        comment = (
            f"{game.title}: {name}, checked against the table's own board\n"
            f"on the touchscreen ({stamp}). New games use it; delete this file for the shipped data."
        )
        path = profile_dir(game.name, config_dir) / name
        written.append(save_text_atomic(path, dump_toml(check.data[f.option], comment)))
    check.origin = "checked"
    return written


def board_note(game: str, players: int, config_dir: str | None = None) -> tuple[dict[str, Any], str, bool]:
    """(options for the new game's setup, one line for the Setup screen, whether the profile is bad)."""
    if not has_board(game):
        return {}, "", False
    try:
        options = setup_options(game, players, config_dir)
    except ConfigError as e:
        # One line: the file's name (its folder is the same for every game), the key, the problem.
        return {}, f"Board check: {str(e).replace(str(Path(e.file).parent) + '/', '', 1)}", True
    if options:
        return options, "Board: as checked at this table (Check the board to change it).", False
    return {}, "Board: the shipped data, not yet checked against your board.", False
