"""Property tests: whatever the table does, every piece and card is accounted
for, legal moves are accepted, and refused events name a rule and change nothing."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import IllegalAction
from companion.events import Event
from companion.games.pendleton_hill import GAME, HillState, Phase
from companion.games.pendleton_hill.moves import legal_moves
from companion.games.pendleton_hill.state import CARDS_PER_KIND, DECK_CARDS, SHEEP_PER_COLOUR, SHEPHERDS_PER_COLOUR

from .helpers import NAMES

PASTURES = ["1a", "1b", "1c", "1d", "2a", "2b", "2c", "3a", "3b", "4a", "9z"]
TYPES = ["draw", "place-shepherd", "place-sheep", "move-flock", "move-wolf", "play-card", "done"]


def check_invariants(s: HillState, before: HillState | None, sheepdogs_played: int, corrected: bool = False) -> None:
    n = len(s.names)
    for c in range(n):
        on_hill = sum(f.count(c) for f in s.flocks)
        in_pens = sum(f.count(c) for f in s.pens)
        assert s.sheep_pool[c] + on_hill + in_pens == SHEEP_PER_COLOUR, "every sheep accounted for"
        assert s.shepherd_pool[c] + sum(c in h for h in s.shepherds) == SHEPHERDS_PER_COLOUR, "every shepherd accounted for"
        assert s.sheep_pool[c] >= 0 and s.shepherd_pool[c] >= 0
    # Hands are secret: only the counts are known, and every card is one of them.
    cards = s.deck + sum(s.hands) + sum(s.played)
    if corrected:
        assert cards <= DECK_CARDS, "a correction never makes more cards than the game has"
    else:
        assert cards == DECK_CARDS, "every card accounted for"
    assert min(s.deck, *s.hands, *s.played) >= 0 and max(s.played) <= CARDS_PER_KIND
    assert sum(s.sheepdogs) + sheepdogs_played == n, "every Sheepdog card accounted for"
    assert 0 <= s.wolf < len(s.board.ids)
    assert all(0 <= len(f) <= 5 for f in s.flocks)
    assert not s.flocks[s.board.top], "no flock stays on the top pasture"
    for k, pen in enumerate(s.pens):
        assert len(pen) <= s.board.pen_spaces[k]
        assert not pen or k in s.pens_used
    if before is not None:
        # Every point scored is one matched pair, worth the tier of the pasture it was made on.
        gained = sum(s.scores) - sum(before.scores)
        worth = sum(s.board.value[p] * len(before.shepherds[p] - s.shepherds[p]) for p in range(len(s.board.ids)))
        assert gained == worth
        assert all(a >= b for a, b in zip(s.scores, before.scores, strict=True)), "scores never go down"
    json.dumps(GAME.state_json(s))  # the twin is always JSON


def fuzz_correction(rng: random.Random, s: HillState) -> Event:
    """A correction of one part of the table, often impossible (too many pieces or cards)."""
    names = [*s.names, "Zed"]
    key = rng.choice(["hill", "pens", "deck", "hands", "played", "sheepdogs", "scores", "wolf", "active"])
    count = {rng.choice(names): rng.randint(0, 7)}
    value = {
        "hill": {rng.choice(PASTURES): rng.choice([{"flock": count}, {"flock": None}, {"shepherds": rng.sample(names, 2)}])},
        "pens": {rng.choice(["1", "2", "3", "4"]): count},
        "deck": rng.choice([rng.randint(0, 61), {rng.choice(["1", "1+1", "2"]): rng.randint(0, 21)}]),  # old records: by kind
        "hands": {rng.choice(names): rng.choice([rng.randint(0, 5), {rng.choice(["1", "1+1", "2"]): rng.randint(0, 4)}])},
        "played": {rng.choice(["1", "1+1", "2", "3"]): rng.randint(0, 21)},
        "sheepdogs": {rng.choice(names): rng.choice([True, False])},
        "scores": {rng.choice(names): rng.randint(0, 40)},
        "wolf": rng.choice([*PASTURES, ["1a"], {}]),
        "active": rng.choice(names),
    }[key]
    if rng.random() < 0.1:
        value = rng.choice([[], 2.5, None, True, "Ann"])  # malformed: refused, never a crash
    return Event("correction", {key: value})


def fuzz_event(rng: random.Random, s: HillState) -> Event:
    """An event of the game's vocabulary with arbitrary, often illegal, contents."""
    names = [*s.names, "Zed"]
    if rng.random() < 0.1:
        return fuzz_correction(rng, s)
    t = rng.choice(TYPES)
    p: dict[str, object] = {}
    if t == "draw":
        p["card"] = rng.choice(["1", "1+1", "2", "3"])
    elif t == "play-card":
        p["card"] = rng.choice(["1", "1+1", "2", "sheepdog"])
        if rng.random() < 0.5:
            p["as"] = rng.choice(["1", "1+1", "2", "4"])
    elif t == "place-shepherd":
        p["pasture"] = rng.choice(PASTURES)
        if rng.random() < 0.7:
            p["colour"] = rng.choice(names)
    elif t == "place-sheep":
        p["pen"] = rng.choice([0, 1, 2, 3, 4, "1"])
        if rng.random() < 0.7:
            p["colour"] = rng.choice(names)
    elif t in ("move-flock", "move-wolf"):
        p["to"] = rng.choice(PASTURES)
        if t == "move-flock":
            if rng.random() < 0.3:
                p["pen"] = rng.choice([1, 2, 3])
            else:
                p["from"] = rng.choice(PASTURES)
        if rng.random() < 0.3:
            p["frighten"] = rng.choice(names)
    if p and rng.random() < 0.1:
        # A malformed value (a list, a table, a number where a name belongs): refused, never a crash.
        p[rng.choice(sorted(p))] = rng.choice([[], {}, {"x": 1}, 2.5, None, True])
    who = rng.choice([None, None, *s.names])
    return Event(t, p, player=who)


def play(seed: int, n: int, steps: int, fuzz: float, check_all_legal: bool = False, reported: bool = False) -> HillState:
    """Random play; ``reported``: as an old record, whose first event reports the first card dealt."""
    rng = random.Random(seed)
    setup = GAME.validate_setup({"players": list(NAMES[:n])})
    s = GAME.initial_state(setup)
    if reported:
        s = GAME.apply(s, Event("draw", {"card": rng.choice(["1", "1+1", "2"])}, player=NAMES[0]))
        assert s.reported and s.phase is Phase.DEAL
    dogs = 0
    corrected = False
    check_invariants(s, None, dogs)
    for _ in range(steps):
        if s.phase is Phase.OVER:
            break
        moves = legal_moves(s)
        assert moves, "a game that is not over always has a legal event"
        if check_all_legal:
            for t, p, who in moves:
                GAME.apply(s, Event(t, p, player=who))  # raises if the enumeration is wrong
        if rng.random() < fuzz:
            e = fuzz_event(rng, s)
            snapshot = GAME.state_json(s)
            try:
                new = GAME.apply(s, e)
            except IllegalAction as err:
                assert err.rule.startswith("Sheepdogs of Pendleton Hill, ") and len(err.rule) > 30
                assert GAME.state_json(s) == snapshot, "a refused event changes nothing"
                continue
            if e.type == "correction":
                # The table is always right, but never beyond the components: check and go on.
                dogs = n - sum(new.sheepdogs)  # the table may say a Sheepdog card is used or not
                corrected = True
                check_invariants(new, None, dogs, corrected)
                s = new
                continue
            if e.type == "draw" and new.reported and not s.reported:
                s = new  # a first event reporting the deal: an old record's game, played on as one
                continue
            # Accepted: it must be one of the enumerated legal events (same result).
            results = [GAME.apply(s, Event(t, p, player=who)) for t, p, who in moves]
            assert new in results, f"{e} was accepted but is not among the legal moves"
        else:
            t, p, who = rng.choice(moves)
            e = Event(t, p, player=who)
            new = GAME.apply(s, e)
        if e.type == "play-card" and e.get("card") == "sheepdog":
            dogs += 1
        check_invariants(new, s, dogs, corrected)
        s = new
    return s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 5))
def test_conservation_and_refusals_under_fuzzed_play(seed: int, n: int) -> None:
    play(seed, n, steps=300, fuzz=0.5)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 5))
def test_old_records_with_reported_draws_play_to_the_end(seed: int, n: int) -> None:
    s = play(seed, n, steps=2500, fuzz=0.2, reported=True)
    assert s.reported


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 5))
def test_every_enumerated_move_is_accepted(seed: int, n: int) -> None:
    play(seed, n, steps=120, fuzz=0.0, check_all_legal=True)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 5))
def test_random_games_end_with_every_card_played(seed: int, n: int) -> None:
    s = play(seed, n, steps=2000, fuzz=0.0)
    assert s.phase is Phase.OVER
    assert s.deck == 0 and not any(s.hands) and not any(s.sheepdogs) and s.played == (20, 20, 20)
    assert s.turn == 60 + n  # one turn per card: the deck and every Sheepdog card
    out = GAME.outcome(s)
    assert out is not None and sorted(out.ranking) == sorted(s.names)
    pts = [out.detail[name]["points"] for name in out.ranking]
    assert pts == sorted(pts, reverse=True)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 5), cut=st.integers(0, 200))
def test_replay_is_deterministic_and_corrections_round_trip(seed: int, n: int, cut: int) -> None:
    """Setting every piece to what the twin already shows changes nothing but the note."""
    s = play(seed, n, steps=cut, fuzz=0.0)
    j = GAME.state_json(s)
    payload = {
        "scores": j["scores"],
        "hill": {pid: {"flock": v["flock"], "shepherds": v["shepherds"]} for pid, v in j["hill"].items()},
        "wolf": j["wolf"],
        "pens": {str(p["pen"]): p["sheep"] for p in j["pens"]},
    }
    if s.phase in (Phase.DEAL, Phase.SETUP):
        # Before play begins a mistake is undone, never corrected.
        try:
            GAME.apply(s, Event("correction", payload))
        except IllegalAction as err:
            assert err.rule.endswith("Set Up")
        else:
            raise AssertionError("a correction during the deal or set up was accepted")
        return
    if s.phase is not Phase.OVER:
        payload["deck"] = j["deck_left"]
        payload["hands"] = {name: h["cards"] for name, h in j["hands"].items()}
        payload["played"] = j["played"]
        payload["sheepdogs"] = {name: h["sheepdog"] for name, h in j["hands"].items()}
    again = GAME.apply(s, Event("correction", payload))
    a, b = GAME.state_json(again), dict(j)
    a.pop("last")
    b.pop("last")
    assert a == b
    assert play(seed, n, steps=cut, fuzz=0.0) == s
