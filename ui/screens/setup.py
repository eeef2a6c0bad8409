"""Setup: players, names, colours or characters, count, variants, turn order."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from calibration.board import board_note, has_board
from companion import registry
from companion.errors import BellwetherError, SetupError
from companion.events import ROLL, Event
from companion.game import DiceRequest

from .. import theme
from ..boards import setup_spec
from ..turn_order import RollOff, offers_roll, rule
from ..widgets import FitButton, FitLabel, PlayerMark, load_kv


class PlayerRow(BoxLayout):
    """One seat: mark, name, colour or character, and moves in the turn order."""

    def __init__(self, screen: SetupScreen, index: int, **kw: Any) -> None:
        super().__init__(orientation="horizontal", spacing=dp(4), **kw)
        self.screen = screen
        self.index = index
        self.mark = PlayerMark(size_hint_x=None, width=theme.touch_size())
        # Touching the name opens the on-screen keyboard with the recent names (ui.name_entry).
        self.name_input = FitButton(halign="left", max_font=sp(20), min_font=sp(14))
        self.name_input.bind(on_release=lambda *_: screen.edit_name(self.index))
        self.pick = FitButton(size_hint_x=0.8, min_font=sp(14), max_font=sp(18))
        self.pick.bind(on_release=lambda *_: screen.cycle(self.index))
        up = FitButton(text="Up", size_hint_x=None, width=theme.touch_size() * 1.1, min_font=sp(14))
        up.bind(on_release=lambda *_: screen.move(self.index, -1))
        down = FitButton(text="Down", size_hint_x=None, width=theme.touch_size() * 1.1, min_font=sp(14))
        down.bind(on_release=lambda *_: screen.move(self.index, +1))
        for w in (self.mark, self.name_input, self.pick, up, down):
            self.add_widget(w)


class SetupScreen(Screen):
    has_board = BooleanProperty(False)  # the game ships board data the table checks once
    board_bad = BooleanProperty(False)  # the table's checked copy does not load or validate
    use_shipped = BooleanProperty(False)  # ... and the table chose the shipped data instead
    board_options: dict[str, Any] = {}  # noqa: RUF012 (replaced, never mutated)
    roll_offered = BooleanProperty(False)  # the table may roll for first player here
    rolling = BooleanProperty(False)  # a roll-off is under way
    count = NumericProperty(2)  # players at the table (the rows go two a line from four, in landscape)
    rolloff: RollOff | None = None

    def prepare(self, game_name: str) -> None:
        """Fill the form for a game, with last time's names where there are some."""
        app = App.get_running_app()
        self.game = registry.get(game_name)
        self.spec = setup_spec(game_name)
        last = list(app.prefs.last_players)
        count = min(max(len(last) or 2, self.game.min_players), self.game.max_players)
        self.names = [last[i] if i < len(last) else f"Player {i + 1}" for i in range(self.game.max_players)]
        self.picks = list(range(self.game.max_players))  # index into spec.values per seat
        self.count = count
        self.options = self.game.setup_options  # the game's variants, each value named in words
        self.option_values = {o.key: o.default_index for o in self.options}
        self._recall(app.prefs.setups.get(game_name))
        self.ids.title.text = f"{self.game.title} ({self.game.min_players}–{self.game.max_players} players)"
        self.ids.error.text = ""
        self.use_shipped = False
        self.stop_roll()
        self.roll_offered = offers_roll(game_name)
        self.ids.order_rule.text = rule(game_name)
        self._build()
        self.refresh_board()

    # -- rolling for first player -------------------------------------------------
    def start_roll(self) -> None:
        """Each player rolls a die (touch or camera); highest first, ties again."""
        self.rolloff = RollOff([self.names[i].strip() or f"Player {i + 1}" for i in range(self.count)])
        self.rolling = True
        App.get_running_app().want_dice(DiceRequest("d6", 1, (1, 2, 3, 4, 5, 6)))
        self._build_roll()

    def stop_roll(self) -> None:
        if self.rolling:
            App.get_running_app().want_dice(None)
        self.rolling = False
        self.rolloff = None
        if hasattr(self, "rows"):
            self._build()

    def take_roll(self, event: Event) -> bool:
        """A die read by a sensor while the table rolls for first player."""
        if not self.rolling or event.type != ROLL:
            return False
        faces = list(event.get("faces", ()))
        if faces and isinstance(faces[0], int):
            self.enter_roll(faces[0], event.source.value if event.source else "sensor")
        return True

    def enter_roll(self, face: int, source: str = "touch") -> None:
        r = self.rolloff
        if r is None:
            return
        r.enter(face)
        if r.winner is None:
            self._build_roll(f"{r.message} (by {source})")
            return
        order = r.order()
        self.names[: self.count] = [self.names[i] for i in order]
        self.picks[: self.count] = [self.picks[i] for i in order]
        message = r.message
        self.stop_roll()
        self.ids.order_rule.text = f"{message} Turn order: {', '.join(n.strip() for n in self.names[: self.count])}."

    def roll_hint(self) -> str:
        """How to roll for first at this table: which die (the box may have none) and how it is entered,
        by the sensors that are online now (never the camera's tray with no camera)."""
        hub = App.get_running_app().hub
        die = "the die" if self.game.box_has_d6 else f"any ordinary six-sided die (the {self.game.title} box has none)"
        ways = ["touch the face it shows"]
        buttons = hub.sensors.get("buttons")
        if buttons is not None and buttons.online:
            step = getattr(getattr(buttons, "map", None), "scheme", "faces") == "step"
            ways.append("step to it on the buttons and press OK" if step else "press its face button")
        camera = hub.statuses.get("camera")
        if camera is not None and camera.online:
            ways.append("roll it in the camera's tray")
        how = ", ".join(ways[:-1]) + " or " + ways[-1] if len(ways) > 1 else ways[0]
        return f"Roll {die}, then {how}."

    def _build_roll(self, message: str = "") -> None:
        from kivy.uix.gridlayout import GridLayout

        rows = self.ids.rows
        rows.clear_widgets()
        # The hint is up to three lines at the 14 px floor (ui.theme.min_text): its row is taller.
        hint_row = 0 if rows.cols == 2 else 1
        rows.rows_minimum = {hint_row: theme.touch_size() * 1.4}
        r = self.rolloff
        assert r is not None
        rows.add_widget(FitLabel(text=r.prompt(), max_font=sp(22), bold=True))
        rows.add_widget(FitLabel(text=message or self.roll_hint(), max_font=sp(16), color=theme.MUTED))
        faces = GridLayout(cols=6, spacing=dp(4))
        for face in range(1, 7):
            b = FitButton(text=str(face))
            b.face = face
            b.bind(on_release=lambda btn: self.enter_roll(btn.face))
            faces.add_widget(b)
        rows.add_widget(faces)
        if r.history:
            rows.add_widget(FitLabel(text="Rolled: " + ", ".join(r.history), max_font=sp(15), color=theme.MUTED))

    # -- the board check ---------------------------------------------------------
    def refresh_board(self) -> None:
        """The checked board data for this player count (calibration.board.setup_options)."""
        self.has_board = has_board(self.game.name)
        self.board_options, note, self.board_bad = board_note(self.game.name, self.count)
        if self.board_bad and self.use_shipped:
            note = "Board: the shipped data (your checked copy has an error; Check the board to fix it)."
        self.ids.board_note.text = note

    def choose_shipped(self) -> None:
        self.use_shipped = True
        self.refresh_board()

    def check_board(self) -> None:
        app = App.get_running_app()
        app.root.get_screen("board_check").prepare(self.game.name, self.count)
        app.go("board_check")

    def _recall(self, saved: Any) -> None:
        """Last time's form for this game, where it still fits the game."""
        if not isinstance(saved, dict):
            return
        n = len(saved.get("names", ()))
        if self.game.min_players <= n <= self.game.max_players:
            self.count = n
            for i, name in enumerate(saved["names"]):
                self.names[i] = str(name)
        picks = saved.get("picks", ())
        for i, value in enumerate(picks[: self.game.max_players]):
            if value in self.spec.values:
                self.picks[i] = self.spec.values.index(value)
        for o in self.options:
            value = (saved.get("options") or {}).get(o.key)
            if value in o.values:
                self.option_values[o.key] = o.values.index(value)

    # -- form --------------------------------------------------------------
    def _unique_picks(self) -> None:
        """No two seats with the same colour or character: a repeated one moves on to the next free one."""
        n = len(self.spec.values)
        taken: set[int] = set()
        for i in range(self.count):
            pick = self.picks[i] % n
            while pick in taken and len(taken) < n:
                pick = (pick + 1) % n
            self.picks[i] = pick
            taken.add(pick)

    def _build(self) -> None:
        if self.rolling:
            return
        self._unique_picks()
        self.ids.count_label.text = f"Players: {self.count}"
        rows = self.ids.rows
        rows.clear_widgets()
        rows.rows_minimum = {}  # the roll-off's taller hint row is gone
        self.rows: list[PlayerRow] = []
        for i in range(self.count):
            row = PlayerRow(self, i)
            row.name_input.text = self.names[i]
            row.name_input.bind(text=lambda inp, value, i=i: self._rename(i, value))
            rows.add_widget(row)
            self.rows.append(row)
        for o in self.options:
            b = FitButton(text=f"{o.label}: {o.name(o.values[self.option_values[o.key]])}")
            b.option_key = o.key
            b.bind(on_release=lambda btn: self.cycle_option(btn.option_key))
            rows.add_widget(b)
        self._restyle()

    def _rename(self, i: int, value: str) -> None:
        self.names[i] = value
        self.ids.error.text = ""

    def edit_name(self, i: int) -> None:
        """The name of seat ``i`` on Kivy's on-screen keyboard, with the recent names to tap."""
        from ..name_entry import NameEntry, recent_names

        app = App.get_running_app()
        others = [self.names[j] for j in range(self.count) if j != i]

        def done(name: str) -> None:
            if i < len(self.rows):
                self.rows[i].name_input.text = name

        NameEntry(f"Player {i + 1}'s name", self.names[i], recent_names(app.prefs, others), done).open()

    def _restyle(self) -> None:
        app = App.get_running_app()
        for i, row in enumerate(self.rows):
            value = self.spec.values[self.picks[i] % len(self.spec.values)]
            # The same colour and shape as on the Table (App.player_style): a chosen colour, else the seat's.
            sw, shape = theme.player_style(app.palette, value if self.spec.key == "colour" else None, i)
            row.mark.rgba = list(sw.rgba)
            row.mark.shape = shape
            row.pick.text = value

    def change_count(self, delta: int) -> None:
        if self.rolling:
            return
        n = self.count + delta
        if self.game.min_players <= n <= self.game.max_players:
            self.count = n
            self._build()
            self.refresh_board()  # Shear Panic's track depends on the player count

    def cycle(self, i: int) -> None:
        """Next colour or character not taken by another seat."""
        taken = {self.picks[j] % len(self.spec.values) for j in range(self.count) if j != i}
        for step in range(1, len(self.spec.values) + 1):
            candidate = (self.picks[i] + step) % len(self.spec.values)
            if candidate not in taken:
                self.picks[i] = candidate
                break
        self.ids.error.text = ""  # a clash just mended must not stay said (F18)
        self._restyle()

    def move(self, i: int, delta: int) -> None:
        """Move a seat up or down the turn order."""
        j = i + delta
        if 0 <= j < self.count:
            self.names[i], self.names[j] = self.names[j], self.names[i]
            self.picks[i], self.picks[j] = self.picks[j], self.picks[i]
            self._build()

    def cycle_option(self, key: str) -> None:
        o = next(o for o in self.options if o.key == key)
        self.option_values[key] = (self.option_values[key] + 1) % len(o.values)
        self._build()

    def setup(self) -> dict[str, Any]:
        players = []
        for i in range(self.count):
            value = self.spec.values[self.picks[i] % len(self.spec.values)]
            players.append({"name": self.names[i].strip(), self.spec.key: value})
        options = {o.key: o.values[self.option_values[o.key]] for o in self.options}
        if not self.use_shipped:
            options.update(self.board_options)
        return {"players": players, "options": options}

    def start(self) -> None:
        app = App.get_running_app()
        if self.has_board:
            self.refresh_board()  # a board checked since the form opened counts
            if self.board_bad and not self.use_shipped:
                self.ids.error.text = "Fix the board (Check the board) or touch Use the shipped board."
                return
        setup = self.setup()
        try:
            app.new_game(self.game.name, setup)
        except (SetupError, BellwetherError) as e:
            self.ids.error.text = plain_setup_error(e, setup, self.spec.key)
            return
        app.prefs.setups[self.game.name] = {
            "names": [p["name"] for p in setup["players"]],
            "picks": [p[self.spec.key] for p in setup["players"]],
            "options": {o.key: setup["options"][o.key] for o in self.options},
        }
        app.prefs.save(app.options.data_dir)


def plain_setup_error(e: Exception, setup: dict[str, Any], key: str) -> str:
    """A refused setup in the players' words (the key path stays in the log)."""
    text = str(e)
    if isinstance(e, SetupError) and "a name no other player has" in text:
        return "Two players have the same name: give each player their own name."
    if isinstance(e, SetupError) and f".{key}" in text and "no other player" in text:
        values = [p.get(key) for p in setup["players"]]
        clash = next((v for v in values if values.count(v) > 1), None)
        return f"Two players can't both be {clash}: touch one of them to choose another."
    return text


load_kv(__file__)
_unused = FitLabel  # registered for the .kv rules
