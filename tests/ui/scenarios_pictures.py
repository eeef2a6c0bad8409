"""Shear Panic and Battle Sheep played by finger, from Home to Results.

Every step is a real touch (Kivy's test touches at a widget's or a hex's
window position; a field larger than its view is scrolled first, as a finger
would drag it); nothing calls into the app.  Which touch to make is read from
what the screen shows (the outlined hexes, the tile buttons, the arrows) and
the game's legal moves only pick one of them, as a player would choose.
On every screen passed, the by-touch checks run (``touch_problems``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from . import touch_check as tc
from .driver import Ctx
from .scenarios import scenario, table_facts, wait_for


def touch_problems(ctx: Ctx, where: str) -> list[str]:
    """Every by-touch check on the screen shown (``touch_check.problems``): the
    layout check, touch targets, text under 14 px, and every offered answer
    visible without scrolling or declared by the picture (``touch_offers``)."""
    return [f"{where}: {p}" for p in tc.problems(ctx)]


def _scroll_to_point(view: Any, child: Any, x: float, y: float) -> None:
    """Scroll ``view`` so that the child's local point (x, y) is in sight."""
    if child.width > view.width:
        view.scroll_x = min(1.0, max(0.0, (x - child.x - view.width / 2) / (child.width - view.width)))
    if child.height > view.height:
        view.scroll_y = min(1.0, max(0.0, (y - child.y - view.height / 2) / (child.height - view.height)))


def _in_sight(widget: Any, x: float, y: float, margin: float = 4) -> bool:
    view = widget.parent
    wx, wy = widget.to_window(x, y)
    x0, y0 = view.parent.to_window(view.x, view.y)
    x1, y1 = view.parent.to_window(view.right, view.top)
    return x0 + margin <= wx <= x1 - margin and y0 + margin <= wy <= y1 - margin


def tap_where(ctx: Ctx, widget: Any, point: Any) -> Iterator[float]:
    """A real touch at ``point()`` (the widget's local point, asked again after
    each scroll: a picture may redraw meanwhile), scrolled into sight first."""
    from kivy.uix.scrollview import ScrollView

    view = widget.parent
    for _ in range(4):
        x, y = point()
        if not isinstance(view, ScrollView) or _in_sight(widget, x, y):
            break
        _scroll_to_point(view, widget, x, y)
        yield 0.3
    yield from tc.touch_at(ctx, widget, point())


def _landed(cond: Any, timeout: float) -> Iterator[float]:
    """Wait until ``cond()``; False (not raising) if it never comes."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        yield 0.1
    return True


def tap_until(ctx: Ctx, tap: Any, cond: Any) -> Iterator[float]:
    """Touch (``tap()`` makes the touch), until ``cond()`` shows the app took it.

    A touch that arrives while a ScrollView is still settling from being
    scrolled is taken by the ScrollView (it stops the scroll), as it would be
    from a finger; a person touches again, and so does this, once."""
    for wait in (2.5, 6.0):
        yield from tap()
        if (yield from _landed(cond, wait)):
            return
    from .layout import _walk, _window_rect

    where = ctx.result.get("where") or {}
    wx, wy = where.get("window", (0, 0))
    over = [
        f"{type(w).__name__} {getattr(w, 'text', '')!r} disabled={w.disabled}"
        for w in _walk(ctx.app.root.current_screen)
        if (r := _window_rect(w))[0] <= wx <= r[2] and r[1] <= wy <= r[3]
    ]
    raise AssertionError(f"the app did not take the touch (twice): {where} under it: {over}")


def _home_to_table(ctx: Ctx, title: str, players: int, option: str | None = None) -> Iterator[float]:
    """Home → the game → Setup (default names, only taps) → Start."""
    problems = ctx.result.setdefault("problems", [])
    yield from wait_for(lambda: ctx.app.root.current == "home")
    problems += touch_problems(ctx, "home")
    yield from tc.touch_text(ctx, title)
    assert ctx.app.root.current == "setup", ctx.app.root.current
    setup = ctx.screen
    while setup.count < players:
        yield from tc.touch_text(ctx, "More")
    while setup.count > players:
        yield from tc.touch_text(ctx, "Fewer")
    if option is not None:
        for _ in range(4):
            if any(b.text == option for b in ctx.buttons()):
                break
            yield from tc.touch(ctx, next(b for b in ctx.buttons() if getattr(b, "option_key", None)))
        assert any(b.text == option for b in ctx.buttons()), [b.text for b in ctx.buttons()]
    problems += touch_problems(ctx, "setup")
    ctx.shot(f"{title.lower().replace(' ', '-')}-setup")
    yield from tc.touch_text(ctx, "Start game")
    assert ctx.app.root.current == "table", (ctx.app.root.current, setup.ids.error.text)


def _results(ctx: Ctx, name: str) -> Iterator[float]:
    yield from wait_for(lambda: ctx.app.root.current == "results")
    yield 0.4
    ctx.result["problems"] += touch_problems(ctx, "results")
    ctx.result["results_texts"] = ctx.texts()
    ctx.shot(f"{name}-results")


# -- Battle Sheep ----------------------------------------------------------------


def _board(ctx: Ctx) -> Any:
    return ctx.app.root.get_screen("table").board


def _tap_hex(ctx: Ctx, h: tuple[int, int]) -> Iterator[float]:
    field = _board(ctx).ids.field
    view = field.parent
    ctx.result["where"] = {
        "hex": h, "centre": field.centre(*h), "window": field.to_window(*field.centre(*h)), "field": [*field.pos, *field.size],
        "view": [*view.pos, *view.size], "scroll": [view.scroll_x, view.scroll_y], "target": field.hex_at(*field.centre(*h)),
    }  # fmt: skip
    yield from tap_where(ctx, field, lambda: field.centre(*h))


def _option(ctx: Ctx, text: str | None = None, index: int = 0) -> Any:
    buttons = [b for b in ctx.buttons(_board(ctx).ids.options) if text is None or b.text == text]
    assert buttons, (text, [b.text for b in ctx.buttons(_board(ctx).ids.options)])
    return buttons[index]


@scenario()
def battle_sheep_complete_by_touch(ctx: Ctx) -> Iterator[float]:
    """Two players: twelve... eight pasture boards placed, both starts, then
    every move (a stack, where it stops, how many) until no one can move."""
    app = ctx.app
    yield from _home_to_table(ctx, "Battle Sheep", 2)
    problems = ctx.result["problems"]
    steps = {"boards": 0, "starts": 0, "moves": 0}
    smallest_target: list[float] = []
    for _ in range(200):
        if app.root.current != "table":
            break
        board = _board(ctx)
        assert board is not None, [getattr(w, "text", "") for w in ctx.app.root.get_screen("table").ids.board_holder.children]
        field = board.ids.field
        phase = app.session.game.state_json(app.session.state)["phase"]
        problems.extend(touch_problems(ctx, f"table {phase} {sum(steps.values())}"))
        smallest_target.append(field.hex_size * 3**0.5)
        assert ctx.app.root.get_screen("table").picture_only, "the picture should take the whole table"
        if phase == "build":
            # A ring in sight, as a person would pick (a finger on the very edge of the field's view
            # was sometimes taken by the ScrollView: seen at the bottom edge, not yet understood).
            anchors = sorted(a for a in field.rings if _in_sight(field, *field.centre(*a), margin=30)) or sorted(field.rings)
            anchor = anchors[(7 * steps["boards"]) % len(anchors)]
            yield from tap_until(ctx, lambda a=anchor: _tap_hex(ctx, a), lambda a=anchor: _board(ctx).anchor == a)
            previews = ctx.buttons(board.ids.options)
            ctx.result.setdefault("previews", []).append(len(previews))
            if steps["boards"] == 2:
                ctx.shot("battle-sheep-build")
            if not any(b.text == "Place it" for b in previews):
                yield from tc.touch(ctx, previews[-1])
            if steps["boards"] == 2:
                problems.extend(touch_problems(ctx, "table build preview"))
                ctx.shot("battle-sheep-build-preview")
            yield from tc.touch(ctx, _option(ctx, "Place it"))
            steps["boards"] += 1
        elif phase == "start":
            k = steps["boards"] + steps["starts"] + 1
            start = sorted(field.targets)[-1 if steps["starts"] else 0]
            yield from tap_until(ctx, lambda h=start: _tap_hex(ctx, h), lambda k=k: len(app.session.events) == k)
            steps["starts"] += 1
        elif phase == "play":
            sources = sorted(field.targets)
            yield from tap_until(ctx, lambda h=sources[0]: _tap_hex(ctx, h), lambda h=sources[0]: _board(ctx).source == h)
            ends = sorted(field.targets - {field.picked})
            yield from tap_until(ctx, lambda h=ends[0]: _tap_hex(ctx, h), lambda h=ends[0]: _board(ctx).dest == h)
            counts = [b for b in ctx.buttons(board.ids.options) if b.text.isdigit()]
            if steps["moves"] == 1:
                ctx.shot("battle-sheep-table")
                # The count on each stack is drawn in its hex.
                stacks = app.session.game.state_json(app.session.state)["stacks"]
                labels = {(round(c.center_x), round(c.center_y)): c.text for c in field.children}
                ctx.result["counts_drawn"] = sorted(
                    labels.get(tuple(round(v) for v in field.centre(*s["at"])), "") for s in stacks
                )
                ctx.result["counts_expected"] = sorted(str(s["count"]) for s in stacks)
                problems.extend(touch_problems(ctx, "table count"))
            yield from tc.touch(ctx, counts[-1])
            steps["moves"] += 1
        else:
            raise AssertionError(f"unexpected phase {phase}")
    ctx.result["steps"] = steps
    ctx.result["smallest_hex_px"] = min(smallest_target)
    ctx.result["events"] = [e.type for e in app.session.events]
    ctx.result["sources"] = sorted({e.source.value for e in app.session.events})
    yield from _results(ctx, "battle-sheep")


@scenario()
def battle_sheep_quick_by_touch(ctx: Ctx) -> Iterator[float]:
    """Quick mode (F1): each player's pastures and largest herd with − / +, then Results."""
    app = ctx.app
    yield from _home_to_table(ctx, "Battle Sheep", 3, option="Play: quick: only the scores at the end")
    board = _board(ctx)
    problems = ctx.result["problems"]
    problems += touch_problems(ctx, "quick entry")
    ctx.result["results_disabled_before"] = board.ids.results.disabled
    rows = list(reversed(board.ids.rows.children))
    wanted = {0: (9, 5), 1: (11, 4), 2: (10, 6)}
    for i, row in enumerate(rows):
        p, h = wanted[i]
        for _ in range(p):
            yield from tc.touch(ctx, row.ids.p_plus)
        for _ in range(h - 1):
            yield from tc.touch(ctx, row.ids.h_plus)
    ctx.result["shown"] = [(r.ids.name.text, r.ids.pastures.text, r.ids.herd.text) for r in rows]
    problems += touch_problems(ctx, "quick entry filled")
    ctx.shot("battle-sheep-quick")
    yield from tc.touch(ctx, board.ids.results)
    ctx.result["events"] = [(e.type, e.player, dict(e.payload)) for e in app.session.events]
    yield from _results(ctx, "battle-sheep-quick")


# -- Shear Panic -----------------------------------------------------------------


def _tap_cell(ctx: Ctx, cell: tuple[int, int]) -> Iterator[float]:
    view = _board(ctx).ids.flock

    def centre() -> tuple[float, float]:
        bx, by = view.box(*cell)
        return bx + view.cell / 2, by + view.cell / 2

    yield from tap_where(ctx, view, centre)


def _tap_sheep(ctx: Ctx, cell: tuple[int, int]) -> Iterator[float]:
    yield from tap_until(ctx, lambda: _tap_cell(ctx, cell), lambda: _board(ctx).selected == cell)


def _tap_arrow(ctx: Ctx, way: str) -> Iterator[float]:
    yield from wait_for(lambda: way in _board(ctx).ids.flock.arrow_cells().values(), 5)
    cells = {w: c for c, w in _board(ctx).ids.flock.arrow_cells().items()}
    assert way in cells, (way, cells)
    yield from _tap_cell(ctx, cells[way])


def _tile_button(ctx: Ctx, tile: str) -> Any:
    return next(b for b in ctx.buttons(_board(ctx).ids.menu) if b.tile == tile)


@scenario()
def shear_panic_complete_by_touch(ctx: Ctx) -> Iterator[float]:
    """Three players: the truck start, then every turn in the fields (a sheep,
    a tile of the command menu, an arrow on the flock; panic pushes, Ewe Turns
    and regroupings as the game asks) until the final pen, then Results."""
    app = ctx.app
    yield from _home_to_table(ctx, "Shear Panic", 3)
    problems = ctx.result["problems"]
    table = app.root.get_screen("table")
    game = app.session.game
    seen: dict[str, Any] = {"announced": [], "labels": set(), "selected_outline": None, "front": set()}
    counts = {"dice": 0, "choices": 0, "pushes": 0, "actions": 0}
    for n in range(400):
        if app.root.current != "table":
            break
        state = app.session.state
        sj = game.state_json(state)
        prompt = app.session.prompt()
        board = _board(ctx)
        if n % 3 == 0 or (sj["phase"] == "action" and counts["actions"] < 2):
            problems.extend(touch_problems(ctx, f"table {sj['phase']} {n}"))
        seen["front"].add((sj["facing"], board.ids.front.text))
        news = board.ids.news_text.text
        if news and news not in seen["announced"]:
            seen["announced"].append(news)
            if len(seen["announced"]) == 1:
                ctx.shot("shear-panic-scoring")
        legal = game.legal_actions(state)
        if prompt.dice is not None:
            colours = {s["colour"] for s in sj["flock"]}
            face = next(f for f in prompt.dice.faces if f in colours or f in ("white", "+", "X"))
            yield 0.2
            faces = [b for b in ctx.buttons(table.ids.entry) if b.text == str(face)]
            assert faces, (prompt.text, table_facts(ctx), table.picture_only)
            yield from tc.touch(ctx, faces[0])
            counts["dice"] += 1
        elif sj["phase"] == "push":
            e = legal[(n * 5) % len(legal)]
            yield from _tap_sheep(ctx, tuple(e.get("sheep")))
            yield from _tap_arrow(ctx, e.get("direction"))
            counts["pushes"] += 1
        elif sj["phase"] == "action":
            tiles = {t.id: t for t in state.tiles}
            # The biggest time value first (a shorter game), a tile with a sheep before one without.
            e = max(legal, key=lambda e: (tiles[e.get("tile")].time, e.get("sheep") is not None))
            picks = [x for x in legal if x.get("tile") == e.get("tile")]
            e = picks[(n * 7) % len(picks)]
            if e.get("sheep") is not None:
                yield from _tap_sheep(ctx, tuple(e.get("sheep")))
            greyed = [b.text for b in ctx.buttons(_board(ctx).ids.menu) if b.disabled]
            seen["used_greyed"] = greyed if counts["actions"] == 6 else seen.get("used_greyed")
            yield from tc.touch(ctx, _tile_button(ctx, e.get("tile")))
            if counts["actions"] == 0:
                board = _board(ctx)
                seen["tile_texts"] = [b.text for b in ctx.buttons(board.ids.menu)]
                seen["selected_outline"] = board.ids.flock.selected
                problems.extend(touch_problems(ctx, "table action chosen"))
                ctx.shot("shear-panic-table")
            way = e.get("direction") or e.get("side")
            yield from _tap_arrow(ctx, way)
            counts["actions"] += 1
        elif prompt.choices:
            seen["labels"].update(c.label for c in prompt.choices)
            yield from tc.touch(ctx, ctx.buttons(table.ids.entry)[0])
            counts["choices"] += 1
        else:
            raise AssertionError(f"nothing to touch in phase {sj['phase']}: {prompt.text}")
        if app.session.events and app.session.events[-1].source.value != "touch":
            raise AssertionError("an event not made by touch")
    ctx.result["counts"] = counts
    ctx.result["announced"] = seen["announced"]
    ctx.result["choice_labels"] = sorted(seen["labels"])
    ctx.result["tile_texts"] = seen.get("tile_texts")
    ctx.result["used_greyed"] = seen.get("used_greyed")
    ctx.result["front"] = sorted(seen["front"])
    ctx.result["sources"] = sorted({e.source.value for e in app.session.events})
    yield from _results(ctx, "shear-panic")
    from ui.history import log_rows

    ctx.result["log"] = [r.text for r in log_rows(app.session)]


def _flock_pixels(ctx: Ctx) -> dict[str, list[list[str]]]:
    """The colour drawn in each cell of the flock picture, read from the window's
    pixels (top row first, left to right; "." where no sheep colour shows)."""
    from kivy.graphics import opengl as gl

    from ui.boards.shear_panic import SHEEP_RGBA

    view = _board(ctx).ids.flock
    c = view.cell
    ox, oy = view._origin
    cols, rows = view._span[1] - view._span[0] + 1, view._span[3] - view._span[2] + 1
    out = []
    for row in range(rows - 2, 0, -1):  # inside the empty ring, top first
        line = []
        for col in range(1, cols - 1):
            x, y = view.to_window(ox + col * c + c * 0.2, oy + row * c + c * 0.2)
            px = gl.glReadPixels(int(x), int(y), 1, 1, gl.GL_RGB, gl.GL_UNSIGNED_BYTE)
            name = next(
                (n for n, rgba in SHEEP_RGBA.items() if max(abs(px[k] - round(rgba[k] * 255)) for k in range(3)) <= 12),
                ".",
            )
            line.append(name)
        out.append(line)
    return {"cells": out}


LETTERS = {"R": "red", "Y": "yellow", "B": "blue", "G": "green", "K": "black", ".": "."}


@scenario()
def shear_panic_flock_as_on_table(ctx: Ctx) -> Iterator[float]:
    """F3 and F27: the flock on screen is the flock on the table (front row at
    the top while the heads point north; on the left after an Ewe Turn to the
    left), and a touched sheep keeps its colour."""
    app = ctx.app
    yield from _home_to_table(ctx, "Shear Panic", 3)
    yield 0.5
    sj = app.session.game.state_json(app.session.state)
    ctx.result["rows"] = [[LETTERS[ch] for ch in row] for row in sj["rows"]]  # front row first, left to right
    ctx.result["facing"] = sj["facing"]
    ctx.result["drawn"] = _flock_pixels(ctx)["cells"]
    ctx.result["front_label"] = _board(ctx).ids.front.text
    # White on the panic die: the flock does an Ewe Turn, chosen by touch.
    yield from tc.touch_face(ctx, "white")
    ctx.result["turn_choices"] = [c.label for c in app.session.prompt().choices]
    yield from tc.touch_choice(ctx, "Ewe Turn (panic): turn left")
    yield 0.5
    sj = app.session.game.state_json(app.session.state)
    ctx.result["facing_after"] = sj["facing"]
    ctx.result["rows_after"] = [[LETTERS[ch] for ch in row] for row in sj["rows"]]
    ctx.result["drawn_after"] = _flock_pixels(ctx)["cells"]
    ctx.result["front_after"] = _board(ctx).ids.front.text
    ctx.shot("shear-panic-turned")
    # A panic push of a red sheep: touch it, it stays red (outlined), arrows appear.
    yield from tc.touch_face(ctx, "red")
    sheep = next(tuple(e.get("sheep")) for e in app.session.game.legal_actions(app.session.state))
    yield from _tap_sheep(ctx, sheep)
    view = _board(ctx).ids.flock
    ctx.result["selected"] = list(view.selected or ())
    from kivy.graphics import opengl as gl

    bx, by = view.box(*sheep)
    x, y = view.to_window(bx + view.cell * 0.2, by + view.cell * 0.2)
    ctx.result["selected_pixel"] = list(gl.glReadPixels(int(x), int(y), 1, 1, gl.GL_RGB, gl.GL_UNSIGNED_BYTE))
    ctx.result["arrows"] = sorted(view.arrow_cells().values())
    ctx.result["problems"] += touch_problems(ctx, "selected")
    ctx.shot("shear-panic-selected")
