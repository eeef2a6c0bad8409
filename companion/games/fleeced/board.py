"""What is printed on the box: characters and their Homes, hideouts, card kinds, sheep kinds.

Names here are the event vocabulary's ids (``"post-office"``, ``"key-pub"``), so
they must stay stable once records exist.
"""

from __future__ import annotations

TOTAL_SHEEP = 40
HAND_LIMIT = 5
STARTING_HAND = 3

# The rulebook's character table, in its order: character -> Home.
HOMES: dict[str, str] = {
    "Wallace": "Wallace's Cheese Shop",
    "Gromit": "62 West Wallaby Street",
    "Wendolene": "Wendolene's Wools",
    "Shaun the Sheep": "Shaun's Field",
    "Preston": "Preston's Dog Food Factory",
    "Feathers McGraw": "Feather's Glue Factory",
}

# The seven sheep hideouts around the Village Green (the Police Station is not one).
HIDEOUTS: dict[str, str] = {
    "post-office": "Post Office",
    "cinema": "Cinema",
    "town-hall": "Town Hall",
    "museum": "Museum",
    "fish-and-chip-shop": "Fish & Chip Shop",
    "church": "Church",
    "pub": "Pub",
}

# Cheese Card kinds the table can tap.  The rulebook names these; "other"
# stands for any card whose effect the table resolves itself (for example the
# cards that protect a flock), so the engine only keeps the hand count right.
ROLL_TWO = "roll-2"
JUMP_TO = "jump-to"
SKELETON_KEY = "skeleton-key"
HARD_CHEESE = "hard-cheese"
OTHER = "other"
UNSEEN = "?"  # a card dealt at the start that nobody told the app about


def key_for(hideout: str) -> str:
    return f"key-{hideout}"


KEYS: dict[str, str] = {key_for(h): h for h in HIDEOUTS}
CARD_KINDS: tuple[str, ...] = (ROLL_TWO, JUMP_TO, *KEYS, SKELETON_KEY, HARD_CHEESE, OTHER)

CARD_TITLES: dict[str, str] = {
    ROLL_TWO: "Roll 2 x Dice",
    JUMP_TO: "Jump to…",
    **{k: f"Key to the {HIDEOUTS[h]}" for k, h in KEYS.items()},
    SKELETON_KEY: "Skeleton key",
    HARD_CHEESE: "Hard Cheese",
    OTHER: "another Cheese Card",
    UNSEEN: "a card dealt at the start",
}

# Sheep values, revealed only at the end (white sheep vary: 1, 2 or 3).
SHEEP_VALUES: dict[str, int] = {"white1": 1, "white2": 2, "white3": 3, "grey": 4, "black": 6}

# Where a move can end, as the table reports it.
SQUARE = "square"
CHEESE = "cheese"
HOME = "home"
DOORSTEP = "doorstep"
LANDINGS: tuple[str, ...] = (SQUARE, CHEESE, HOME, DOORSTEP)

GREEN = "green"  # the Village Green, as a rustle source
