"""Scoring by field (rulebook "D — Scoring Points"), with the rulebook's shearing example."""

from __future__ import annotations

from companion.games.shear_panic import GAME, scoring
from companion.games.shear_panic.flock import Flock

from .helpers import ev, in_fields

# The rulebook's example: one poor green sheep is alone in front of the Shearer.
SHEARING_EXAMPLE = [".G.", "RKB", "RGY", ".Y.", ".B."]


def test_shearing_example_scores_red_3_green_2_yellow_5_blue_5() -> None:
    grid, shorn = scoring.shear(Flock.from_rows(SHEARING_EXAMPLE).grid())
    assert shorn == ("green",)
    assert len(grid) == 8
    points = scoring.by_rows(grid, from_front=False)
    assert points.pop("black") == 1  # the black sheep scores for nobody
    assert points == {"blue": 5, "yellow": 5, "red": 3, "green": 2}


def test_shearing_example_through_the_engine_at_the_gate() -> None:
    # Green's Lamb Push brings the lone green to the front; the counter then
    # reaches the shearing gate (62 on the 4-player track).
    before = ["G..", "RKB", "RGY", ".Y.", ".B."]
    s = in_fields(before, active=1, counter=61)
    s = GAME.apply(s, ev("action", "Gus", tile="lamb-push-1", sheep=[0, 4], direction="right"))
    assert s.time_counter == 62
    assert GAME.scores(s) == {"Rita": 3, "Gus": 2, "Yan": 5, "Bea": 5}
    assert s.shorn == ("green",)
    assert len(s.flock) == 8
    j = GAME.state_json(s)
    assert j["field"] == "shearing" and j["shorn"] == ["green"]
    assert j["scoring"] == [
        {"reason": "shearing-gate", "points": {"Rita": 3, "Gus": 2, "Yan": 5, "Bea": 5}, "shorn": ["green"]}
    ]


def test_a_one_colour_flock_is_not_shorn() -> None:
    grid = Flock.from_rows(["R", "R"]).grid()
    out, shorn = scoring.shear(grid)
    assert shorn == () and out == grid
    assert scoring.by_rows(out, from_front=False) == {"red": 7}


def test_teammates_side_2_corner_1_apart_0() -> None:
    assert scoring.teammates(Flock.from_rows(["RR"]).grid(), "red") == 2
    assert scoring.teammates(Flock.from_rows(["R.", "BR"]).grid(), "red") == 1
    assert scoring.teammates(Flock.from_rows(["R.R"]).grid(), "red") == 0


def test_black_sheep_counts_each_own_sheep() -> None:
    assert scoring.black_sheep(Flock.from_rows(["RK.", "..R"]).grid(), "red") == 3  # side 2 + corner 1
    assert scoring.black_sheep(Flock.from_rows(["RK", ".R"]).grid(), "red") == 4  # two sides
    assert scoring.black_sheep(Flock.from_rows(["R.K"]).grid(), "red") == 0


def test_roger_rows_count_from_the_front() -> None:
    grid = Flock.from_rows(["R", "G", "Y", "B", "K"]).grid()
    assert scoring.by_rows(grid, from_front=True) == {"red": 4, "green": 3, "yellow": 2, "blue": 1}


def test_teammates_field_scores_the_active_player_after_the_counter_moves() -> None:
    # Yellow's two sheep end up touching by a corner: 1 point (rulebook "In the Fields" example).
    s = in_fields(["YR.", "BGY", "RKB"], active=2, counter=2)
    # The centre row is pushed to the left (from its right end): the yellow at its
    # end comes under the red, touching the other yellow by a corner.
    s = GAME.apply(s, ev("action", "Yan", tile="line-push-1", sheep=[1, 1], direction="left"))
    assert s.flock.rows() == [".YR.", "BGY.", ".RKB"]
    assert s.time_counter == 3
    assert GAME.scores(s) == {"Rita": 0, "Gus": 0, "Yan": 1, "Bea": 0}
    assert s.active == 3  # no panic on space 3: the next player's turn
