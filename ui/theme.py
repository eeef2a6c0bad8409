"""Colours, player marks and sizes shared by every screen.

Colour is never the only cue: each player also has a shape (drawn, so no font
needs the glyph) and a name, and each colour has a name.  The colour-blind
palette is Okabe & Ito's, chosen to stay distinct under the common forms of
colour-vision deficiency.
"""

from __future__ import annotations

from dataclasses import dataclass

RGBA = tuple[float, float, float, float]


def _hex(code: str) -> RGBA:
    code = code.lstrip("#")
    return (int(code[0:2], 16) / 255, int(code[2:4], 16) / 255, int(code[4:6], 16) / 255, 1.0)


@dataclass(frozen=True)
class Swatch:
    name: str  # shown next to the colour, e.g. "Blue"
    rgba: RGBA


# Six player colours per palette, in the order players get them.
PALETTES: dict[str, tuple[Swatch, ...]] = {
    "standard": (
        Swatch("Red", _hex("d62828")),
        Swatch("Blue", _hex("1d4ed8")),
        Swatch("Yellow", _hex("e9c46a")),
        Swatch("Green", _hex("2a9d3f")),
        Swatch("Purple", _hex("7b2cbf")),
        Swatch("Orange", _hex("f77f00")),
    ),
    "colour-blind": (
        Swatch("Vermilion", _hex("d55e00")),
        Swatch("Blue", _hex("0072b2")),
        Swatch("Yellow", _hex("f0e442")),
        Swatch("Bluish green", _hex("009e73")),
        Swatch("Reddish purple", _hex("cc79a7")),
        Swatch("Sky blue", _hex("56b4e9")),
    ),
}

# Shapes drawn by ui.widgets.PlayerMark, one per seat, so two players never
# differ by colour alone.
SHAPES: tuple[str, ...] = ("circle", "triangle", "square", "diamond", "cross", "star")

# Background and text colours: dark table-side theme with high contrast.
BACKGROUND = _hex("1b1f24")
PANEL = _hex("262c33")
PANEL_LIGHT = _hex("333b44")
TEXT = _hex("f4f4f0")
MUTED = _hex("b8c0c8")
ACCENT = _hex("3a86ff")
ALERT = _hex("b5171b")
OK = _hex("2a9d3f")
WARN = _hex("c77700")

# 9 mm on the official 7" display (800 px over 154 mm) is 47 px; Kivy's own
# mm() trusts the reported DPI, which X servers often fake at 96, so the
# larger of the two is used.
MIN_TOUCH_MM = 9.0
MIN_TOUCH_PX = 48


def touch_size() -> float:
    from kivy.metrics import mm

    return max(float(mm(MIN_TOUCH_MM)), float(MIN_TOUCH_PX))


MIN_TEXT_PX = 14  # body text on the 800x480 panel (issue 17): no label is drawn smaller


def min_text() -> float:
    """The smallest font any text is drawn at, in pixels: 14 px at 800x480, scaled as
    the touch size is for a larger display, and by Kivy's font scale (``sp``), so a
    text-size setting that sets that scale raises the floor with every other text."""
    from kivy.metrics import sp

    return MIN_TEXT_PX * touch_size() / MIN_TOUCH_PX * float(sp(1))


def swatch(palette: str, index: int) -> Swatch:
    colours = PALETTES.get(palette, PALETTES["standard"])
    return colours[index % len(colours)]


def swatch_named(palette: str, name: str | None, index: int) -> Swatch:
    """The swatch a player chose by name, else the one for their seat.

    A chosen colour keeps its position across palettes, so switching to the
    colour-blind palette recolours everyone consistently.
    """
    if name:
        for pal in PALETTES.values():
            for i, s in enumerate(pal):
                if s.name.lower() == str(name).lower():
                    return swatch(palette, i)
    return swatch(palette, index)


def player_style(palette: str, colour: str | None, seat: int) -> tuple[Swatch, str]:
    """A player's colour and shape everywhere: a chosen colour and its shape (the legend's
    pairing, by the colour's place in the palette), else the seat's colour and shape."""
    if colour:
        for pal in PALETTES.values():
            for i, s in enumerate(pal):
                if s.name.lower() == str(colour).lower():
                    return swatch(palette, i), shape(i)
    return swatch(palette, seat), shape(seat)


def shape(index: int) -> str:
    return SHAPES[index % len(SHAPES)]


# The text size setting (Settings; ui.prefs): every FitLabel / FitButton starts
# its fitting from max_font times this, and still steps down to fit its box
# (never below its min_font), so Large enlarges text wherever there is room and
# never cuts any off.
TEXT_SIZES: dict[str, float] = {"normal": 1.0, "large": 1.3}
_text_scale = 1.0


def set_text_size(name: str) -> str:
    """Use a text size by name (an unknown one is Normal); the name in use."""
    global _text_scale
    name = name if name in TEXT_SIZES else "normal"
    _text_scale = TEXT_SIZES[name]
    return name


def text_scale() -> float:
    return _text_scale
