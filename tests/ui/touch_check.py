"""The by-touch harness: what a finger can see and reach on the live window.

Use it from a scenario (``tests/ui/scenarios.py``, run in the app's own
process by ``tests.ui.driver``)::

    from . import touch_check as tc

    @scenario()
    def my_game_by_touch(ctx):
        yield from tc.touch_text(ctx, "Shear Panic")          # a real touch on the button
        ...
        problems = tc.check_screen(ctx, "shear-panic-table")  # screenshot + every check below
        assert not problems, problems
        yield from tc.touch_choice(ctx, "Ended on a plain square")   # a prompt's answer, by its label
        yield from tc.touch_face(ctx, 4)                              # a die face on the dice pad
        yield from tc.touch_at(ctx, board.ids.field, (120, 80))      # a point on the picture (widget coords)

``check_screen`` (and ``checked``, which also collects the problems in
``ctx.result["touch_problems"]``) asserts, on the screen as it is drawn now:

- **every choice the prompt offers is visible without scrolling or
  enterable on the picture**: the dice faces of ``Prompt.dice``, each
  ``Prompt.choices`` (or the legal events the Table offers as choices, see
  ``ui.offers``), each field of ``Prompt.counts``; a choice is *visible* when a
  button for it (by its ``action``, else its text) lies wholly inside the window
  and inside every ScrollView above it, enabled and not see-through.  Choices
  of an event type the picture handles (``Board.handles``) count as
  *enterable on the picture* only if the picture declares them:
  ``Board.touch_offers(session)`` returns the events it offers by touch now
  (computed from ``game.legal_actions``); each legal event of a handled type
  must be among them (compared by type, payload and player).  A number pad
  (``TableScreen.pad``) makes the whole-number choices it covers enterable.
  A choice in a group (``TableScreen.groups``: one button opens the group's
  choices) counts as enterable when the group's button is visible.
- **no touch target under 48 px** (9 mm on the 7" panel; ``ui.theme.touch_size``),
- **no text under 14 px**, scaled like the touch size for the window
  (``min_text_px``),
- **no clipped or overlapping text**, nothing off the window, no word broken,
  no missing glyph (the layout check, ``tests/ui/layout.py``).

The touch helpers refuse to touch what a finger could not: a widget that is
disabled, see-through, or not wholly on screen (scrolled away or off the
window).  They send real touch events through Kivy's input pipeline
(``kivy.tests.common.UnitTestTouch``: a motion event posted to the event loop
and dispatched by the window to whatever widget lies under that point, so a
button covered by another widget is not pressed), never calls into the app.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .layout import _clip_rect, _inside, _visible, _walk, _window_rect
from .layout import check as layout_check

MIN_TEXT_PX = 14.0  # body text on the 800x480 panel


def min_text_px() -> float:
    """14 px at 800x480, scaled as the touch size is (``ui.theme.touch_size``)."""
    from ui import theme

    return MIN_TEXT_PX * theme.touch_size() / theme.MIN_TOUCH_PX


# -- what is on screen ----------------------------------------------------------
def on_screen(w: Any) -> bool:
    """Wholly visible: opaque, inside the window and every ScrollView above it."""
    from kivy.core.window import Window

    if not _visible(w):
        return False
    rect = _window_rect(w)
    return _inside(rect, _clip_rect(w)) and _inside(rect, (0, 0, Window.width, Window.height))


def touchable(w: Any) -> bool:
    return on_screen(w) and not w.disabled


def buttons(root: Any) -> list[Any]:
    from kivy.uix.button import ButtonBehavior

    return [w for w in _walk(root) if isinstance(w, ButtonBehavior)]


def _root(ctx: Any) -> Any:
    from kivy.core.window import Window

    return Window  # the screen and anything over it (a popup, the on-screen keyboard)


def find_button(ctx: Any, text: str, root: Any = None, *, touchable_only: bool = True) -> Any:
    found = [b for b in buttons(root or _root(ctx)) if getattr(b, "text", None) == text]
    ok = [b for b in found if touchable(b)] if touchable_only else found
    if not ok:
        shown = [b.text for b in buttons(root or _root(ctx)) if touchable(b) and getattr(b, "text", "")]
        state = "not on screen or disabled" if found else "not there"
        raise AssertionError(f"button {text!r} is {state} on {ctx.app.root.current}; touchable: {shown}")
    return ok[0]


def small_text(root: Any) -> list[str]:
    """Visible labels whose font is under the minimum text size."""
    from kivy.uix.label import Label

    least = min_text_px()
    out = []
    for w in _walk(root):
        if isinstance(w, Label) and w.text and _visible(w) and w.font_size < least - 0.5:
            rect = _window_rect(w)
            clip = _clip_rect(w)
            if min(rect[2], clip[2]) - max(rect[0], clip[0]) > 1 and min(rect[3], clip[3]) - max(rect[1], clip[1]) > 1:
                out.append(f"text under {least:.0f} px: {w.text[:40]!r} at {w.font_size:.0f} px")
    return out


# -- what the prompt offers ---------------------------------------------------------
def _same(a: Any, b: Any) -> bool:
    from companion.events import thaw

    return a.type == b.type and thaw(a.payload) == thaw(b.payload) and (a.player or None) == (b.player or None)


def offered(ctx: Any) -> dict[str, Any]:
    """What the Table must let a finger answer now (empty off the Table)."""
    app = ctx.app
    s = app.session
    if s is None or app.root.current != "table" or s.outcome() is not None:
        return {}
    from ui.offers import legal_as_choices

    table = app.root.get_screen("table")
    if table.mode == "whistle":  # "Who blew?", opened by the Whistle button: its answers are the offer
        names = [f"{n} blew" for n in s.players()] + ["Nobody: cancel"]
        return {"faces": [], "choices": [], "picture": [], "counts": None, "texts": names}
    prompt = s.prompt()
    handled = frozenset(getattr(table.board, "handles", frozenset()))
    choices = prompt.choices or legal_as_choices(s, prompt, handled)
    picture: list[Any] = []
    if handled & set(prompt.expects):
        legal = s.game.legal_actions(s.state)
        picture = [e for e in legal if e.type in handled]
    req = table._entry_request(prompt.dice)
    return {
        "faces": list(req[2]) if req is not None else [],
        "choices": [c for c in choices if c.type not in handled],
        "picture": picture,
        "counts": getattr(prompt, "counts", None),
        "texts": [],
    }


def unreachable(ctx: Any) -> list[str]:
    """Offered answers a finger can neither see without scrolling nor enter on the picture."""
    want = offered(ctx)
    if not want:
        return []
    table = ctx.app.root.get_screen("table")
    shown = [b for b in buttons(table) if touchable(b)]
    actions = [getattr(b, "action", None) for b in shown]
    texts = {b.text for b in shown}
    pad = getattr(table, "pad", None)  # (choices the number pad enters, its buttons)
    padded = list(pad[0]) if pad and all(touchable(b) for b in pad[1]) else []
    grouped = [c for g, members in getattr(table, "groups", {}).items() if touchable(g) for c in members]
    problems = []
    for face in want["faces"]:
        if ("face", face) not in actions:
            problems.append(f"die face {face!r} not visible")
    for c in want["choices"]:
        if ("choice", c) in actions or c in padded or c in grouped:  # prompts are made anew: compared by value
            continue
        if not any(a and a[0] == "choice" and _same(a[1], c) for a in actions) and c.label not in texts:
            problems.append(f"choice {c.label!r} not visible without scrolling")
    for text in want["texts"]:
        if text not in texts:
            problems.append(f"answer {text!r} not visible without scrolling")
    counts = want["counts"]
    if counts is not None:
        for key, label in counts.fields:
            if not any(a == ("count", key, d) for a in actions for d in (-1, +1)):
                problems.append(f"count {label!r} has no visible − / + buttons")
    if want["picture"]:
        offers = getattr(table.board, "touch_offers", None)
        if offers is None:
            problems.append(f"picture handles {sorted(table.board.handles)} but declares no touch_offers")
        else:
            on_picture = list(offers(ctx.app.session))
            for e in want["picture"]:
                if not any(_same(e, o) for o in on_picture):
                    problems.append(f"legal {e.type} {dict(e.payload)} not offered on the picture")
    return problems


def problems(ctx: Any) -> list[str]:
    """Every check on the screen as it is drawn now (no screenshot)."""
    from ui import theme

    root = ctx.app.root.current_screen
    found = layout_check(root, theme.touch_size()) + small_text(root) + unreachable(ctx)
    return list(dict.fromkeys(found))


def check_screen(ctx: Any, name: str) -> list[str]:
    """Screenshot ``name`` and return every problem on the screen shown."""
    ctx.shot(name)
    return problems(ctx)


def checked(ctx: Any, name: str) -> list[str]:
    """``check_screen``, collecting the problems (by screenshot name) in ``ctx.result["touch_problems"]``."""
    found = check_screen(ctx, name)
    if found:
        ctx.result.setdefault("touch_problems", {})[name] = found
    return found


class Steps:
    """Every check after every touch, for a scenario that plays a whole game::

        steps = Steps(ctx)
        yield from steps.touch(touch_text(ctx, "Start game"))   # touch, then check the new screen
        yield from steps.check("fleeced-table")                 # check and keep a screenshot by name

    Problems land in ``ctx.result["touch_problems"]`` by step (with a
    ``problem-step-NNN.png`` screenshot); ``ctx.result["screens_checked"]`` counts
    the checks.  A problem is looked at again after a pause (a busy machine may
    not have laid the new screen out yet) and reported only if it stays.
    """

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.n = 0
        ctx.result.setdefault("touch_problems", {})
        ctx.result["screens_checked"] = 0

    def check(self, name: str | None = None) -> Iterator[float]:
        self.n += 1
        self.ctx.result["screens_checked"] += 1
        label = name or f"step-{self.n:03d}"
        yield from settle(self.ctx)
        found = problems(self.ctx)
        for _ in range(3):
            if not found:
                break
            yield 0.5
            found = problems(self.ctx)
        if name or found:
            self.ctx.shot(label if name else f"problem-{label}")
        if found:
            self.ctx.result["touch_problems"][f"{label} ({self.ctx.app.root.current})"] = found

    def touch(self, step: Iterator[float]) -> Iterator[float]:
        yield from step
        yield from self.check()


# -- touching -------------------------------------------------------------------
def _snapshot() -> tuple[Any, ...]:
    from kivy.core.window import Window

    return tuple((id(b), getattr(b, "text", ""), _window_rect(b)) for b in buttons(Window) if _visible(b))


def settle(ctx: Any, timeout: float = 3.0) -> Iterator[float]:
    """Wait until no redraw is pending and the buttons stay put for a frame.

    On a busy machine a redraw and its layout can lag a touch: a ScrollView
    hands a tap to the widget under the finger only when the finger lifts, so
    a touch aimed at a button not yet laid out lands on whatever is there then.
    """
    import time

    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        trigger = getattr(ctx.app, "_redraw", None)
        pending = bool(getattr(trigger, "is_triggered", False))
        now = _snapshot()
        if not pending and now == last:
            return
        last = now
        yield 0.05


def _press(x: float, y: float, hold: float = 0.08) -> Iterator[float]:
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    yield hold  # shorter than ScrollView's scroll_timeout: a tap, not a drag
    touch.touch_up()
    # A ScrollView hands a tap to its children 0.2 s after the release; then the throttled redraw.
    yield 0.45


def touch(ctx: Any, widget: Any) -> Iterator[float]:
    """A finger on the widget's centre once the screen has settled; refused if a finger could not touch it."""
    yield from settle(ctx)
    if not touchable(widget):
        raise AssertionError(f"cannot touch {getattr(widget, 'text', widget)!r}: disabled, hidden or not wholly on screen")
    x, y = widget.to_window(*widget.center)
    yield from _press(x, y)


def touch_text(ctx: Any, text: str, root: Any = None) -> Iterator[float]:
    yield from settle(ctx)
    yield from touch(ctx, find_button(ctx, text, root))


def touch_at(ctx: Any, widget: Any, local: tuple[float, float]) -> Iterator[float]:
    """A finger at a point of a widget (the picture), in the widget's own coordinates."""
    if not on_screen(widget) and not _visible(widget):
        raise AssertionError(f"cannot touch {widget!r}: not shown")
    x, y = widget.to_window(*local)
    from kivy.core.window import Window

    if not (0 <= x <= Window.width and 0 <= y <= Window.height):
        raise AssertionError(f"point {local} of {widget!r} is off the window at {(x, y)}")
    yield from _press(x, y)


def _entry_buttons(ctx: Any) -> list[Any]:
    table = ctx.app.root.get_screen("table")
    return [b for b in buttons(table) if touchable(b) and getattr(b, "action", None)]


def touch_face(ctx: Any, face: Any) -> Iterator[float]:
    """A die face on the Table's dice pad."""
    yield from settle(ctx)
    for b in _entry_buttons(ctx):
        if b.action == ("face", face):
            yield from touch(ctx, b)
            return
    raise AssertionError(f"no visible die face {face!r}; shown: {[b.text for b in _entry_buttons(ctx)]}")


def touch_choice(ctx: Any, label: str) -> Iterator[float]:
    """The Table's button for the prompt's choice with this label (opening its group first if it is in one)."""
    table = ctx.app.root.get_screen("table")
    yield from settle(ctx)
    for b in _entry_buttons(ctx):
        if b.action[0] == "choice" and b.action[1].label == label:
            yield from touch(ctx, b)
            return
    for group, members in getattr(table, "groups", {}).items():
        if touchable(group) and any(c.label == label for c in members):
            yield from touch(ctx, group)
            yield from touch_choice(ctx, label)
            return
    raise AssertionError(f"no visible choice {label!r}; shown: {[b.text for b in _entry_buttons(ctx)]}")


def touch_number(ctx: Any, n: int) -> Iterator[float]:
    """A whole number on the Table's number pad, digit by digit, then its Enter button."""
    for digit in str(n):
        yield from settle(ctx)
        yield from touch(ctx, next(b for b in _entry_buttons(ctx) if b.action == ("digit", int(digit))))
    yield from settle(ctx)
    yield from touch(ctx, next(b for b in _entry_buttons(ctx) if b.action[0] == "pad-enter"))


def touch_count(ctx: Any, key: str, times: int) -> Iterator[float]:
    """Step a ``Prompt.counts`` field up (times > 0) or down by touching its + or − button."""
    step = 1 if times > 0 else -1
    for _ in range(abs(times)):
        yield from settle(ctx)
        yield from touch(ctx, next(b for b in _entry_buttons(ctx) if b.action == ("count", key, step)))


def labels(root: Any) -> list[str]:
    """Visible texts (labels and buttons), top to bottom."""
    from .layout import texts

    return texts(root)


def all_on_screen(widgets: Iterable[Any]) -> bool:
    return all(on_screen(w) for w in widgets)


# -- Kivy's on-screen keyboard ----------------------------------------------------
def keyboard(ctx: Any) -> Any:
    """The VKeyboard on screen (ui.name_entry), or an AssertionError."""
    from kivy.core.window import Window
    from kivy.uix.vkeyboard import VKeyboard

    found = [w for w in _walk(Window) if isinstance(w, VKeyboard) and _visible(w)]
    if not found:
        raise AssertionError(f"no on-screen keyboard on {ctx.app.root.current}")
    return found[0]


def _key_centre(vk: Any, char: str) -> tuple[float, float]:
    layout = vk.available_layouts[vk.layout]
    for line in range(1, layout["rows"] + 1):
        keys = layout[f"{vk.layout_mode}_{line}"]
        for i, key in enumerate(keys):
            if key[1] == char or (char == " " and key[2] == "spacebar"):
                (x, y), (w, h) = vk.layout_geometry[f"LINE_{line}"][i]
                return vk.to_window(*vk.to_parent(x + w / 2, y + h / 2))  # a Scatter: its own transform first
    raise AssertionError(f"no key {char!r} on the {vk.layout} keyboard")


def keyboard_keys_small(ctx: Any) -> list[str]:
    """Keys of the on-screen keyboard under the touch size (in window pixels)."""
    from ui import theme

    vk = keyboard(ctx)
    least = theme.touch_size() * 0.9  # a keyboard's keys may touch: 43 px of key and its share of the gaps
    out = []
    for line in range(1, vk.available_layouts[vk.layout]["rows"] + 1):
        for (_x, _y), (w, h) in vk.layout_geometry[f"LINE_{line}"]:
            if w * vk.scale < least or h * vk.scale < least:
                out.append(f"keyboard key {w * vk.scale:.0f}x{h * vk.scale:.0f} px, under {least:.0f}")
                break
    return out


def type_on_keyboard(ctx: Any, text: str, clear: bool = False) -> Iterator[float]:
    """Type lower-case text key by key on the on-screen keyboard (the name editor capitalises names)."""
    if clear:
        yield from touch_text(ctx, "Clear")
    vk = keyboard(ctx)
    for ch in text.lower():
        x, y = _key_centre(vk, ch)
        yield from _press(x, y, hold=0.05)
