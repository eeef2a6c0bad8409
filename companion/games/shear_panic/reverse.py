"""The no-reverse symbols: what "moving back" the previous player's action means.

"Crossed-out circle symbol: You cannot use the same action as the previous
player to move back."  We read "move back" as *undoing* that action: the same
action in the opposite direction on the same sheep (Lamb Push, Lamb Roll,
Leapfrog), the same row or column (Line Push), the same diagonal (Diagonal
Push), against the opposite side (Alignment), or turning the other way (Ewe
Turn).  What happened in between (a panic, a regrouping) changes nothing for
the crossed circle; the die symbol allows the reverse once a die was rolled
since (``State.rolled_since``).

The undo is kept as a :class:`~.state.LastAction` in the current flock's
frame.  Every later change of the frame (each flock is re-normalised so its
smallest x and y are 0, and an Ewe Turn rotates the coordinates) carries it
along (:func:`carried`), so the same sheep or line is recognised however the
flock moved since.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .actions import Action, Refusal, line_start
from .flock import DIRECTIONS, Flock, Pos, direction, direction_name
from .state import LastAction, State
from .tiles import Symbol, Tile

MENU = "A — The Command Menu"
_SHEEP_ACTIONS = frozenset({Action.LAMB_PUSH, Action.LAMB_ROLL, Action.LEAPFROG})
_OTHER_SIDE = {"left": "right", "right": "left"}


def _turn(p: Pos, side: str) -> Pos:
    """A square or a step after an Ewe Turn (``flock.rotate`` for one point)."""
    x, y = p
    return (y, -x) if side == "left" else (-y, x)


def placed(grid: Mapping[Pos, str]) -> tuple[Flock, Pos]:
    """The normalised flock and the shift that normalising applied to every square."""
    if not grid:
        return Flock(()), (0, 0)
    shift = (-min(p[0] for p in grid), -min(p[1] for p in grid))
    return Flock.of(grid), shift


def carried(last: LastAction | None, shift: Pos, turn: str | None = None) -> LastAction | None:
    """``last`` in the frame of a flock that was turned (``turn``), then shifted by ``shift``."""
    if last is None:
        return None
    at, back = last.at, last.back
    if turn is not None:
        at = None if at is None else _turn(at, turn)
        back = _turn(back, turn) if isinstance(back, tuple) else back
    if at is not None:
        at = (at[0] + shift[0], at[1] + shift[1])
    return replace(last, at=at, back=back)


def moved_to(state: State, grid: Mapping[Pos, str], turn: str | None = None) -> dict[str, Any]:
    """The changes for a new flock ``grid`` (in the current frame, turned by ``turn`` if
    an Ewe Turn made it): the normalised flock and the undo carried into its frame."""
    flock, shift = placed(grid)
    return {"flock": flock, "last_action": carried(state.last_action, shift, turn)}


def _params(tile: Tile, payload: Mapping[str, Any]) -> tuple[Pos | str, Pos | None]:
    """(direction or side, sheep square) of a menu action whose payload is already checked."""
    a = tile.action
    if a is Action.EWE_TURN:
        return str(payload["direction"]), None
    if a is Action.ALIGNMENT:
        return DIRECTIONS[str(direction_name(payload["side"]))], None
    d = direction(payload["direction"])
    sheep = payload["sheep"]
    assert d is not None
    return d, (sheep[0], sheep[1])


def undo_of(state: State, tile: Tile, payload: Mapping[str, Any]) -> LastAction:
    """The move that would undo this menu action, in the frame of the grid it leads to
    (before that grid is normalised: :func:`moved_to` then carries it)."""
    how, sheep = _params(tile, payload)
    a = tile.action
    if isinstance(how, str):  # Ewe Turn
        return LastAction(a, _OTHER_SIDE[how])
    back = (-how[0], -how[1])
    if a is Action.ALIGNMENT or sheep is None:
        return LastAction(a, back)
    if a in _SHEEP_ACTIONS:
        # The sheep is where the action left it: one step on, or past the sheep it leapt.
        grid = state.flock.grid()
        at = (sheep[0] + how[0], sheep[1] + how[1])
        while a is Action.LEAPFROG and at in grid:
            at = (at[0] + how[0], at[1] + how[1])
        return LastAction(a, back, at)
    # Any square names the line; take the one the pushed sheep started from, so
    # that naming the line by another of its sheep makes the same state.
    return LastAction(a, back, line_start(state.flock.grid(), sheep, how))


def _same_line(at: Pos, sheep: Pos, d: Pos) -> bool:
    """Whether ``sheep`` lies on the line along ``d`` through ``at``."""
    dx, dy = sheep[0] - at[0], sheep[1] - at[1]
    return dx * d[1] - dy * d[0] == 0


def undoes(last: LastAction | None, tile: Tile, payload: Mapping[str, Any]) -> bool:
    """Whether this menu action is the previous one's undo (see the module's reading)."""
    if last is None or last.action is not tile.action:
        return False
    how, sheep = _params(tile, payload)
    if how != last.back:
        return False
    if last.at is None or sheep is None:
        return True  # an Ewe Turn the other way, an Alignment against the other side
    if tile.action in _SHEEP_ACTIONS:
        return sheep == last.at
    assert isinstance(how, tuple)
    return _same_line(last.at, sheep, how)


def guarded(state: State, tile: Tile) -> bool:
    """Whether the tile's symbol forbids moving back now: the crossed circle always,
    the die symbol unless a die was rolled since the previous action."""
    return tile.symbol is Symbol.NO_REVERSE or (tile.symbol is Symbol.DIE and not state.rolled_since)


def check(state: State, tile: Tile, payload: Mapping[str, Any]) -> None:
    if guarded(state, tile) and undoes(state.last_action, tile, payload):
        why = "crossed-out circle" if tile.symbol is Symbol.NO_REVERSE else "die symbol: no die rolled since"
        raise Refusal(
            f"this {tile.action.value} would move back the previous player's {tile.action.value}: the same action "
            f"the opposite way on the same {_what(tile.action)} ({why})", MENU
        )


def _what(a: Action) -> str:
    if a in _SHEEP_ACTIONS:
        return "sheep"
    return {Action.LINE_PUSH: "row or column", Action.DIAGONAL_PUSH: "diagonal", Action.ALIGNMENT: "flock",
            Action.EWE_TURN: "flock"}[a]

