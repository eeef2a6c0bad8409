"""The one-time board check, as the game offers it: its board facts, their words, their corrections.

Some facts are printed only on a game's physical board or pieces (Shear Panic's
panic spaces, the Sheep Hop! wolf paths, which Pendleton Hill pastures touch, the
Battle Sheep board shape).  A game ships them as TOML files beside its code
(``Game.board_files``) and offers a :class:`BoardCheck` for them
(``Game.board_check(players, data)``): a subclass in the game's package
(``companion/games/<game>/board_check.py``) that describes the data in plain
words, makes the corrections a table makes by touch (refusing a touch that
breaks a rule with :class:`Refused`, nothing changed), and validates through
the game's own ``validate_setup``.

What the table can correct is said in a small vocabulary of *controls*
(:class:`Note`, :class:`Toggles`, :class:`Stepper`, :class:`Press`,
:class:`Squares`, :class:`Hexes`) that the Check the board screen draws without
knowing the game; each carries the callback that makes the correction.  Pure
Python: no Kivy, no files written (``calibration.board`` loads and saves the
table's copy), so a new game brings its own board check and the screen shows it.
"""

from __future__ import annotations

import copy
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from .errors import BellwetherError, ConfigError, SetupError

if TYPE_CHECKING:
    from .game import Game

Cell = tuple[int, int]  # a square place (row, column), row 0 at the top
Hex = tuple[int, int]  # axial (q, r)


class Refused(BellwetherError, ValueError):
    """A touch the board check does not make: one line naming the rule; nothing changed."""


@dataclass(frozen=True)
class DataFile:
    """One shipped TOML file of a game's package and the setup option it fills."""

    name: str  # file name in the game's package, "{n}" for the player count
    option: str  # the setup option (options.<option>) it becomes
    extract: Callable[[dict[str, Any]], Any] = lambda data: data  # from the file to the option

    def file_for(self, players: int) -> str:
        return self.name.format(n=players)


# -- controls: what the screen draws, in order ---------------------------------------


@dataclass(frozen=True)
class Note:
    """A line of words: an instruction (muted) or a fact."""

    text: str
    muted: bool = True
    lines: int = 1


@dataclass(frozen=True)
class Toggle:
    label: str
    value: Any
    on: bool


@dataclass(frozen=True)
class Toggles:
    """A grid of buttons, each on or off; touching one calls ``press(value)``.
    ``one``: exactly one is on (a choice), else each toggles on its own."""

    key: str
    items: tuple[Toggle, ...]
    press: Callable[[Any], object]
    one: bool = False
    cols: int | None = None  # None: as many as fit the width


@dataclass(frozen=True)
class Stepper:
    """A fact with − / + beside it; ``change(delta)`` returns the new value.
    ``redraw``: a step changes other facts too, so the whole view is drawn again."""

    key: str
    label: str
    value: Any
    change: Callable[[int], object]
    redraw: bool = False


@dataclass(frozen=True)
class Press:
    """A fact with one button beside it (``text``) that calls ``press()``."""

    key: str
    label: str
    text: str
    press: Callable[[], object]


@dataclass(frozen=True)
class Loop:
    """A closed path over a :class:`Squares` picture: it starts at its first cell and
    walks towards ``towards``; ``bold`` tells two loops apart."""

    cells: tuple[Cell, ...]
    bold: bool
    towards: Cell | None


@dataclass(frozen=True)
class Squares:
    """A picture of square places (``size`` rows x columns, one place of margin drawn
    round it): plain ``spaces``, pale ``starts`` with a dot, ``loops``, ``rings``
    where a touch may choose, and an ``arrow`` from a space to a target drawn beyond it.
    Touching a place calls ``touch((row, column))``; the margin is row/column -1."""

    key: str
    size: tuple[int, int]
    spaces: tuple[Cell, ...]
    starts: tuple[Cell, ...] = ()
    loops: tuple[Loop, ...] = ()
    rings: tuple[Cell, ...] = ()
    arrow: tuple[Cell, Cell] | None = None
    touch: Callable[[Cell], object] = lambda _c: None
    legend: str = ""


@dataclass(frozen=True)
class Hexes:
    """A picture of hexagons: ``filled`` ones and ringed ``area`` places; touching
    one calls ``touch(hex)``."""

    key: str
    filled: tuple[Hex, ...]
    area: tuple[Hex, ...]
    touch: Callable[[Hex], object]
    legend: str = ""


Control = Note | Toggles | Stepper | Press | Squares | Hexes


@dataclass
class BoardCheck:
    """A game's board data being checked at the table: option -> the file's data.

    Subclasses (one per game with board data) add ``describe`` and ``controls``
    and the corrections behind them; ``hint`` may say a refusal in plainer words.
    """

    game: Game
    players: int
    data: dict[str, dict[str, Any]] = field(default_factory=dict)
    origin: str = "shipped"  # "shipped", "checked" or why a checked copy was not used

    def __post_init__(self) -> None:
        if not self.data:
            self.data = self.shipped()

    @property
    def files(self) -> tuple[DataFile, ...]:
        return self.game.board_files

    def shipped(self) -> dict[str, dict[str, Any]]:
        return {f.option: tomllib.loads(shipped_text(self.game, f, self.players)) for f in self.files}

    def reset(self) -> None:
        self.data = self.shipped()
        self.origin = "shipped"

    def options(self) -> dict[str, Any]:
        """What a new game's setup ``options`` get from this data."""
        return {f.option: f.extract(copy.deepcopy(self.data[f.option])) for f in self.files}

    def validate(self) -> None:
        """Raises SetupError (key, expected, actual) when the game would refuse this board."""
        setup = {"players": [{"name": f"Player {i + 1}"} for i in range(self.players)], "options": self.options()}
        self.game.validate_setup(setup)

    def check_error(self) -> str:
        """Why the game would refuse this board, in one line ("" when it accepts it)."""
        try:
            self.validate()
        except (SetupError, ConfigError) as e:
            return self.hint(e) or str(e)
        return ""

    def hint(self, error: SetupError | ConfigError) -> str:
        """The rule behind a refusal in a touch editor's plainer words, or ""."""
        return ""

    def describe(self) -> list[str]:
        """The data in plain words, one fact a line."""
        lines = []
        for option, data in self.data.items():
            for key, value in data.items():
                text = value if not isinstance(value, (dict, list)) else f"{len(value)} entries"
                lines.append(f"{words(option)}: {words(key)}: {text}")
        return lines

    def controls(self) -> list[Control]:
        """What the table corrects by touch (none: the facts are corrected in the files)."""
        return [Note("These facts are corrected in the files (bellwether calibrate board).")]


def shipped_text(game: Game, f: DataFile, players: int) -> str:
    """A shipped board file's text, from the game's package."""
    # The package the game's class lives in (its __init__ or a module of it).
    package = sys.modules[type(game).__module__].__package__ or type(game).__module__
    return resources.files(package).joinpath(f.file_for(players)).read_text(encoding="utf-8")


def words(key: str) -> str:
    """A data key in words: "black-sheep" -> "black sheep"."""
    return key.replace("-", " ")
