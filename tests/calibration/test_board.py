"""The board check: shipped data copied for the table to correct, validated, used by new games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.board import board_games, files, install_defaults, open_check, profile_dir, save_check, setup_options
from companion.errors import ConfigError, SetupError
from companion.session import Session


@pytest.mark.parametrize("game", board_games())
def test_shipped_defaults_validate_and_feed_a_new_game(game: str, tmp_path: Path) -> None:
    players = 3
    written = install_defaults(game, players, str(tmp_path))
    assert all(p.exists() and p.read_text().strip() for p in written)
    options = setup_options(game, players, str(tmp_path))
    assert set(options) == {f.option for f in files(game)}
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


# -- the touch corrections of each game's board check (plain Python, no window) ----------


def _new_game_board(game: str, cfg: Path) -> dict:
    """The board a new game's setup carries from the saved check (as Setup passes it)."""
    options = setup_options(game, 2, str(cfg))
    session = Session.new(None, game, {"players": ["Ann", "Bob"], "options": options})
    assert session.prompt().text
    return session.setup["options"]["board"]


def test_sheep_hop_die_meadow_exit_and_wolves_corrected_saved_and_used(tmp_path: Path) -> None:
    from companion.board_check import Refused

    check = open_check("sheep-hop", 2, str(tmp_path))
    assert check.die_counts() == dict.fromkeys(
        ("white", "black", "brown", "multicoloured", "big-and-little-wolf", "double-big-wolf"), 1
    )
    with pytest.raises(Refused, match=r"^Not changed: a die has 6 faces; take one off another kind first\.$"):
        check.face_count("multicoloured", +1)
    assert check.face_count("double-big-wolf", -1) == 0 and check.face_count("multicoloured", +1) == 2
    with pytest.raises(Refused, match=r"^Not changed: the die has no double big wolf face already\.$"):
        check.face_count("double-big-wolf", -1)
    names = [f["name"] for f in check.data["board"]["die"]["faces"]]
    assert names == ["white", "black", "brown", "multicoloured", "multicoloured-2", "big-and-little-wolf"]
    assert check.face_count("multicoloured", -1) == 1
    assert check.face_count("double-big-wolf", +1) == 1  # a kind taken off comes back as shipped
    assert check.data["board"]["die"]["faces"][-1] == {"name": "double-big-wolf", "kind": "wolves", "steps": {"big": 2}}
    # The meadow one column wider: the big wolf's path round the edge grows with it.
    assert check.meadow_size("cols", +1) == 8
    assert len(check.wolf("big")["path"]) == 22 and check.check_error() == ""
    # The little wolf round a 3 x 4 block: not a loop until the last touch.
    for place in ((2, 5), (3, 5), (4, 5)):
        check.toggle_path("little", place)
    assert check.check_error().startswith("the little wolf's path is not one closed loop")
    check.toggle_path("little", (3, 4))
    assert check.check_error() == ""
    little = check.wolf("little")["path"]
    assert little[0] == [2, 2] and little[1] == [2, 3] and len(little) == 10  # clockwise from its start
    assert check.wolf_start("little", -1) == (3, 2) and check.turn_wolf("little") == "counterclockwise"
    # The exit on the east edge: the rows are redrawn, the paths move with the meadow.
    check.place_exit((3, 8))
    assert check.data["board"]["meadow"]["pen"] == "east" and check.data["board"]["meadow"]["rows"][2][-1] == "E"
    assert check.wolf("little")["path"][0] == [2, 5]  # (3, 2) one row up, three columns right
    saved = save_check(check, str(tmp_path))
    assert [p.name for p in saved] == ["board.toml"]
    board = _new_game_board("sheep-hop", tmp_path)
    assert board == {**check.data["board"], "die": board["die"]}
    assert [f["name"] for f in board["die"]["faces"]][-2:] == ["big-and-little-wolf", "double-big-wolf"]
    assert {w["name"]: (len(w["path"]), w["direction"]) for w in board["wolves"]} == {
        "big": (22, "clockwise"),
        "little": (10, "counterclockwise"),
    }


def test_sheep_hop_refusals_leave_the_board_unchanged(tmp_path: Path) -> None:
    from companion.board_check import Refused

    check = open_check("sheep-hop", 2, str(tmp_path))
    assert check.pen_place() == (-1, 3) and (0, 3) in check.exit_places() and len(check.exit_places()) == 24
    before = json.dumps(check.data)
    refusals = {
        "a wolf walks on the board's spaces only": lambda: check.toggle_path("big", (0, 0)),
        "the exit is a place just outside the meadow": lambda: check.place_exit((3, 3)),
        "the meadow here is 3 to 12 spaces a side": lambda: check.meadow_size("rows", -3),
        "the little wolf's path would leave the meadow": lambda: check.meadow_size("cols", -3),
    }
    for rule, touch in refusals.items():
        with pytest.raises(Refused) as err:
            touch()
        assert str(err.value).startswith(f"Not changed: {rule}") and "\n" not in str(err.value)
        assert json.dumps(check.data) == before
    for kind in list(check.die_counts())[:-1]:
        check.face_count(kind, -1)
    with pytest.raises(Refused, match="the die needs at least one face"):
        check.face_count("double-big-wolf", -1)
    for _ in range(5):  # five white faces beside the last wolf face: six in all
        check.face_count("white", +1)
    with pytest.raises(Refused, match="a die has 6 faces"):
        check.face_count("white", +1)
    check.face_count("double-big-wolf", -1)
    check.face_count("white", +1)  # six white faces, the most of one kind
    with pytest.raises(Refused, match="at most 6 faces of one kind"):
        check.face_count("white", +1)
    # What a face does is the table's own once corrected in the file: a step keeps it.
    check.reset()
    wolf = next(f for f in check.data["board"]["die"]["faces"] if f["name"] == "double-big-wolf")
    wolf["steps"] = {"big": 3}
    check.face_count("white", -1)
    check.face_count("white", +1)
    assert {"name": "double-big-wolf", "kind": "wolves", "steps": {"big": 3}} in check.data["board"]["die"]["faces"]
    # A meadow this view cannot redraw is corrected in the file; its paths still by touch.
    check.reset()
    check.data["board"]["meadow"]["rows"][3] = ". ....."
    with pytest.raises(Refused, match="correct it in the file"):
        check.meadow_size("rows", +1)
    assert check.exit_places() == [] and check.pen_place() == (-1, 3)  # the pen is drawn all the same
    check.toggle_path("big", (3, 0))  # its paths are still corrected by touch
    assert [3, 0] not in check.wolf("big")["path"]
    assert any(line.startswith("Meadow: 9 rows of 7") for line in check.describe())


def test_sheep_hop_a_path_not_yet_a_loop_is_not_saved(tmp_path: Path) -> None:
    check = open_check("sheep-hop", 2, str(tmp_path))
    check.toggle_path("big", (1, 0))
    with pytest.raises(SetupError):
        save_check(check, str(tmp_path))
    assert "big wolf's path is not one closed loop" in check.check_error()
    assert setup_options("sheep-hop", 2, str(tmp_path)) == {}  # nothing written


def test_battle_sheep_piece_shape_toggled_refused_saved_and_used(tmp_path: Path) -> None:
    from companion.board_check import Refused

    check = open_check("battle-sheep", 2, str(tmp_path))
    area = check.piece_area()
    assert len(area) == 19 and set(check.piece()) <= set(area)
    check.toggle_hex((1, 1))
    assert check.check_error() == "a pasture board is 4 hexes: touch 1 more."
    with pytest.raises(SetupError):
        save_check(check, str(tmp_path))
    with pytest.raises(Refused) as err:
        check.toggle_hex((3, 0))  # joined to none of the three
    assert str(err.value) == "Not changed: a pasture board is hexes joined by sides into one piece."
    assert check.piece() == [(0, 0), (1, 0), (0, 1)]
    check.toggle_hex((2, 0))
    with pytest.raises(Refused, match="a pasture board is 4 hexes; touch one of them first"):
        check.toggle_hex((2, -1))
    assert check.piece_area() == area  # fixed while the view is open: no hex moves under a finger
    save_check(check, str(tmp_path))
    assert _new_game_board("battle-sheep", tmp_path) == {"hexes": [[0, 0], [1, 0], [0, 1], [2, 0]]}
    check.reset()
    assert check.piece() == [(0, 0), (1, 0), (0, 1), (1, 1)]


# -- a new game brings its own board check ---------------------------------------------


def test_a_new_game_brings_its_own_board_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game the screen and the calibration have never heard of: its board file is
    found in its own package, described, corrected, saved and fed to its next setup."""
    from companion import registry
    from companion.board_check import BoardCheck, DataFile, Note, Stepper

    from . import board_game

    game = board_game.GAME
    monkeypatch.setitem(registry._extra, game.name, game)  # registered for this test only
    assert game.name in board_games() and files(game.name) == game.board_files
    check = open_check(game.name, 2, str(tmp_path))
    assert isinstance(check, BoardCheck) and check.origin == "shipped"
    assert check.describe() == ["Fences: 3."]
    (stepper,) = [c for c in check.controls() if isinstance(c, Stepper)]
    assert stepper.change(+1) == 4
    assert save_check(check, str(tmp_path))[0].name == "fences.toml"
    assert setup_options(game.name, 2, str(tmp_path)) == {"fences": {"count": 4}}
    again = open_check(game.name, 2, str(tmp_path))
    assert again.origin == "checked" and again.data["fences"]["count"] == 4
    stepper = next(c for c in again.controls() if isinstance(c, Stepper))
    stepper.change(-4)
    assert again.check_error() == "setup options.fences.count: expected 1 to 9 fences, got 0"
    # The base check alone: the facts in words, corrected in the files.
    plain = BoardCheck(game, 2)
    assert plain.describe() == ["fences: count: 3"] and isinstance(plain.controls()[0], Note)
    assert DataFile("x-{n}.toml", "x").file_for(3) == "x-3.toml"


def test_the_screen_and_the_calibration_name_no_game() -> None:
    """The board check's knowledge is the games': no game is named where it is drawn or saved."""
    from companion import registry

    root = Path(__file__).resolve().parents[2]
    for path in ("ui/screens/board_check.py", "ui/screens/board_check.kv", "calibration/board.py"):
        text = (root / path).read_text()
        for name in registry.BUILTIN:
            assert name not in text and name.replace("-", "_") not in text, f"{path} names {name}"
