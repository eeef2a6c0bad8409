"""The board check: shipped data copied for the table to correct, validated, used by new games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.board import BOARDS, install_defaults, profile_dir, setup_options
from companion.errors import ConfigError
from companion.session import Session


@pytest.mark.parametrize("game", list(BOARDS))
def test_shipped_defaults_validate_and_feed_a_new_game(game: str, tmp_path: Path) -> None:
    players = 3
    files = install_defaults(game, players, str(tmp_path))
    assert all(p.exists() and p.read_text().strip() for p in files)
    options = setup_options(game, players, str(tmp_path))
    assert set(options) == {f.option for f in BOARDS[game]}
    session = Session.new(None, game, {"players": ["Ann", "Bob", "Cat"], "options": options})
    assert session.prompt().text


def test_a_corrected_value_reaches_the_setup(tmp_path: Path) -> None:
    install_defaults("shear-panic", 3, str(tmp_path))
    track = profile_dir("shear-panic", str(tmp_path)) / "track-3.toml"
    text = track.read_text()
    start = text.index("panic = [")
    end = text.index("]", start)
    track.write_text(text[:start] + "panic = [5, 8, 14]" + text[end + 1 :])
    options = setup_options("shear-panic", 3, str(tmp_path))
    assert options["track"]["panic"] == [5, 8, 14]


def test_a_bad_value_names_the_file_and_key(tmp_path: Path) -> None:
    install_defaults("shear-panic", 3, str(tmp_path))
    track = profile_dir("shear-panic", str(tmp_path)) / "track-3.toml"
    track.write_text(track.read_text().replace("spaces = 56", "spaces = 57"))
    with pytest.raises(ConfigError) as err:
        setup_options("shear-panic", 3, str(tmp_path))
    assert err.value.file == str(track) and err.value.key == "spaces"
    assert "expected 56" in str(err.value) and "got 57" in str(err.value)


def test_reset_keeps_the_old_file(tmp_path: Path) -> None:
    (path,) = install_defaults("pendleton-hill", 4, str(tmp_path))
    path.write_text(path.read_text() + "\n# our board\n")
    install_defaults("pendleton-hill", 4, str(tmp_path), reset=True)
    backups = list(path.parent.glob("board.toml.*.bak"))
    assert len(backups) == 1 and backups[0].read_text().endswith("# our board\n")
    assert "# our board" not in path.read_text()


def test_no_profile_means_shipped_defaults(tmp_path: Path) -> None:
    assert setup_options("battle-sheep", 2, str(tmp_path)) == {}
    assert setup_options("fleeced", 4, str(tmp_path)) == {}


def test_cli_wizard_check_and_show(cli, tmp_path: Path) -> None:
    cfg = str(tmp_path / "cfg")
    r = cli("--config-dir", cfg, "calibrate", "board", "sheep-hop")
    assert r.returncode == 0 and "board.toml" in r.stdout
    r = cli("--config-dir", cfg, "calibrate", "board", "sheep-hop", "--check")
    assert r.returncode == 0 and "ok" in r.stdout
    r = cli("--config-dir", cfg, "calibrate", "board", "sheep-hop", "--show")
    assert r.returncode == 0 and "board" in json.loads(r.stdout)
    board = Path(cfg) / "boards" / "sheep-hop" / "board.toml"
    board.write_text("this is = = not toml\n")
    r = cli("--config-dir", cfg, "calibrate", "board", "sheep-hop", "--check")
    assert r.returncode == 1 and str(board) in r.stderr and "valid TOML" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = cli("--config-dir", cfg, "calibrate", "board", "fleeced")
    assert r.returncode == 1 and "a game with board data" in r.stderr
