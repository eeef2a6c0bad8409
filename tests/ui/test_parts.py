"""The app's plain-Python parts, without a window: log rows, score series,
preferences, the sensor hub and speech."""

from __future__ import annotations

import json
import queue
import shutil
from collections.abc import Callable

import pytest

from companion import testing
from companion.errors import ConfigError
from companion.events import CORRECTION, ROLL, Event, Source
from companion.session import Session
from hardware.sensor import Sensor, SensorStatus
from ui import history, prefs
from ui.app import parse_size
from ui.sensors import SensorHub, SensorSpec
from ui.speech import Speaker


def roll(face: int, source: Source = Source.TOUCH) -> Event:
    return Event(ROLL, {"die": "d6", "faces": [face]}, None, 1_700_000_000.0 + face, source)


@pytest.fixture
def session() -> Session:
    testing.register()
    return Session.new(None, "tally", {"players": ["Ann", "Bob"]})


def test_log_rows_follow_undo_and_redo(session):
    for f in (1, 2, 3):
        session.apply(roll(f))
    session.undo(2)
    session.redo(1)
    session.apply(Event(CORRECTION, {"points": {"Ann": 9}}))
    rows = history.log_rows(session)
    assert [r.op for r in rows] == ["apply", "apply", "apply", "undo", "undo", "redo", "apply"]
    # In effect: roll 1, the redone roll 2, the correction; roll 3 was dropped by the new event.
    assert [r.position for r in rows] == [0, None, None, None, None, 1, 2]
    assert rows[2].text == "rolled 3" and rows[5].text == "redo: rolled 2"
    assert rows[-1].correction and rows[-1].text == "correction: Ann 9"
    assert rows[0].source == "touch"


def test_score_series_replays_every_event(session):
    for f in (4, 5, 6):
        session.apply(roll(f, Source.CAMERA))
    assert history.score_series(session) == {"Ann": [0, 4, 4, 10], "Bob": [0, 0, 5, 5]}


def test_preferences_round_trip_and_survive_a_bad_file(tmp_path):
    p = prefs.Preferences(palette="colour-blind", speak=True, last_players=("Ann", "Bob"))
    p.save(tmp_path)
    assert prefs.Preferences.load(tmp_path) == p
    (tmp_path / prefs.PREFS_FILE).write_text("{not json")
    assert prefs.Preferences.load(tmp_path) == prefs.Preferences()
    prefs.set_open_game(tmp_path, 7)
    assert prefs.open_game(tmp_path) == 7 and json.loads((tmp_path / prefs.OPEN_FILE).read_text()) == {"session": 7}
    prefs.set_open_game(tmp_path, None)
    assert prefs.open_game(tmp_path) is None


def test_window_size_is_checked():
    assert parse_size("1280x720") == (1280, 720) and parse_size(None) == (800, 480)
    with pytest.raises(ConfigError, match="WIDTHxHEIGHT"):
        parse_size("big")


class Fake(Sensor):
    name = "fake"


def test_hub_reports_missing_and_unset_sensors_offline_with_reasons():
    def missing(_q):
        raise ModuleNotFoundError("No module named 'pyaudio'", name="pyaudio")

    def broken(_q):
        raise OSError("no such device /dev/video0")

    specs = (
        SensorSpec("microphone", missing, "whistles"),
        SensorSpec("camera", broken, "dice"),
        SensorSpec("buttons", lambda _q: None, "buttons"),
    )
    hub = SensorHub(specs)
    hub.open_all(background=False)
    events, changed = hub.drain()
    assert changed and not events
    reasons = {n: s.reason for n, s in hub.statuses.items()}
    assert reasons["microphone"] == "module pyaudio is not installed or not built yet"
    assert reasons["camera"] == "could not open: no such device /dev/video0"
    assert reasons["buttons"].startswith("no button profile")
    assert [s.sensor for s in hub.offline()] == ["microphone", "camera", "buttons"]


def test_hub_drains_in_bounded_batches_and_forwards_dice_requests():
    hub = SensorHub(specs=())
    fake = Fake(out=queue.Queue())
    asked = []
    fake.request = asked.append  # type: ignore[attr-defined]
    hub.add(fake)
    fake.set_status(True, "fake device")
    for f in range(1, 7):
        fake.emit(roll(f))
    events, changed = hub.drain(limit=4)
    assert changed and hub.statuses["fake"] == SensorStatus("fake", True, "fake device", hub.statuses["fake"].time)
    assert len(events) == 2  # two status items came first, then two of the six rolls
    assert len(hub.drain()[0]) == 4
    hub.request("d6 x 2")
    assert asked == ["d6 x 2"]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_speaker_speaks_through_espeak_and_stops():
    s = Speaker()
    assert s.available and "espeak" in s.reason
    assert s.say("Ann: roll the die.")
    assert s.last == "Ann: roll the die."
    s.stop()


def test_speaker_without_the_program_is_unavailable_and_silent():
    s = Speaker(program="no-such-speech-program-xyz")
    if shutil.which("espeak"):
        pytest.skip("the espeak fallback is installed")
    assert not s.available and s.reason == "espeak-ng is not installed"
    assert s.say("anything") is False


@pytest.mark.parametrize("game_name", ["shear-panic", "fleeced", "battle-sheep", "sheep-hop", "pendleton-hill"])
def test_every_game_is_playable_from_what_the_table_offers(game_name):
    """Random play using only the answers the Table would show: the prompt's
    choices (or the legal events, when few), the dice faces, and what the
    game's picture takes by touch.  The game must never leave the table
    with nothing to tap."""
    import random

    from companion import registry
    from ui import offers

    game = registry.get(game_name)
    rnd = random.Random(7)
    s = Session.new(None, game_name, {"players": [f"P{i}" for i in range(max(game.min_players, 2))]})
    handled = game.touch_events
    for _ in range(300):
        if s.outcome() is not None:
            break
        prompt = s.prompt()
        answers = [c.event() for c in prompt.choices or offers.legal_as_choices(s, prompt, handled)]
        answers += offers.picture_events(s)
        if prompt.dice is not None:
            faces = [rnd.choice(prompt.dice.faces) for _ in range(prompt.dice.count)]
            answers.append(Event(ROLL, {"die": prompt.dice.die, "faces": faces}))
        assert answers, f"nothing to tap at: {prompt.text} (expects {prompt.expects})"
        for event in rnd.sample(answers, min(len(answers), 20)):
            try:
                s.apply(event)
                break
            except ValueError:  # an offered answer the rules refuse here (e.g. a die face): try another
                continue
        else:
            pytest.fail(f"every offered answer was refused at: {prompt.text}")
    assert s.outcome() is not None or len(s.events) >= 250  # finished, or still going after a long game


def _wait(q: queue.Queue, want: Callable[[object], bool], timeout: float = 8.0) -> object:
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            item = q.get(timeout=0.1)
        except queue.Empty:
            continue
        if want(item):
            return item
    raise AssertionError("nothing came")


def test_the_package_rigs_run_the_real_sensors_over_fake_devices():
    from companion.game import DiceRequest
    from hardware.buttons import ButtonsSensor
    from hardware.dice.sensor import DiceSensor
    from hardware.testing.sensors import ButtonsRig, DiceRig, WhistleRig
    from hardware.whistle.sensor import WhistleSensor

    q: queue.Queue = queue.Queue()
    dice, whistle, buttons = DiceRig(q), WhistleRig(["Ann", "Bob"], q), ButtonsRig(out=q)
    assert (type(dice.sensor), type(whistle.sensor), type(buttons.sensor)) == (DiceSensor, WhistleSensor, ButtonsSensor)
    for rig in (dice, whistle, buttons):
        rig.sensor.start()
    try:
        dice.sensor.request(DiceRequest("d6", 2))
        dice.roll("d6", [6, 2], 0.4)
        e = _wait(q, lambda i: isinstance(i, Event) and i.type == ROLL)
        assert e.get("faces") == (6, 2) and e.source == Source.CAMERA and e.confidence == 0.4
        whistle.blow("Bob")
        e = _wait(q, lambda i: isinstance(i, Event) and i.type == "whistle")
        assert e.player == "Bob" and e.source == Source.MICROPHONE
        buttons.press("face5")
        e = _wait(q, lambda i: isinstance(i, Event) and i.type == ROLL and i.source == Source.GPIO)
        assert e.get("faces") == (5,)
    finally:
        for rig in (dice, whistle, buttons):
            rig.sensor.stop()


def test_roll_off_highest_first_ties_roll_again_seats_stay_clockwise():
    from ui.turn_order import RollOff, offers_roll, rule

    r = RollOff(["Ann", "Bob", "Cy", "Di"])
    assert r.prompt() == "Ann: roll a die for first player."
    for face in (4, 6, 6, 2):
        r.enter(face)
    assert r.message == "Bob and Cy tie on 6: they roll again." and r.contenders == [1, 2]
    assert r.prompt() == "Bob: roll a die for first player."
    r.enter(3)
    r.enter(5)
    assert r.winner == 2 and r.message == "Cy rolled 5 and goes first." and r.next is None
    assert r.order() == [2, 3, 0, 1]
    with pytest.raises(ValueError):
        RollOff(["Ann", "Bob"]).enter(7)
    assert not offers_roll("fleeced") and "two dice" in rule("fleeced")  # its engine rolls for first itself
    assert offers_roll("shear-panic") and "haircut" in rule("shear-panic")


def test_absent_devices_are_offline_without_importing_their_modules(tmp_path, monkeypatch):
    import glob
    import subprocess
    import sys

    from ui import sensors

    monkeypatch.setenv("BELLWETHER_CONFIG_DIR", str(tmp_path))
    for var in ("BELLWETHER_CAMERA_BACKEND", "BELLWETHER_AUDIO_BACKEND"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(glob, "glob", lambda pattern: [])
    assert "no camera found" in sensors.camera_absent()
    assert "no microphone found" in sensors.microphone_absent()
    monkeypatch.setenv("BELLWETHER_CAMERA_BACKEND", "fake")
    assert sensors.camera_absent() is None  # an explicit choice is always opened (and may fail with its reason)
    (tmp_path / "settings.toml").write_text('[microphone]\nbackend = "memory"\n')
    assert sensors.microphone_absent() is None
    monkeypatch.undo()
    # The app's own start-up path: with no devices, neither OpenCV nor numpy is loaded.
    code = (
        "import sys, os; from ui.sensors import SensorHub; h = SensorHub(); h.open_all(background=False);"
        "from ui.sensors import camera_absent, microphone_absent;"
        "print(bool(camera_absent()), bool(microphone_absent()), 'cv2' in sys.modules, 'numpy' in sys.modules)"
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("BELLWETHER_")}
    env["BELLWETHER_CONFIG_DIR"] = str(tmp_path / "empty")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout.split()
    cam_absent, mic_absent, cv2_loaded, numpy_loaded = (w == "True" for w in out)
    if cam_absent:
        assert not cv2_loaded
    if cam_absent and mic_absent:
        assert not numpy_loaded


def test_board_check_describes_corrects_validates_and_saves(tmp_path):
    import tomllib

    from calibration.board import board_note, open_check, save_check, setup_options

    cfg = str(tmp_path)
    for game, players, words in (
        ("shear-panic", 4, "Panic spaces"), ("pendleton-hill", 3, "Pasture 1a (tier 1) touches"),
        ("sheep-hop", 2, "The big wolf walks"), ("battle-sheep", 2, "Each pasture board is 4 hexagons"),
    ):
        check = open_check(game, players, cfg)
        assert any(words in line for line in check.describe()), check.describe()
        assert check.check_error() == ""
    assert board_note("shear-panic", 4, cfg)[1].startswith("Board: the shipped data")
    sp = open_check("shear-panic", 4, cfg)
    sp.toggle_panic(sp.data["track"]["panic"][0])  # not a panic space on this board
    assert sp.move("gates", "roger", 99) == sp.data["track"]["spaces"]  # kept on the track
    assert "gates" in sp.check_error() or "gate" in sp.check_error()  # the game refuses a gate in the wrong field
    sp.move("gates", "roger", -99)
    sp.reset()
    sp.toggle_panic(2)
    sp.tile_time(11, +2)
    save_check(sp, cfg)
    options = setup_options("shear-panic", 4, cfg)
    assert 2 in options["track"]["panic"] and options["tiles"]["tile"][11]["time"] == sp.data["tiles"]["tile"][11]["time"]
    assert "checked against the table's own board" in (tmp_path / "boards" / "shear-panic" / "tiles.toml").read_text()
    assert board_note("shear-panic", 4, cfg)[1].startswith("Board: as checked")
    again = open_check("shear-panic", 4, cfg)
    assert again.origin == "checked" and 2 in again.data["track"]["panic"]
    (tmp_path / "boards" / "shear-panic" / "track-4.toml").write_text("spaces = 'x'\n")
    options, note, bad = board_note("shear-panic", 4, cfg)
    assert bad and options == {} and note.startswith("Board check: track-4.toml: ") and str(tmp_path) not in note
    tomllib.loads((tmp_path / "boards" / "shear-panic" / "flock.toml").read_text())  # each saved file is TOML


def test_the_depth_and_stencil_free_visual_is_named_only_on_x11_and_never_over_the_users(display):
    from ui import gl_visual

    assert gl_visual.choose({}) is None  # no X display
    assert gl_visual.choose({"DISPLAY": display, "SDL_VIDEODRIVER": "wayland"}) is None
    assert gl_visual.choose({"DISPLAY": display, "KIVY_GL_BACKEND": "mock"}) is None
    mine = {"DISPLAY": display, gl_visual.HINT: "33"}
    assert gl_visual.choose(mine) is None and mine[gl_visual.HINT] == "33"
    env = {"DISPLAY": display}
    visual = gl_visual.choose(env)  # the test X server (Xvfb with Mesa) offers such a visual
    assert visual and env[gl_visual.HINT] == str(visual)


def test_llvmpipe_draws_in_one_thread_unless_the_user_says_otherwise():
    from ui import llvmpipe

    env: dict[str, str] = {}
    llvmpipe.configure(env)
    assert env == {llvmpipe.THREADS: "0"}
    mine = {llvmpipe.THREADS: "4"}
    llvmpipe.configure(mine)
    assert mine == {llvmpipe.THREADS: "4"}
    off = {llvmpipe.SWITCH: "0"}
    llvmpipe.configure(off)
    assert llvmpipe.THREADS not in off


def test_what_a_picture_takes_by_touch_is_the_games_own_word():
    """A new game brings its ``touch_events`` in its package: the Table's offers
    (``ui/offers.py``, ``ui/screens/table.py``) name no game."""
    from pathlib import Path

    from companion import registry
    from ui import offers

    root = Path(offers.__file__).parent
    shared = (root / "offers.py").read_text() + (root / "screens" / "table.py").read_text()
    assert not [n for n in registry.names() if n in shared or n.replace("-", "_") in shared]
    assert registry.get("shear-panic").touch_events == {"action", "lamb-push"}
    assert registry.get("fleeced").touch_events == frozenset()  # its picture takes no answer by touch
    s = Session.new(None, "battle-sheep", {"players": ["A", "B"]})
    assert offers.picture_events(s) and {e.type for e in offers.picture_events(s)} <= s.game.touch_events


def test_a_roll_in_the_log_is_said_in_words_not_codes():
    from companion.events import ROLL, Event

    assert history.describe(Event(ROLL, {"die": "d6", "faces": [3, 4]}, player="Dad")) == "Dad rolled 3 and 4"
    assert history.describe(Event(ROLL, {"die": "panic", "faces": ["red"]})) == "rolled the panic die: red"


def test_a_whistle_doubt_is_asked_about_only_near_the_roll_and_for_the_roller():
    from ui.boards.fleeced import DOUBT_BEFORE_S, doubt_question

    check = {"roll_time": 1000.0, "deadline": 1001.5, "since": 950.0}

    def doubt(t: float, blower: str | None = None) -> Event:
        return Event("whistle-doubt", {"peak_hz": 2900.0, "onset": t - 0.2, "blower": blower}, None, t, Source.MICROPHONE)

    assert doubt_question(check, None, "Ann") == ""
    assert "(0.3 s before the roll)" in doubt_question(check, doubt(999.7), "Ann")
    assert "(1.2 s after the roll)" in doubt_question(check, doubt(1001.2), "Ann")  # within the margin
    assert doubt_question(check, doubt(1001.6), "Ann") == ""  # after the deadline: not this roll's whistle
    assert doubt_question(check, doubt(1000.0 - DOUBT_BEFORE_S - 0.1), "Ann") == ""  # long before the throw
    assert doubt_question({**check, "since": 999.9}, doubt(999.7), "Ann") == ""  # before the previous roll
    assert "may have heard Ann's whistle" in doubt_question(check, doubt(999.7, "Ann"), "Ann")
    assert doubt_question(check, doubt(999.7, "Bob"), "Ann") == ""  # Bob's whistle is not the one Ann's roll needed
