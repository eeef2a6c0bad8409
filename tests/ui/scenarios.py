"""The scenarios ``tests.ui.driver`` can run; each fills ``ctx.result``.

They act only as a person would (touches, keys) or as a sensor would (the
fake sensors' queue); what they record is read back from widgets and the
session.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from .driver import Ctx

Scenario = Callable[[Ctx], Iterator[float]]
SCENARIOS: dict[str, Scenario] = {}


def scenario(real_sensors: bool = False, whistlers: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> Callable[[Scenario], Scenario]:
    """``real_sensors``: the app opens its own devices (none here); otherwise the
    real sensor classes run over fake devices, the microphone calibrated for
    ``whistlers`` (one whistle pitch each)."""

    def add(f: Scenario) -> Scenario:
        f.real_sensors = real_sensors  # type: ignore[attr-defined]
        f.whistlers = whistlers  # type: ignore[attr-defined]
        SCENARIOS[f.__name__] = f
        return f

    return add


def load_all() -> None:
    """Import every ``tests/ui/scenarios_*.py`` module (one per area, so helpers
    working in parallel add scenarios without touching the same file)."""
    import importlib
    from pathlib import Path

    for path in sorted(Path(__file__).parent.glob("scenarios_*.py")):
        importlib.import_module(f"{__package__}.{path.stem}")


def wait_for(cond: Callable[[], bool], timeout: float = 8.0) -> Iterator[float]:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the app")
        yield 0.1


def table_facts(ctx: Ctx) -> dict[str, Any]:
    ids = ctx.app.root.get_screen("table").ids
    return {
        "prompt": ids.prompt.text,
        "rule": ids.rule.text,
        "dice": ids.dice.text,
        "whistle": ids.whistle.text,
        "alert": ids.alert.text,
        "message": ctx.app.message,
        "entry_heading": ids.entry_heading.text,
        "entry_buttons": [b.text for b in ctx.buttons(ids.entry)],
    }


@scenario(real_sensors=True)
def startup(ctx: Ctx) -> Iterator[float]:
    """No devices at all: the picker shows, and every sensor is reported offline with a reason."""
    app = ctx.app
    from kivy.core.window import Window

    yield from wait_for(lambda: all(s.reason != "starting" for s in app.hub.statuses.values()), 20)
    yield 0.3
    ctx.result["window"] = list(Window.size)
    ctx.result["screen"] = app.root.current
    ctx.result["games"] = [(b.text, b.disabled) for b in ctx.buttons(ctx.screen.ids.games)]
    ctx.result["summary"] = app.sensor_summary
    ctx.result["statuses"] = {n: [s.online, s.reason] for n, s in app.hub.statuses.items()}
    ctx.result["home_texts"] = ctx.texts()
    import os

    from kivy.graphics import opengl as gl

    from ui import llvmpipe

    # Xvfb's OpenGL is Mesa's llvmpipe: texts are flushed one by one, rasterized in this thread.
    ctx.result["renderer"] = (gl.glGetString(gl.GL_RENDERER) or b"").decode()
    ctx.result["flush_texts"] = llvmpipe.enabled()
    ctx.result["lp_threads"] = os.environ.get(llvmpipe.THREADS)
    ctx.shot("startup-home")
    yield from ctx.tap_text("Settings")
    ctx.result["settings_texts"] = ctx.texts()
    ctx.shot("startup-settings")


def start_fleeced(ctx: Ctx) -> Iterator[float]:
    """Home → Fleeced! → Setup: Ann and Bob (Bob taking the next free character, by touch) → Start."""
    yield from ctx.tap_text("Fleeced!")
    setup = ctx.screen
    for row, name in zip(setup.rows, ("Ann", "Bob"), strict=False):
        row.name_input.text = name
    yield from ctx.tap(setup.rows[1].pick)
    yield from ctx.tap_text("Start game")
    assert ctx.app.root.current == "table", setup.ids.error.text


def start_tally(ctx: Ctx, players: int = 2) -> Iterator[float]:
    """Home → Tally → Setup (names typed) → Start, all by touch."""
    yield from ctx.tap_text("Tally")
    assert ctx.app.root.current == "setup", ctx.app.root.current
    setup = ctx.screen
    while setup.count < players:
        yield from ctx.tap_text("More")
    for row, name in zip(setup.rows, ("Ann", "Bob", "Cy", "Di", "Ed", "Flo"), strict=False):
        row.name_input.text = name  # typing on a touchscreen keyboard ends in this property
    yield 0.1
    yield from ctx.tap_text("Start game")
    assert ctx.app.root.current == "table", (ctx.app.root.current, setup.ids.error.text)


@scenario()
def tally_turn(ctx: Ctx) -> Iterator[float]:
    """A round of Tally by touch, camera, keyboard; a refused whistle; Ctrl+Z."""
    app = ctx.app
    yield from start_tally(ctx)
    ctx.result["start"] = table_facts(ctx)
    entry = ctx.app.root.get_screen("table").ids.entry
    yield from ctx.tap(ctx.button("4", entry))  # Ann rolls 4 on screen
    ctx.result["after_touch"] = table_facts(ctx)
    ctx.rigs["dice"].roll("d6", [5], 0.93)  # Bob's roll read by the camera
    yield from wait_for(lambda: len(app.session.events) == 2)
    yield 0.2
    ctx.result["after_camera"] = table_facts(ctx)
    ctx.rigs["dice"].roll("d6", [2], 0.31)  # a doubtful reading must be confirmed
    yield from wait_for(lambda: app.pending_roll is not None)
    yield 0.3
    ctx.result["doubtful"] = table_facts(ctx) | {"events": len(app.session.events)}
    yield from ctx.tap(ctx.button("As read", entry))
    ctx.result["confirmed"] = table_facts(ctx) | {"events": len(app.session.events)}
    yield from ctx.key(51, "3")  # number key 3: Bob rolls 3
    ctx.result["after_key"] = table_facts(ctx) | {"events": len(app.session.events)}
    yield from ctx.key(32, " ")  # space: a whistle, which Tally refuses
    ctx.result["after_space"] = table_facts(ctx) | {"events": len(app.session.events)}
    yield from ctx.key(122, "z", ("ctrl",))
    ctx.result["after_undo"] = table_facts(ctx) | {"events": len(app.session.events)}
    yield from ctx.tap_text("Correct")
    yield from ctx.tap(ctx.button("6", entry))  # the die really showed 6
    ctx.result["after_correct"] = table_facts(ctx) | {"events": len(app.session.events)}
    ctx.result["session"] = app.session.to_json()
    ctx.result["sources"] = [e.source.value for e in app.session.events]
    ctx.shot("tally-turn")


@scenario()
def miscounted_roll(ctx: Ctx) -> Iterator[float]:
    """Fleeced!'s first rolls, two dice each, read wrong in count by the camera.  Ann's second die hides under the
    rim (one read): the check asks for two faces, the one read already entered, and offers no "As read" the game
    would refuse; one tap answers.
    Bob's roll is read as three dice (a side face, read less surely): the sensor keeps the likelier two, and one
    tap ("As read") accepts them."""
    app = ctx.app
    yield from start_fleeced(ctx)
    entry = app.root.get_screen("table").ids.entry
    dice = ctx.rigs["dice"]
    dice.roll("d6", [6])
    yield from wait_for(lambda: app.pending_roll is not None)
    yield 0.3
    ctx.result["hidden"] = table_facts(ctx) | {"events": len(app.session.events)}
    ctx.shot("hidden-die")
    yield from ctx.tap(ctx.button("5", entry))  # the 6 read stands; the hidden die showed 5
    yield 0.2
    ctx.result["hidden_answered"] = table_facts(ctx) | {"events": len(app.session.events)}
    dice.roll("d6", [2, 4, 1], [0.9, 0.35, 0.95])
    yield from wait_for(lambda: app.pending_roll is not None)
    yield 0.3
    ctx.result["extra"] = table_facts(ctx) | {"events": len(app.session.events)}
    ctx.result["extra_faces"] = list(app.pending_roll.get("faces", ()))
    ctx.shot("extra-die")
    yield from ctx.tap(ctx.button("As read", entry))
    yield 0.3
    ctx.result["extra_answered"] = table_facts(ctx) | {"events": len(app.session.events)}
    ctx.result["rolls"] = [list(e.payload["faces"]) for e in app.session.events]
    ctx.result["sources"] = [e.source.value for e in app.session.events]


@scenario()
def small_dice(ctx: Ctx) -> Iterator[float]:
    """A camera mounted too high: Fleeced!'s first roll lies 15 px across in its frames. The roll is taken as read, and
    the Table's message line says what to change; a roll of dice large enough is taken without it."""
    app = ctx.app
    yield from start_fleeced(ctx)
    dice = ctx.rigs["dice"]
    dice.roll("d6", [6, 5], side=15)
    yield from wait_for(lambda: len(app.session.events) == 1 and app.message.startswith("Camera:"))
    yield 0.3
    ctx.result["small"] = table_facts(ctx)
    ctx.result["small_problems"] = ctx.check("camera-small-dice")
    yield from ctx.tap_text("Settings")
    yield 0.3
    ctx.result["settings_texts"] = ctx.texts()
    ctx.result["settings_problems"] = ctx.check("settings-small-dice")
    yield from ctx.tap_text("Back")
    yield 0.3
    dice.roll("d6", [2, 1])
    yield from wait_for(lambda: len(app.session.events) == 2)
    yield 0.5
    ctx.result["large"] = table_facts(ctx)
    ctx.result["rolls"] = [list(e.payload["faces"]) for e in app.session.events]
    ctx.result["camera"] = app.hub.statuses["camera"].reason


@scenario()
def gpio_buttons(ctx: Ctx) -> Iterator[float]:
    """The GPIO buttons (real ButtonsSensor on gpiozero's MockFactory): a face
    button rolls, confirm accepts a doubtful camera reading, undo undoes."""
    app = ctx.app
    buttons = ctx.rigs["buttons"]
    yield from start_tally(ctx)
    buttons.press("face4")
    yield from wait_for(lambda: len(app.session.events) == 1)
    ctx.rigs["dice"].roll("d6", [2], 0.31)  # doubtful: waits for the table
    yield from wait_for(lambda: app.pending_roll is not None)
    ctx.result["pending_events"] = len(app.session.events)
    buttons.press("confirm")
    yield from wait_for(lambda: len(app.session.events) == 2)
    ctx.result["after_confirm"] = app.session.to_json()
    ctx.result["sources"] = [e.source.value for e in app.session.events]
    buttons.press("undo")
    yield from wait_for(lambda: len(app.session.events) == 1)
    yield 0.2
    ctx.result["after_undo"] = app.session.to_json()
    ctx.result["can_redo"] = app.session.can_redo
    ctx.result["message"] = app.message


@scenario()
def log_undo(ctx: Ctx) -> Iterator[float]:
    """Four rolls, then the Log: tap the second roll to undo back to it."""
    app = ctx.app
    yield from start_tally(ctx)
    entry = app.root.get_screen("table").ids.entry
    for face in ("1", "2", "3", "4"):
        yield from ctx.tap(ctx.button(face, entry))
    ctx.result["before"] = app.session.to_json()
    yield from ctx.tap_text("Log")
    assert app.root.current == "log"
    rows = [b for b in ctx.buttons(ctx.screen.ids.rows) if "rolled 2" in b.text]
    yield from ctx.tap(rows[0])
    ctx.result["asked"] = ctx.screen.ids.confirm_text.text
    ctx.result["events_while_asked"] = len(app.session.events)  # nothing undone before Yes
    yield from ctx.tap_text("Yes, undo")
    ctx.result["after"] = app.session.to_json()
    ctx.result["log_texts"] = [b.text for b in ctx.buttons(ctx.screen.ids.rows)]
    yield from ctx.tap_text("Back to the table")
    ctx.result["screen"] = app.root.current
    ctx.result["table"] = table_facts(ctx)


@scenario()
def resume_play(ctx: Ctx) -> Iterator[float]:
    """Start a game and play three rolls; then stay running to be killed."""
    app = ctx.app
    yield from start_tally(ctx, players=3)
    entry = app.root.get_screen("table").ids.entry
    for face in ("6", "2", "5"):
        yield from ctx.tap(ctx.button(face, entry))
    yield from ctx.key(122, "z", ("ctrl",))  # the undo stack must survive too
    ctx.result["session"] = app.session.to_json()
    ctx.result["table"] = table_facts(ctx)
    ctx.result["can_redo"] = app.session.can_redo


@scenario()
def resume_check(ctx: Ctx) -> Iterator[float]:
    """After a kill: the app reopens on its own at the game that was on the table."""
    app = ctx.app
    ctx.result["screen"] = app.root.current
    ctx.result["session"] = app.session.to_json() if app.session else None
    ctx.result["table"] = table_facts(ctx) if app.session else None
    ctx.result["can_redo"] = bool(app.session and app.session.can_redo)
    if app.session is not None:
        yield from ctx.tap_text("Redo")
        ctx.result["after_redo"] = app.session.to_json()


def _visit(ctx: Ctx, name: str) -> Iterator[float]:
    from .touch_check import settle

    ctx.app.go(name)
    yield 0.6  # the throttled redraw, then a frame of layout, on a loaded machine
    yield from settle(ctx)  # and on a very loaded one, until the buttons stay put
    ctx.result["problems"][name] = ctx.check(name)
    ctx.result["texts"][name] = ctx.texts()


@scenario(whistlers=("Annabelle", "Cy"))
def screens(ctx: Ctx) -> Iterator[float]:
    """Every screen with busy content, checked for clipped or overlapping text."""
    app = ctx.app
    ctx.result["problems"] = {}
    ctx.result["texts"] = {}
    from ui import theme

    ctx.result["touch_px"] = theme.touch_size()
    # A finished game, so Home lists a result and Results has a chart.
    names = ["Annabelle", "Bartholomew", "Cy", "Dorothea", "Ed", "Florentyna"]
    app.new_game("tally", {"players": [{"name": n} for n in names], "options": {"target": 12}})
    from companion.events import ROLL, Event, Source

    for face in (6, 5, 4, 3, 2, 1, 6, 6, 5, 2, 3, 1):
        if app.session.outcome() is None:
            app.submit(Event(ROLL, {"die": "d6", "faces": [face]}, None, time.time(), Source.TOUCH))
    yield 0.3
    yield from _visit(ctx, "results")
    # A game in play, with a refusal message and a camera reading on show.
    app.new_game("tally", {"players": [{"name": n} for n in names[:4]]})
    ctx.rigs["dice"].roll("d6", [4], 0.88)
    yield from wait_for(lambda: len(app.session.events) == 1)
    ctx.rigs["whistle"].blow("Annabelle")
    yield from wait_for(lambda: app.last_whistle is not None or "whistle" in app.message.lower())
    yield 0.3
    yield from _visit(ctx, "table")
    ctx.result["problems"]["tally-table"] = ctx.result["problems"].pop("table")
    yield from _visit(ctx, "log")
    yield from _visit(ctx, "settings")
    # Fleeced! with six players and a ruling on show: the busiest table.
    app.new_game("fleeced", {"players": [{"name": n} for n in names]})
    for i, faces in enumerate(([6, 6], [5, 4], [3, 3], [2, 2], [1, 2], [1, 1])):
        app.submit(Event(ROLL, {"die": "d6", "faces": faces}, None, time.time() + i, Source.CAMERA, 0.9))
    app.submit(Event(ROLL, {"die": "d6", "faces": [3]}, None, time.time() + 7, Source.CAMERA, 0.9))
    before = len(app.session.events)
    ctx.rigs["whistle"].blow("Cy")
    yield from wait_for(lambda: len(app.session.events) > before)
    yield 0.3
    yield from _visit(ctx, "table")
    ctx.result["fleeced_alert"] = app.root.get_screen("table").ids.alert.text
    ctx.result["problems"]["fleeced-table"] = ctx.result["problems"].pop("table")
    # Shear Panic, four players, past the truck start: track, twin and tiles.
    app.new_game("shear-panic", {"players": [{"name": n} for n in names[:4]]})
    while app.session.to_json()["state"]["stage"] == "truck":
        app.submit(app.session.game.legal_actions(app.session.state)[0])
    yield 0.3
    yield from _visit(ctx, "table")
    app.close_session()
    yield 0.2
    yield from _visit(ctx, "home")
    app.root.get_screen("setup").prepare("tally")
    setup = app.root.get_screen("setup")
    while setup.count < 6:
        setup.change_count(+1)
    yield from _visit(ctx, "setup")


@scenario(whistlers=("Ann", "Bob"))
def fleeced_turn(ctx: Ctx) -> Iterator[float]:
    """A short Fleeced! turn: set up by touch, dice from the fake camera, a whistle
    out of turn from the fake microphone, the ruling shown large, the turn ended by touch."""
    app = ctx.app
    yield from start_fleeced(ctx)
    ctx.result["characters"] = [r.pick.text for r in app.root.get_screen("setup").rows]
    ctx.result["first"] = table_facts(ctx)
    dice, whistle = ctx.rigs["dice"], ctx.rigs["whistle"]
    dice.roll("d6", [6, 5])
    yield from wait_for(lambda: len(app.session.events) == 1)
    dice.roll("d6", [2, 1])
    yield from wait_for(lambda: len(app.session.events) == 2)
    yield 0.3
    ctx.result["order"] = table_facts(ctx)
    dice.roll("d6", [4])
    yield from wait_for(lambda: len(app.session.events) == 3)
    whistle.blow("Bob")
    yield from wait_for(lambda: len(app.session.events) == 4)
    yield 0.3
    ctx.result["ruling"] = table_facts(ctx)
    ctx.result["ruling_problems"] = ctx.check("fleeced-ruling")
    board = app.root.get_screen("table").board
    ctx.result["board"] = {k: board.ids[k].text for k in ("flocks",)}
    yield from ctx.tap_text("Ended on a plain square")
    yield from ctx.tap_text("End the turn")
    ctx.result["end"] = table_facts(ctx)
    ctx.result["state"] = app.session.to_json()
    ctx.result["sources"] = [e.source.value for e in app.session.events]


def _state_before(app: Any) -> Any:
    """The state before the last event, to check the twin against the engine."""
    game, s = app.session.game, app.session
    state = game.initial_state(s.setup)
    for e in s.events[:-1]:
        state = game.apply(state, e)
    return state


@scenario()
def boards(ctx: Ctx) -> Iterator[float]:
    """Battle Sheep, Sheep Hop! and Pendleton Hill tables part-way through,
    checked for layout; each must show its own board, not the generic one."""
    app = ctx.app
    ctx.result["problems"] = {}
    ctx.result["boards"] = {}
    ctx.result["texts"] = {}
    plans = {
        "battle-sheep": (["Ann", "Bob"], 10),
        "sheep-hop": (["Ann", "Bob"], 2),
        "pendleton-hill": (["Ann", "Bob", "Cy"], 6),
    }
    for game, (names, steps) in plans.items():
        app.new_game(game, {"players": [{"name": n} for n in names]})
        for _ in range(steps):  # the first legal answer each time, as the table might give
            legal = app.session.game.legal_actions(app.session.state)
            if not legal:
                break
            app.submit(legal[0])
        yield 0.3
        app.go("table")
        yield 0.6
        ctx.result["boards"][game] = type(app.root.get_screen("table").board).__name__
        ctx.result["problems"][game] = ctx.check(f"table-{game}")
        ctx.result["texts"][game] = ctx.texts()
        ctx.result.setdefault("events", {})[game] = len(app.session.events)


@scenario()
def settings_touch(ctx: Ctx) -> Iterator[float]:
    """The colour-blind palette and spoken prompts, switched on by touch."""
    app = ctx.app
    from ui import prefs, theme

    app.new_game("tally", {"players": [{"name": "Ann"}, {"name": "Bob"}]})
    yield 0.4
    ctx.result["mark_before"] = list(app.root.get_screen("table").ids.who_mark.rgba)
    yield from ctx.tap_text("Settings")
    yield from ctx.tap_text("Colour-blind colours")
    yield from ctx.tap_text("Spoken prompts: off")
    ctx.result["palette"] = app.palette
    ctx.result["speak"] = app.speak
    ctx.result["saved"] = vars(prefs.Preferences.load(app.options.data_dir))
    ctx.result["swatch_texts"] = [t for t in ctx.texts() if t in {s.name for s in theme.PALETTES["colour-blind"]}]
    ctx.shot("settings-colour-blind")
    yield from ctx.tap_text("Back")
    yield 0.3
    ctx.result["screen"] = app.root.current
    ctx.result["mark_after"] = list(app.root.get_screen("table").ids.who_mark.rgba)
    ctx.result["expected_mark"] = list(theme.swatch("colour-blind", 0).rgba)
    ctx.result["spoken"] = app.speaker.last
    ctx.result["prompt"] = app.session.prompt().text
    app.speaker.stop()


@scenario()
def faulty_engine(ctx: Ctx) -> Iterator[float]:
    """An engine that crashes (not a refusal) and a state it cannot describe:
    the app shows both and stays playable."""
    from companion import registry
    from companion.testing import Tally

    class Faulty(Tally):
        name = "faulty"
        title = "Faulty"

        def apply(self, state, event):
            if event.get("faces") == (6,):
                raise ZeroDivisionError("a bug in the engine")
            return super().apply(state, event)

        def state_json(self, state):
            raise KeyError("points")

    registry.register(Faulty())
    app = ctx.app
    app.new_game("faulty", {"players": [{"name": "Ann"}, {"name": "Bob"}]})
    yield 0.5
    table = app.root.get_screen("table")
    yield from ctx.tap(ctx.button("6", table.ids.entry))
    ctx.result["after_crash"] = {"message": app.message, "events": len(app.session.events), "screen": app.root.current}
    yield from ctx.tap(ctx.button("3", table.ids.entry))
    ctx.result["after_good"] = {"prompt": table.ids.prompt.text, "events": len(app.session.events)}
    ctx.result["board_texts"] = [w.text for w in table.ids.board_holder.children if hasattr(w, "text")]


@scenario()
def play_and_leave(ctx: Ctx) -> Iterator[float]:
    """Two rolls, then Home: the game is kept but no longer reopened by itself."""
    app = ctx.app
    yield from start_tally(ctx)
    entry = app.root.get_screen("table").ids.entry
    for face in ("2", "5"):
        yield from ctx.tap(ctx.button(face, entry))
    ctx.result["session"] = app.session.to_json()
    ctx.result["id"] = app.session.id
    yield from ctx.tap_text("Home")
    ctx.result["screen"] = app.root.current


@scenario()
def observe(ctx: Ctx) -> Iterator[float]:
    """Only look: which screen the app opened on, and what it shows."""
    app = ctx.app
    yield 0.3
    ctx.result["screen"] = app.root.current
    ctx.result["texts"] = ctx.texts()
    ctx.result["session"] = app.session.to_json() if app.session else None
    if app.root.current == "setup":
        rows = ctx.screen.rows
        ctx.result["setup"] = {
            "title": ctx.screen.ids.title.text,
            "picks": [r.pick.text for r in rows],
            "names": [r.name_input.text for r in rows],
        }


def _tap_scrolled(ctx: Ctx, widget: Any) -> Iterator[float]:
    """Scroll the widget's ScrollView to it (as a finger would), then touch it."""
    from kivy.uix.scrollview import ScrollView

    node = widget.parent
    while node is not None and not isinstance(node, ScrollView):
        node = node.parent
    if node is not None:
        node.scroll_to(widget, padding=10, animate=False)
        yield 0.2
    yield from ctx.tap(widget)


def _step_button(ctx: Ctx, key: str) -> Any:
    return next(b for b in ctx.buttons() if getattr(b, "step_key", None) == key)


@scenario()
def board_check(ctx: Ctx) -> Iterator[float]:
    """Shear Panic's and Pendleton Hill's board checked and corrected by touch,
    saved, then used by the next new game."""
    app = ctx.app
    yield from ctx.tap_text("Shear Panic")
    setup = ctx.screen
    ctx.result["note_before"] = setup.ids.board_note.text
    yield from ctx.tap_text("Fewer")  # three players: the 56-space track
    yield from ctx.tap_text("Check the board")
    assert app.root.current == "board_check", app.root.current
    check = ctx.screen
    ctx.result["sp_words"] = [t for t in ctx.texts() if t]
    ctx.result["problems"] = {"shear-panic": ctx.check("board-check-shear-panic")}
    yield from _tap_scrolled(ctx, check.toggles["panic"][5])  # space 5 is a panic space on our board
    yield from _tap_scrolled(ctx, check.toggles["panic"][4])  # ... and 4 is not
    yield from _tap_scrolled(ctx, _step_button(ctx, "gates.roger+"))  # Roger's gate one space later
    yield from _tap_scrolled(ctx, _step_button(ctx, "pictures.shearer-"))
    yield from _tap_scrolled(ctx, _step_button(ctx, "tile.0+"))  # the first tile is worth 2
    ctx.result["status_changed"] = check.ids.status.text
    yield from ctx.tap_text("Save the board")
    ctx.result["status_saved"] = check.ids.status.text
    ctx.result["sp_words_after"] = [t for t in ctx.texts() if t]
    yield from ctx.tap_text("Back")
    ctx.result["note_after"] = ctx.app.root.get_screen("setup").ids.board_note.text
    for row, name in zip(setup.rows, ("Ann", "Bob", "Cy"), strict=False):
        row.name_input.text = name
    yield from ctx.tap_text("Start game")
    assert app.root.current == "table", setup.ids.error.text
    options = app.session.setup["options"]
    ctx.result["game_track"] = options["track"]
    ctx.result["game_tile0"] = options["tiles"]["tile"][0]
    # Pendleton Hill: which pastures touch.
    yield from ctx.tap_text("Home")
    yield from ctx.tap_text("Sheepdogs of Pendleton Hill")
    yield from ctx.tap_text("Check the board")
    check = ctx.screen
    ctx.result["ph_words"] = [t for t in ctx.texts() if t]
    ctx.result["problems"]["pendleton-hill"] = ctx.check("board-check-pendleton-hill")
    yield from _tap_scrolled(ctx, ctx.button("1a"))
    yield from _tap_scrolled(ctx, check.toggles["touches"]["1c"])  # 1a touches 1c on this board
    yield from _tap_scrolled(ctx, check.toggles["touches"]["1b"])  # ... and not 1b
    yield from _tap_scrolled(ctx, check.toggles["touches"]["4a"])  # a wrong touch: two tiers apart
    ctx.result["ph_invalid"] = check.ids.status.text
    yield from ctx.tap_text("Save the board")
    ctx.result["ph_refused"] = check.ids.status.text
    yield from _tap_scrolled(ctx, check.toggles["touches"]["4a"])
    yield from ctx.tap_text("Save the board")
    ctx.result["ph_saved"] = check.ids.status.text
    ctx.result["ph_words_after"] = [t for t in ctx.texts() if t]
    yield from ctx.tap_text("Back")
    ctx.result["ph_note"] = app.root.get_screen("setup").ids.board_note.text


@scenario()
def board_bad(ctx: Ctx) -> Iterator[float]:
    """A checked board that no longer validates: its one-line error, then the shipped data."""
    app = ctx.app
    yield from ctx.tap_text("Shear Panic")
    setup = ctx.screen
    yield from ctx.tap_text("Fewer")
    ctx.result["note"] = setup.ids.board_note.text
    ctx.result["problems"] = ctx.check("setup-bad-board")
    yield from ctx.tap_text("Start game")
    ctx.result["refused"] = {"screen": app.root.current, "error": setup.ids.error.text}
    yield from ctx.tap_text("Use the shipped board")
    ctx.result["note_shipped"] = setup.ids.board_note.text
    yield from ctx.tap_text("Start game")
    assert app.root.current == "table", setup.ids.error.text
    ctx.result["game_track"] = app.session.setup["options"].get("track")


def _until_line(ctx: Ctx, wizard: Any, text: str, timeout: float = 20.0) -> Iterator[float]:
    yield from wait_for(lambda: any(text in line for line in wizard.lines) or wizard.state == "failed", timeout)
    assert wizard.state != "failed", wizard.error


@scenario(whistlers=())
def calibrate(ctx: Ctx) -> Iterator[float]:
    """Settings → Calibrate: the live level and spectrum, the whistle wizard with
    blows from the fake microphone, the camera preview with tray and colour
    sampling, and the button test, all by touch."""
    import numpy as np

    from hardware.testing.dice_render import empty_tray, render

    app = ctx.app
    mic, cam, buttons = ctx.rigs["whistle"], ctx.rigs["dice"], ctx.rigs["buttons"]
    app.new_game("tally", {"players": [{"name": "Ann"}, {"name": "Bob"}]})
    yield 0.3
    yield from ctx.tap_text("Settings")
    yield from ctx.tap_text("Calibrate")
    screen = ctx.screen
    ctx.result["problems"] = {}
    # The live level and spectrum.
    mic.microphone.set_hum(-20.0)
    yield from wait_for(lambda: screen.level_text.text == "Level -20 dBFS")
    ctx.result["level_text"] = screen.level_text.text
    ctx.result["meter"] = screen.meter.level
    mic.blow(freq=3000.0, duration=1.5)
    yield from wait_for(lambda: abs(screen.spectrum.peak_hz() - 3000) < 200 and "near 3" in screen.band_text.text)
    ctx.result["band_text"] = screen.band_text.text
    ctx.result["problems"]["microphone"] = ctx.check("calibrate-microphone")
    mic.microphone.set_hum(-90.0)
    yield 1.5
    # The whistle wizard: the quiet room, then three blows each.
    yield from ctx.tap_text("Calibrate whistles")
    wizard = screen.whistles
    for name, hz in (("Ann", 2000.0), ("Bob", 3300.0)):
        yield from _until_line(ctx, wizard, f"{name}: blow now")
        yield 0.7  # as a person would: read it, then blow
        for _ in range(3):
            mic.blow(freq=hz, duration=0.45)
            yield 1.0
    for name, hz in (("Ann", 2000.0), ("Bob", 3300.0)):  # the check: one fresh blow each
        yield from _blow_when_asked(ctx, wizard, mic, f"{name}, blow once more to check", hz)
    yield from wait_for(lambda: wizard.state in ("done", "failed"), 20)
    ctx.result["wizard"] = {"state": wizard.state, "error": wizard.error, "bars": wizard.bars, "progress": screen.progress.text,
                            "status": screen.ids.status.text, "saved": str(wizard.saved)}
    ctx.shot("calibrate-whistles")
    mic.blow(freq=3300.0)  # Bob's whistle, now known to the running microphone: a try, not a game move
    yield from wait_for(lambda: app.heard_while_calibrating is not None)
    yield 0.5
    ctx.result["heard"] = app.heard_while_calibrating.player
    ctx.result["heard_status"] = screen.ids.status.text
    # The camera: preview, the tray by dragging, the regroup die's two faces.
    yield from ctx.tap_text("Camera")
    rng = np.random.default_rng(4)
    cam.camera.show_frame(empty_tray(rng))
    yield from wait_for(lambda: screen.preview_widget.frame_size == (640, 480))  # not the rig's first, smaller frame
    yield 0.4  # the layout settles
    from kivy.tests.common import UnitTestTouch

    pw = screen.preview_widget
    scale, ox, oy = pw._fit()
    a = pw.to_window(ox + 20 * scale, oy + 460 * scale)
    b = pw.to_window(ox + 620 * scale, oy + 20 * scale)
    touch = UnitTestTouch(*a)
    touch.touch_down()
    yield 0.05
    touch.touch_move(*b)
    touch.touch_up()
    yield 0.3
    ctx.result["tray"] = list(screen.camera.profile.tray or ())
    ctx.result["tray_debug"] = [a, b, list(pw.pos), list(pw.size), list(screen.camera.lines), pw.frame_size]
    while screen.camera.die != "regroup":
        yield from ctx.tap(screen.die_button)
    ctx.result["problems"]["camera"] = ctx.check("calibrate-camera")
    yield from ctx.tap(screen.capture_button)  # the empty tray
    for face in ("+", "X"):
        cam.camera.show_frame(render(rng, [("regroup", face)], tilt=False)[0])
        yield 0.3
        ctx.result.setdefault("captures", []).append(screen.capture_button.text)
        yield from ctx.tap(screen.capture_button)
    yield from ctx.tap_text("Save the die")
    ctx.result["camera_status"] = screen.ids.status.text
    ctx.result["camera_lines"] = list(screen.camera.lines)
    # The buttons: each pressed when asked.
    from calibration.buttons import ROLE_WORDS

    yield from ctx.tap_text("Buttons")
    ctx.result["problems"]["buttons"] = ctx.check("calibrate-buttons")
    yield from ctx.tap_text("Test the buttons")
    test = screen.button_test
    for role in buttons.map.pins:
        yield from _until_line(ctx, test, f"press the {ROLE_WORDS[role]} button")
        buttons.press(role)
        yield 0.15
    yield from wait_for(lambda: test.state in ("done", "failed"))
    yield 0.3
    ctx.result["buttons"] = {"state": test.state, "error": test.error, "ok": test.ok,
                             "labels": [lb.text for lb in screen.role_labels.values()], "online": buttons.sensor.online}
    ctx.shot("calibrate-buttons-done")


@scenario()
def roll_for_first(ctx: Ctx) -> Iterator[float]:
    """Setup: roll for first player, by touch and by the camera, with a tie rolled again."""
    app = ctx.app
    yield from ctx.tap_text("Shear Panic")
    setup = ctx.screen
    yield from ctx.tap_text("More")
    for row, name in zip(setup.rows, ("Ann", "Bob", "Cy", "Di"), strict=False):
        row.name_input.text = name
    ctx.result["rule"] = setup.ids.order_rule.text
    colours = [r.pick.text for r in setup.rows]
    yield from ctx.tap_text("Roll for first")
    ctx.result["first_prompt"] = ctx.texts()
    ctx.result["problems"] = ctx.check("setup-roll-for-first")
    ctx.result["start_disabled"] = ctx.button("Start game").disabled
    yield from ctx.tap_text("4")  # Ann
    ctx.rigs["dice"].roll("d6", [6])  # Bob's die in the camera's tray
    yield from wait_for(lambda: len(setup.rolloff.rolls) == 2)
    yield 0.2
    yield from ctx.tap_text("6")  # Cy
    yield from ctx.tap_text("2")  # Di
    ctx.result["tie"] = setup.rolloff.message
    ctx.result["tie_prompt"] = setup.rolloff.prompt()
    yield from ctx.tap_text("3")  # Bob again
    yield from ctx.tap_text("5")  # Cy again
    ctx.result["after"] = setup.ids.order_rule.text
    ctx.result["names"] = [r.name_input.text for r in setup.rows]
    ctx.result["colours"] = dict(zip(("Ann", "Bob", "Cy", "Di"), colours, strict=True))
    ctx.result["colours_after"] = {r.name_input.text: r.pick.text for r in setup.rows}
    yield from ctx.tap_text("Start game")
    assert app.root.current == "table", setup.ids.error.text
    ctx.result["players"] = [p["name"] for p in app.session.setup["players"]]
    ctx.result["prompt_player"] = app.session.prompt().player
    yield from ctx.tap_text("Home")
    yield from ctx.tap_text("Fleeced!")
    ctx.result["fleeced_rule"] = ctx.screen.ids.order_rule.text
    ctx.result["fleeced_roll_offered"] = ctx.screen.roll_offered


def _drag_tray(ctx: Ctx, preview: Any, a: tuple[int, int], b: tuple[int, int]) -> Iterator[float]:
    """Drag a finger across the camera preview from frame pixel ``a`` to ``b`` (sets the tray)."""
    from kivy.tests.common import UnitTestTouch

    scale, ox, oy = preview._fit()
    h = (preview.frame_size or (640, 480))[1]
    (x0, y0), (x1, y1) = (preview.to_window(ox + x * scale, oy + (h - y) * scale) for x, y in (a, b))
    touch = UnitTestTouch(x0, y0)
    touch.touch_down()
    yield 0.05
    touch.touch_move(x1, y1)
    touch.touch_up()
    yield 0.3


@scenario(whistlers=())
def camera_profile_live(ctx: Ctx) -> Iterator[float]:
    """Mid-game calibration: Shear Panic waits for the panic die; Calibrate → Camera
    sets a new tray and samples the die face by face (rendered photos), saves; back on
    the Table the next roll is read by the running camera with those samples."""
    import numpy as np

    from hardware.testing.dice_render import DICE, empty_tray, render

    app, cam = ctx.app, ctx.rigs["dice"].camera
    app.new_game("shear-panic", {"players": [{"name": n} for n in ("Ann", "Bob", "Cy")]})
    yield 0.3
    ctx.result["asked"] = app.session.prompt().dice.die
    yield from ctx.tap_text("Settings")
    yield from ctx.tap_text("Calibrate")
    yield from ctx.tap_text("Camera")
    screen = ctx.screen
    rng = np.random.default_rng(8)
    cam.show_frame(empty_tray(rng, "warm"))
    yield from wait_for(lambda: screen.preview_widget.frame_size == (640, 480))  # not the rig's first, smaller frame
    yield 0.4  # the layout settles
    yield from _drag_tray(ctx, screen.preview_widget, (24, 20), (616, 460))
    ctx.result["tray"] = list(screen.camera.profile.tray or ())
    ctx.result["die"] = screen.camera.die
    yield from ctx.tap(screen.capture_button)  # the empty tray
    for face in DICE["panic"]:
        cam.show_frame(render(rng, [("panic", face)], "warm", tilt=False)[0])
        yield 0.3
        yield from ctx.tap(screen.capture_button)
    yield from ctx.tap_text("Save the die")
    ctx.result["status"] = screen.ids.status.text
    yield 0.3  # the progress shown
    ctx.result["problems_saved"] = ctx.check("calibrate-camera-saved")
    yield 1.0  # the die last sampled (yellow) lies on in the tray: no roll
    ctx.result["roll_before"] = None if app.last_roll is None else list(app.last_roll.payload["faces"])
    yield from ctx.tap_text("Back")
    yield from ctx.tap_text("Back")
    ctx.result["screen"] = app.root.current
    cam.show_frame(render(rng, [("panic", "red")], "warm")[0])  # the roll, tilted a little
    yield from wait_for(lambda: app.last_roll is not None, 15)
    roll = app.last_roll
    ctx.result["roll"] = {
        "faces": list(roll.payload["faces"]),
        "die": roll.payload["die"],
        "source": str(roll.source),
        "confidence": roll.confidence,
        "accepted": app.last_roll_accepted,
    }
    ctx.result["dice_text"] = table_facts(ctx)["dice"]


def _tap_place(ctx: Ctx, widget: Any, local: tuple[float, float]) -> Iterator[float]:
    """Scroll a point of a picture to the middle of its ScrollView (as a finger would), then touch it there."""
    from kivy.tests.common import UnitTestTouch
    from kivy.uix.scrollview import ScrollView

    node = widget.parent
    while node is not None and not isinstance(node, ScrollView):
        node = node.parent
    if node is not None:
        above = widget.to_window(*local)[1] - node.to_window(*node.center)[1]
        node.scroll_y = min(1.0, max(0.0, node.scroll_y + node.convert_distance_to_scroll(0, above)[1]))
        yield 0.2
    touch = UnitTestTouch(*widget.to_window(*local))
    touch.touch_down()
    yield 0.08
    touch.touch_up()
    yield 0.45  # the ScrollView hands the tap on 0.2 s after the release, then the redraw


def _board_check_of(ctx: Ctx, title: str) -> Iterator[float]:
    yield from ctx.tap_text(title)
    ctx.result["note_before"] = ctx.screen.ids.board_note.text
    yield from ctx.tap_text("Check the board")
    assert ctx.app.root.current == "board_check", ctx.app.root.current
    ctx.result["words"] = [t for t in ctx.texts() if t]


def _save_and_start(ctx: Ctx, shot: str) -> Iterator[float]:
    """The corrected view's layout and screenshot, Save, back to Setup, then a new game: what its setup carries."""
    app = ctx.app
    ctx.result["problems"]["corrected"] = ctx.check(shot)
    yield from ctx.tap_text("Save the board")
    ctx.result["status"]["saved"] = ctx.screen.ids.status.text
    ctx.result["words_after"] = [t for t in ctx.texts() if t]
    yield from ctx.tap_text("Back")
    setup = app.root.get_screen("setup")
    ctx.result["note_after"] = setup.ids.board_note.text
    for row, name in zip(setup.rows, ("Ann", "Bob", "Cy", "Di"), strict=False):
        row.name_input.text = name
    yield from ctx.tap_text("Start game")
    assert app.root.current == "table", setup.ids.error.text
    ctx.result["game_board"] = app.session.setup["options"]["board"]


@scenario()
def board_check_sheep_hop(ctx: Ctx) -> Iterator[float]:
    """Sheep Hop!'s die, meadow, exit and wolves' paths corrected by touch on the
    meadow picture and its steppers, a refused touch, saved, used by the next game."""
    yield from _board_check_of(ctx, "Sheep Hop!")
    check = ctx.screen
    ctx.result["problems"] = {"shipped": ctx.check("board-check-sheep-hop")}
    status = ctx.result["status"] = {}
    yield from _tap_scrolled(ctx, _step_button(ctx, "face.double-big-wolf-"))  # our die: no double wolf
    yield from _tap_scrolled(ctx, _step_button(ctx, "face.multicoloured+"))  # ... but two multicoloured faces
    yield from _tap_scrolled(ctx, _step_button(ctx, "meadow.cols+"))  # 8 columns: the big wolf's edge path grows
    yield from _tap_scrolled(ctx, ctx.button("Little wolf's path"))
    for place in ((2, 5), (3, 5), (4, 5)):  # the little wolf goes round a 3 x 4 block
        yield from _tap_place(ctx, check.pictures["meadow"], check.pictures["meadow"].centre(place))
    status["not_a_loop"] = check.ids.status.text
    yield from ctx.tap_text("Save the board")
    status["not_saved"] = check.ids.status.text
    yield from _tap_place(ctx, check.pictures["meadow"], check.pictures["meadow"].centre((3, 4)))
    status["loop"] = check.ids.status.text
    little = [list(c) for c in check.check.wolf("little")["path"]]
    yield from _tap_place(ctx, check.pictures["meadow"], check.pictures["meadow"].centre((0, 0)))  # no space there
    status["refused"] = check.ids.status.text
    ctx.result["unchanged"] = check.check.wolf("little")["path"] == little
    yield from _tap_scrolled(ctx, _step_button(ctx, "turn.little"))
    yield from _tap_scrolled(ctx, ctx.button("Meadow exit"))
    yield from _tap_place(ctx, check.pictures["meadow"], check.pictures["meadow"].centre((3, 8)))  # the exit on the east edge
    status["exit"] = check.ids.status.text
    yield from _save_and_start(ctx, "board-check-sheep-hop-corrected")


@scenario()
def board_check_battle_sheep(ctx: Ctx) -> Iterator[float]:
    """Battle Sheep's pasture-board shape corrected by touching hexes: refusals of a
    shape the game rejects, then a saved shape the next game uses."""
    yield from _board_check_of(ctx, "Battle Sheep")
    check = ctx.screen
    ctx.result["problems"] = {"shipped": ctx.check("board-check-battle-sheep")}
    status = ctx.result["status"] = {}

    def touch(h: tuple[int, int]) -> Iterator[float]:
        picture = check.pictures["piece"]  # drawn anew after every change
        yield from _tap_place(ctx, picture, picture.hex_centre(h))

    yield from touch((1, 1))  # off the board: 3 hexes
    status["three"] = check.ids.status.text
    yield from ctx.tap_text("Save the board")
    status["not_saved"] = check.ids.status.text
    yield from touch((3, 0))  # touches none of the three
    status["apart"] = check.ids.status.text
    ctx.result["after_apart"] = check.check.piece()
    yield from touch((2, 0))  # our board
    status["four"] = check.ids.status.text
    yield from touch((2, -1))  # a fifth
    status["five"] = check.ids.status.text
    yield from _save_and_start(ctx, "board-check-battle-sheep-corrected")


def _blow_when_asked(ctx: Ctx, wizard: Any, mic: Any, asked: str, hz: float, blows: int = 1) -> Iterator[float]:
    """As a person would: once the whistle wizard's instruction says ``asked``, read it, then blow."""
    yield from wait_for(lambda: asked in wizard.current or wizard.state == "failed", 20)
    assert wizard.state != "failed", wizard.error
    yield 0.7
    for _ in range(blows):
        mic.blow(freq=hz, duration=0.45)
        yield 1.0


@scenario(whistlers=())
def whistle_check(ctx: Ctx) -> Iterator[float]:
    """The whistle wizard's check blows: after the calibration blows each player blows
    once more; a blow taken for another player and a check with no blow are reported
    with Check again, and only then is the profile saved and used."""
    from calibration.whistle import profile_path

    app, mic = ctx.app, ctx.rigs["whistle"]
    app.new_game("tally", {"players": [{"name": "Ann"}, {"name": "Bob"}]})
    yield 0.3
    yield from ctx.tap_text("Settings")
    yield from ctx.tap_text("Calibrate")
    screen = ctx.screen
    yield from ctx.tap_text("Calibrate whistles")
    wizard = screen.whistles
    pitches = {"Ann": 2000.0, "Bob": 3300.0}
    for name, hz in pitches.items():
        yield from _blow_when_asked(ctx, wizard, mic, f"{name}: blow now", hz, blows=3)

    def failed_check(name: str) -> Iterator[float]:
        yield from wait_for(lambda: wizard.asking == name, 20)
        yield 0.3  # the screen's tick
        ctx.result.setdefault("failed", {})[name] = {
            "current": wizard.current,
            "progress": screen.progress.text,
            "status": screen.ids.status.text,
            "saved": profile_path().exists(),
        }
        ctx.result.setdefault("problems", {})[name] = ctx.check(f"calibrate-whistle-check-{name}")
        yield from ctx.tap_text("Check again")

    # Ann blows Bob's whistle by mistake; then her own.
    yield from _blow_when_asked(ctx, wizard, mic, "Ann, blow once more to check", pitches["Bob"])
    yield from failed_check("Ann")
    yield from _blow_when_asked(ctx, wizard, mic, "Ann, blow once more to check", pitches["Ann"])
    # Bob does not blow at all (the check waits, then says so); then he does.
    yield from _until_line(ctx, wizard, "Bob, blow once more to check")
    yield from failed_check("Bob")
    yield from _blow_when_asked(ctx, wizard, mic, "Bob, blow once more to check", pitches["Bob"])
    yield from wait_for(lambda: wizard.state in ("done", "failed"), 20)
    yield 0.3
    ctx.result["wizard"] = {
        "state": wizard.state,
        "error": wizard.error,
        "notes": wizard.notes,
        "checks": {n: r.describe() for n, r in wizard.checks.items()},
        "progress": screen.progress.text,
        "saved": profile_path().exists(),
    }
    ctx.shot("calibrate-whistle-checked")
    before = app.heard_while_calibrating
    mic.blow(freq=pitches["Ann"])  # the running microphone knows the checked profile (a try: not a game move)
    yield from wait_for(lambda: app.heard_while_calibrating is not before)
    ctx.result["heard"] = app.heard_while_calibrating.player


@scenario()
def held_tap_during_reading(ctx: Ctx) -> Iterator[float]:
    """A finger held on a die face while the camera's reading lands: lifting it does not enter that face
    (the reused button may be showing another answer by then)."""
    from kivy.tests.common import UnitTestTouch

    app = ctx.app
    yield from start_tally(ctx)
    entry = app.root.get_screen("table").ids.entry
    button = ctx.button("4", entry)
    touch = UnitTestTouch(*button.to_window(*button.center))
    touch.touch_down()
    yield 0.6  # held past the ScrollView's decision: the button itself is pressed now
    ctx.result["pressed"] = button.state
    ctx.rigs["dice"].roll("d6", [5], 0.93)  # Ann's roll read by the camera meanwhile
    yield from wait_for(lambda: len(app.session.events) == 1)
    yield 0.3  # the refresh has given the entry grid Bob's question
    touch.touch_up()
    yield 0.5
    ctx.result["faces"] = [list(e.get("faces", ())) for e in app.session.events]
    ctx.result["sources"] = [e.source.value for e in app.session.events]


@scenario()
def quick_switches(ctx: Ctx) -> Iterator[float]:
    """Views are let go when left: switching back within the same frame, or
    leaving and coming back to the Table, still shows them whole."""
    app = ctx.app
    yield from start_tally(ctx)
    entry = app.root.get_screen("table").ids.entry
    yield from ctx.tap(ctx.button("3", entry))
    for name in ("log", "settings", "log"):  # no frame between them
        app.go(name)
    yield 0.6
    ctx.result["log_rows"] = [b.text for b in ctx.buttons(ctx.screen.ids.rows)]
    ctx.result["screens"] = sorted(s.name for s in app.root.screens)
    yield from ctx.tap_text("Back to the table")
    yield 0.3
    ctx.result["table"] = table_facts(ctx)
    ctx.result["entry"] = [b.text for b in app.root.get_screen("table").ids.entry.children]
    ctx.result["board"] = app.root.get_screen("table").board is not None


@scenario()
def broken_engine_pick(ctx: Ctx) -> Iterator[float]:
    """An engine whose module fails on import is found out when picked: it is
    listed, then disabled with the reason, and the other games still start."""
    from companion import registry

    registry.BUILTIN["half-written"] = "tests.ui.half_written_engine"
    registry.TITLES["half-written"] = "Half Written"
    app = ctx.app
    home = app.root.get_screen("home")
    home.refresh()
    yield 0.3
    ctx.result["listed"] = ctx.button("Half Written").disabled
    yield from ctx.tap_text("Half Written")
    ctx.result["screen"] = app.root.current
    ctx.result["message"] = app.message
    b = next(b for b in ctx.buttons(home.ids.games) if b.text.startswith("Half Written"))
    ctx.result["after"] = {"text": b.text, "disabled": b.disabled}
    yield from ctx.tap_text("Fleeced!")
    ctx.result["other"] = app.root.current


@scenario()
def fit_smallest_font(ctx: Ctx) -> Iterator[float]:
    """Text that can never fit, with a smallest font between whole pixels: the fitting stops at it."""
    from ui.widgets import FitLabel

    # (a smallest font above the 14 px floor, ui.theme.min_text, which no min_font goes under)
    label = FitLabel(text="far too many words for this tiny box " * 6, min_font=15.6, max_font=30,
                     size_hint=(None, None), size=(60, 20))
    ctx.screen.add_widget(label)
    yield 0.5
    ctx.result["font_size"] = label.font_size
    # A one-line text gets a texture as wide as the text, placed by halign; a long
    # text that follows it wraps to the width in every texture drawn, never one line.
    line = FitLabel(text="Short", halign="right", size_hint=(None, None), size=(300, 80), pos=(100, 100))
    ctx.screen.add_widget(line)
    yield 0.3
    drawn = next(i for i in line.canvas.children if hasattr(i, "pos") and getattr(i, "texture", None) is line.texture)
    ctx.result["short"] = {"texture": list(line.texture_size), "text_size": list(line.text_size),
                           "x": drawn.pos[0], "right": line.right}
    # A button too (its own kv rule, beside Kivy's Button background): a left-aligned
    # line starts at the button's left edge, and the scene is flushed after its text.
    from ui.widgets import FitButton

    button = FitButton(text="Row", halign="left", size_hint=(None, None), size=(300, 60), pos=(100, 300))
    ctx.screen.add_widget(button)
    yield 0.3
    drawn = [i for i in button.canvas.children if hasattr(i, "pos") and getattr(i, "texture", None) is button.texture]
    ctx.result["button"] = {"texture": list(button.texture_size), "x": [i.pos[0] for i in drawn], "left": button.x,
                            "after": [type(i).__name__ for i in button.canvas.after.children]}
    widths: list[float] = []
    line.fbind("texture_size", lambda *_: widths.append(line.texture_size[0]))
    line.text = "a long sentence that has to wrap over several lines of this label " * 2
    yield 0.3
    ctx.result["long"] = {"widths": widths, "text_size": list(line.text_size), "height": line.texture_size[1]}


@scenario(whistlers=("Ann", "Bob", "Cy"))
def calibrate_mid_game(ctx: Ctx) -> Iterator[float]:
    """Blows and dice shown to the sensors on the Calibrate screen are samples, not moves:
    the Fleeced! game waiting on the Table gets none of them; back at the Table it hears again."""
    from companion.events import ROLL, Event, Source

    app = ctx.app
    app.new_game("fleeced", {"players": [{"name": n} for n in ("Ann", "Bob", "Cy")]})
    for i, faces in enumerate(([6, 6], [5, 4], [3, 3])):
        app.submit(Event(ROLL, {"die": "d6", "faces": faces}, None, time.time() + i, Source.CAMERA, 0.9))
    app.submit(Event(ROLL, {"die": "d6", "faces": [3]}, None, time.time() + 4, Source.CAMERA, 0.9))
    yield 0.3
    before = len(app.session.events)
    yield from ctx.tap_text("Settings")
    yield from ctx.tap_text("Calibrate")
    ctx.result["screen"] = app.root.current
    ctx.rigs["whistle"].blow("Ann")
    ctx.rigs["dice"].roll("d6", [2, 5], 0.95)
    yield 3.0  # long enough for the blow to be heard and the dice to settle
    ctx.result["events_while_calibrating"] = len(app.session.events) - before
    yield from ctx.tap_text("Back")
    yield from ctx.tap_text("Back")
    ctx.result["back_on"] = app.root.current
    ctx.rigs["whistle"].blow("Ann")
    yield from wait_for(lambda: len(app.session.events) > before, 10)
    ctx.result["after"] = [e.type for e in app.session.events[before:]]


@scenario()
def scrolled_log_is_clipped(ctx: Ctx) -> Iterator[float]:
    """A Log longer than its view, dragged to the middle: rows scrolled out of
    the view must not be drawn over the heading above it (the window may have
    no stencil buffer, ui/gl_visual.py), read from the window's own pixels."""
    app = ctx.app
    from kivy.core.window import Window
    from kivy.graphics import opengl as gl
    from kivy.tests.common import UnitTestTouch

    from ui import clipping

    yield from start_tally(ctx)
    for _ in range(16):  # rolls through the camera, as the dice sensor sends them
        n = len(app.session.events)
        ctx.rigs["dice"].roll("d6", [4], 0.95)
        yield from wait_for(lambda n=n: len(app.session.events) > n)
        yield 0.15
    yield from ctx.tap_text("Log")
    view = ctx.screen.ids.view
    yield 0.3
    ctx.result["overflows"] = view.children[0].height > view.height
    x, y = view.to_window(*view.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    for step in range(1, 9):  # a finger dragging the list up: rows leave the view at its top edge
        yield 0.03
        touch.touch_move(x, y + 25 * step)
    yield 0.05
    touch.touch_up()
    yield 1.0
    ctx.result["scroll_y"] = view.scroll_y
    ctx.result["stencil_bits"] = int(gl.glGetIntegerv(gl.GL_STENCIL_BITS)[0])
    left, top = (int(v) for v in view.to_window(view.x, view.top))
    # The window's pixels in the gap between the view's top edge and the line above it.
    band = gl.glReadPixels(left + 2, top + 1, int(view.width) - 4, 2, gl.GL_RGB, gl.GL_UNSIGNED_BYTE)
    background = tuple(round(c * 255) for c in Window.clearcolor[:3])
    ctx.result["band_pixels"] = len(band) // 3
    ctx.result["band_not_background"] = sum(
        1 for i in range(0, len(band), 3) if max(abs(band[i + k] - background[k]) for k in range(3)) > 8
    )
    ctx.shot("log-scrolled")
    ctx.result["scissors_open"] = clipping.depth()  # between frames: every view's scissor closed
    # Home's stored games sit in a scroll view inside a RelativeLayout that the
    # layout moves to the right half: the list must show there, not be clipped away.
    yield from ctx.tap_text("Back to the table")
    yield from ctx.tap_text("Home")
    yield 0.5
    stored = ctx.buttons(ctx.screen.ids.stored)
    ctx.result["stored"] = len(stored)
    if stored:
        x, y = (int(v) for v in stored[0].to_window(stored[0].x + 3, stored[0].center_y))
        pixel = gl.glReadPixels(x, y, 1, 1, gl.GL_RGB, gl.GL_UNSIGNED_BYTE)
        ctx.result["stored_pixel_is_background"] = max(abs(pixel[k] - background[k]) for k in range(3)) <= 8
    ctx.shot("home-stored")


def _play_record(ctx: Ctx, fixture: str) -> Iterator[float]:
    """A stored game played from a scenario record's events (the table's own moves, already checked)."""
    from companion import records
    from tests.test_game_records import FIXTURES

    record = records.read(FIXTURES / fixture)
    ctx.app.new_game(record.game, record.setup)
    for event in record.events:
        assert ctx.app.submit(event), ctx.app.message
    yield 0.3


def _results_view(ctx: Ctx, name: str, shot: str) -> Iterator[float]:
    """The Results screen as a player reads it: heading, notes, each ranked line; its layout checked."""
    ctx.app.go("results")
    yield 0.6
    ids = ctx.screen.ids
    ctx.result[name] = {
        "title": ids.title.text,
        "notes": ids.tie_break.text,
        "lines": [[w.text for w in reversed(line.children) if hasattr(w, "text")] for line in ids.ranking.children[::-1]],
        "problems": ctx.check(shot),
    }


@scenario()
def sheep_hop_results(ctx: Ctx) -> Iterator[float]:
    """Sheep Hop! is cooperative: Results says the table won (or the wolves did)
    with the Shepherds' Scale and ranks nobody; Home's history says the same."""
    for name, fixture in (("won", "sheep-hop/complete-game-table.jsonl"), ("lost", "sheep-hop/lost-game-few-saved.jsonl")):
        yield from _play_record(ctx, fixture)
        yield from _results_view(ctx, name, f"sheep-hop-results-{name}")
        if name == "won":  # Share results from the Results screen: this game only, BG Stats by default
            yield from ctx.tap_text("Share results")
            panel = _share_panel()
            yield from ctx.tap(next(b for b in ctx.buttons(panel) if b.text.startswith("This Pi's data folder")))
            ctx.result["share_status"] = panel.status.text
            ctx.result["share_written"] = str(panel.written)
            yield from ctx.tap(next(b for b in ctx.buttons(panel) if b.text == "Close"))
        yield from ctx.tap_text("Home")
        yield 0.5
    ctx.result["home"] = [b.text for b in ctx.buttons(ctx.screen.ids.stored)]
    ctx.result["home_problems"] = ctx.check("home-cooperative-history")


@scenario()
def fleeced_duplicate_card(ctx: Ctx) -> Iterator[float]:
    """Fleeced! sixth card of a kind already held: the Table offers both copies in words;
    putting back the one just drawn by touch leaves the older one playable this turn."""
    from companion import records
    from tests.test_game_records import FIXTURES

    record = records.read(FIXTURES / "fleeced/duplicate-card-put-back-the-new-one.jsonl")
    ctx.app.new_game(record.game, record.setup)
    for event in record.events[:-2]:  # up to the sixth card: the discard is the table's to choose
        assert ctx.app.submit(event), ctx.app.message
    yield 1.5  # the screen's slide from Home and the throttled redraw
    ctx.result["texts"] = [t for t in ctx.texts() if t]
    ctx.result["buttons"] = [b.text for b in ctx.buttons()]
    ctx.result["problems"] = ctx.check("fleeced-duplicate-card")
    yield from ctx.tap_text("Put the new other card under the pile")
    ctx.result["after"] = [b.text for b in ctx.buttons()]
    ctx.result["last"] = ctx.app.session.events[-1].to_dict()


@scenario()
def fleeced_shared_win(ctx: Ctx) -> Iterator[float]:
    """Fleeced! tie on points: Results shows both players 1st and says they share the win;
    with the house tie-break by sheep claimed, one winner."""
    for name, fixture in (("shared", "fleeced/tie-on-points-shared-win.jsonl"),
                          ("house", "fleeced/tie-on-points-house-rule-sheep.jsonl")):
        yield from _play_record(ctx, fixture)
        yield from _results_view(ctx, name, f"fleeced-results-{name}")


def _share_panel() -> Any:
    from kivy.core.window import Window

    return next(w for w in Window.children if type(w).__name__ == "SharePanel")


def _store_record(ctx: Ctx, fixture: str) -> None:
    """A finished game in the history, as the table played it (stored directly, not shown)."""
    from companion import records
    from companion.session import Session
    from tests.test_game_records import FIXTURES

    record = records.read(FIXTURES / fixture)
    session = Session.new(ctx.app.store, record.game, record.setup)
    for event in record.events:
        session.apply(event)


@scenario()
def history_dice(ctx: Ctx) -> Iterator[float]:
    """Home → History by touch: a bar chart per die over every stored game, one
    game's on its own, then Share results written to the data folder."""
    app = ctx.app
    for fixture in ("fleeced/full-game-two-players.jsonl", "shear-panic/complete-game-3-players.jsonl", "sheep-hop/complete-game-table.jsonl"):
        _store_record(ctx, fixture)
    app.close_session()
    yield 0.5
    yield from ctx.tap_text("History")
    yield 0.8
    ctx.result["screen"] = app.root.current
    ids = ctx.screen.ids
    charts = list(reversed(ids.charts.children))

    def facts() -> list[dict[str, Any]]:
        return [
            {"title": c.children[-1].text, "verdict": c.verdict.text,
             "columns": [[w.text for w in reversed(col.children) if hasattr(w, "text")] for col in reversed(c.children[1].children)]}
            for c in reversed(ids.charts.children)
        ]  # fmt: skip

    ctx.result["all"] = facts()
    ctx.result["games"] = [b.text for b in ctx.buttons(ids.games)]
    ctx.result["problems_all"] = ctx.check("history-dice")
    ctx.result["charts"] = len(charts)
    yield from ctx.tap_text("Fleeced!")
    yield 0.5
    ctx.result["fleeced"] = facts()
    ctx.result["problems_fleeced"] = ctx.check("history-dice-fleeced")
    yield from ctx.tap_text("Share results")
    yield 0.5
    panel = _share_panel()
    ctx.result["share_buttons"] = [b.text for b in ctx.buttons(panel)]
    yield from ctx.tap(next(b for b in ctx.buttons(panel) if b.text == "BoardGameGeek CSV"))
    yield from ctx.tap(next(b for b in ctx.buttons(panel) if b.text.startswith("This Pi's data folder")))
    ctx.result["share_status"] = panel.status.text
    ctx.result["share_written"] = str(panel.written)
    from ui import theme

    from .layout import check

    ctx.shot("share-results")
    ctx.result["problems_share"] = check(panel, theme.touch_size())
    yield from ctx.tap(next(b for b in ctx.buttons(panel) if b.text == "Close"))
    ctx.result["panel_closed"] = panel.parent is None


@scenario()
def shared_win_results(ctx: Ctx) -> Iterator[float]:
    """A tie no rule breaks: Results names both winners and gives each a 1st."""
    yield from _play_record(ctx, "battle-sheep/quick-mode-shared-win.jsonl")
    ctx.app.go("results")
    yield 0.6
    ids = ctx.screen.ids
    ctx.result["title"] = ids.title.text
    ctx.result["places"] = [next(w.text for w in reversed(line.children) if hasattr(w, "text")) for line in ids.ranking.children[::-1]]
    ctx.result["problems"] = ctx.check("results-shared-win")
    yield from ctx.tap_text("Home")
    yield 0.5
    ctx.result["home"] = [b.text for b in ctx.buttons(ctx.screen.ids.stored)]
