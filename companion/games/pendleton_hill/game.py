"""Sheepdogs of Pendleton Hill (3 to 5 players) on the Bellwether game contract.

The table reports every card dealt, drawn and played and every action; the
engine checks each against the rulebook, scores matches at once and ends the
game when the deck and all Sheepdog cards are played.  Card draws are chance
events reported by the table, like dice: the engine never shuffles or draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import ConfigError, SetupError
from companion.events import CORRECTION, Event
from companion.game import Choice, Game, Outcome, Prompt
from companion.wording import count

from . import actions, touch
from .board import board_for, default_board_data, validate_board_data
from .board_check import FILES as BOARD_FILES
from .board_check import PendletonHillBoard
from .corrections import correct
from .moves import legal_moves
from .state import (
    DECK_CARDS,
    HAND_SIZE,
    KINDS,
    SETUP_SHEPHERDS,
    SHEEP_PER_COLOUR,
    SHEPHERDS_PER_COLOUR,
    Card,
    HillState,
    Phase,
)

TIE_BREAKS = ("sheep on the hill", "sheep in the pens", "shepherds on the hill")


class PendletonHill(Game):
    name = "pendleton-hill"
    touch_events = touch.HANDLES  # touch where a piece goes
    title = "Sheepdogs of Pendleton Hill"
    rulebook = "sheepdogs-of-pendleton-hill.md"
    min_players = 3
    max_players = 5
    first_player = "the best wolf howl goes first, then to the left."
    board_files = BOARD_FILES  # the board facts the table checks once (board_check.py)

    def board_check(self, players: int, data: dict[str, dict[str, Any]] | None = None) -> PendletonHillBoard:
        return PendletonHillBoard(self, players, data or {})

    # -- setup -----------------------------------------------------------------
    def validate_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        s = super().validate_setup(setup)
        options = s["options"]
        unknown = sorted(set(options) - {"board"})
        if unknown:
            raise SetupError(f"options.{unknown[0]}", "only 'board' (the hill and pens as data)", options[unknown[0]])
        raw = options.get("board")
        try:
            # The resolved board is written into the setup, so a record replays on
            # the board it was played on even if the shipped default changes later.
            options["board"] = default_board_data() if raw is None else validate_board_data(raw, "options.board")
        except ConfigError as e:
            raise SetupError(f"options.board.{e.key}" if e.key != "(board)" else "options.board", e.expected, e.actual) from None
        return s

    def initial_state(self, setup: Mapping[str, Any]) -> HillState:
        board = board_for(setup["options"]["board"])
        n = len(setup["players"])
        # Set Up: "Place a shepherd from each player on the 7, and on each of the two 5 spaces."
        start = {p for p, t in enumerate(board.tier) if t >= 3}
        everyone = frozenset(range(n))
        pens_used = tuple(i for i in range(len(board.pen_spaces)) if n > 3 or i != board.black_pen)
        return HillState(
            setup=setup,
            board=board,
            names=tuple(p["name"] for p in setup["players"]),
            # The table deals three cards face down to each player: nothing to enter.
            phase=Phase.SETUP,
            active=0,
            turn=0,
            flocks=((),) * len(board.ids),
            shepherds=tuple(everyone if p in start else frozenset() for p in range(len(board.ids))),
            wolf=board.wolf_start,
            pens=((),) * len(board.pen_spaces),
            pens_used=pens_used,
            sheep_pool=(SHEEP_PER_COLOUR,) * n,
            shepherd_pool=(SHEPHERDS_PER_COLOUR - len(start),) * n,
            scores=(0,) * n,
            deck=DECK_CARDS - HAND_SIZE * n,
            hands=(HAND_SIZE,) * n,
            played=(0, 0, 0),
            sheepdogs=(True,) * n,
        )

    # -- play --------------------------------------------------------------------
    def apply(self, state: HillState, event: Event) -> HillState:
        s = state
        if event.type == CORRECTION:
            return correct(self, s, event.payload)
        if s.phase is Phase.OVER:
            raise self.refuse("the game is over: every card has been played", "Winning the Game")
        if event.type == "draw" and not s.reported:
            if s.phase is Phase.SETUP and s.turn == 0 and s.placed == 0:
                s = actions.reported_deal(s)  # a record from before hands were secret: it reports the deal
            else:
                raise self.refuse(
                    "hands are secret: only the card played is entered, and the replacement draw is counted by itself",
                    "Sequence of Play",
                )
        if event.player is not None and event.player != s.names[s.active]:
            doing = "to receive the next card" if s.phase is Phase.DEAL else "turn"
            raise self.refuse(f"it is {s.names[s.active]}'s {doing}, not {event.player}'s", "Sequence of Play")
        t, payload = event.type, event.payload
        expected = _EXPECTS[s.phase]
        if t not in expected:
            raise self.refuse(f"now {self._needs(s)}; a {t!r} event does not fit ({', '.join(expected)} expected)", _RULES[s.phase])
        if t == "draw":
            return actions.draw(self, s, payload)
        if t == "place-shepherd":
            return actions.place_shepherd(self, s, payload)
        if t == "play-card":
            return actions.play_card(self, s, payload)
        if t == "place-sheep":
            return actions.place_sheep(self, s, payload)
        if t == "move-flock":
            return actions.move_flock(self, s, payload)
        if t == "move-wolf":
            return actions.move_wolf(self, s, payload)
        return actions.done(self, s)

    def _needs(self, s: HillState) -> str:
        who = s.names[s.active]
        return {
            Phase.DEAL: f"{who} is dealt a card",
            Phase.SETUP: f"{who} places a shepherd",
            Phase.CARD: f"{who} plays a card",
            Phase.ACTION: f"{who} acts with the card played",
            Phase.DRAW: f"{who} draws a replacement card",
            Phase.OVER: "the game is over",
        }[s.phase]

    # -- what to ask -----------------------------------------------------------------
    def legal_actions(self, state: HillState) -> list[Event]:
        return [Event(t, p, player=who) for t, p, who in legal_moves(state)]

    def prompt(self, state: HillState) -> Prompt:
        s = state
        if s.phase is Phase.OVER:
            out = self.outcome(s)
            assert out is not None
            return Prompt(None, f"The game is over: {_winners(out)}.", "Winning the Game", alert=out.tie_break)
        who = s.names[s.active]
        moves = legal_moves(s)
        choices = tuple(Choice(_label(s, t, p), t, p, who) for t, p, who in moves)
        expects = _EXPECTS[s.phase] + (CORRECTION,)
        alert = s.note if s.news else None
        if s.phase is Phase.DEAL:
            dealt = s.placed // len(s.names) + 1
            text = f"Deal {who} their card {dealt} of {HAND_SIZE}."
        elif s.phase is Phase.SETUP:
            n = s.placed // len(s.names) + 1
            text = f"{who}: place one of your shepherds on a pasture without one of your shepherds ({n} of {SETUP_SHEPHERDS})."
        elif s.phase is Phase.CARD:
            drew = "" if s.drew is None else f"{s.names[s.drew]} draws a card. "
            held = s.hands[s.active]
            if not held:
                text = f"{drew}{who}: play your Sheepdog card, the only card you hold, as a 1, 1+1 or 2."
            elif s.sheepdogs[s.active]:
                text = f"{drew}{who}: play a card ({held} in hand) or your Sheepdog card."
            else:
                text = f"{drew}{who}: play a card ({held} in hand)."
        elif s.phase is Phase.DRAW:
            text = f"{who}: draw a replacement card from the deck."
        elif [t for t, _, _ in moves] == ["done"]:
            text = f"{who}: nothing more that your card allows is possible now; say done."
        else:
            text = f"{who}: {_card_text(s)}"
        # Points scored are good news; a sheep the wolf frightened off is a loss; a correction is neither.
        tone = "info" if not alert else "good" if "scored" in alert else "penalty" if "frightened" in alert else "info"
        return Prompt(who, text, _rule_now(s), expects=expects, choices=choices, alert=alert, tone=tone)

    def describe(self, event: Event) -> str | None:
        return touch.describe(event)

    # -- results -----------------------------------------------------------------
    def scores(self, state: HillState) -> dict[str, int]:
        return dict(zip(state.names, state.scores, strict=True))

    def figures(self, state: HillState) -> dict[str, dict[str, int]]:
        """The tie-break figures per player, in the rulebook's order."""
        s = state
        return {
            name: {
                "points": s.scores[c],
                "sheep on the hill": sum(f.count(c) for f in s.flocks),
                "sheep in the pens": sum(f.count(c) for f in s.pens),
                "shepherds on the hill": sum(c in here for here in s.shepherds),
            }
            for c, name in enumerate(s.names)
        }

    def outcome(self, state: HillState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        fig = self.figures(state)
        order = ("points", *TIE_BREAKS)

        def key(name: str) -> tuple[int, ...]:
            return tuple(-fig[name][k] for k in order)

        ranking = tuple(sorted(state.names, key=key))  # stable: a full tie keeps seat order
        sentences = []
        for pts in sorted({fig[n]["points"] for n in ranking}, reverse=True):
            group = [n for n in ranking if fig[n]["points"] == pts]
            if len(group) < 2:
                continue
            parts = [f"{_and(group)} tied on {count(pts, 'point')}"]
            for level, tb in enumerate(TIE_BREAKS, start=1):
                parts.append(f"{tb}: " + ", ".join(f"{n} {fig[n][tb]}" for n in group))
                if len({key(n)[: level + 1] for n in group}) == len(group):
                    break
            else:
                parts.append("still tied after all three tie-breaks (listed in seat order)")
            sentences.append("; ".join(parts) + ".")
        shared = tuple(n for n in ranking if key(n) == key(ranking[0])) if ranking else ()  # still tied: a shared win
        return Outcome(ranking, " ".join(sentences) or None, detail=fig, winners=shared if len(shared) > 1 else ())

    def state_json(self, state: HillState) -> dict[str, Any]:
        s = state
        b = s.board
        names = s.names

        def sheep(flock: tuple[int, ...]) -> dict[str, int]:
            return {names[c]: flock.count(c) for c in sorted(set(flock))}

        kinds = [k.value for k in KINDS]
        now = s.now
        return {
            "deck_left": s.deck,
            "sheepdogs_left": sum(s.sheepdogs),
            "hill": {
                pid: {
                    "tier": b.tier[p],
                    "value": b.value[p],
                    "flock": sheep(s.flocks[p]) if s.flocks[p] else None,
                    "shepherds": [names[c] for c in sorted(s.shepherds[p])],
                    "wolf": p == s.wolf,
                }
                for p, pid in enumerate(b.ids)
            },
            "wolf": b.ids[s.wolf],
            "pens": [{"pen": k + 1, "spaces": b.pen_spaces[k], "sheep": sheep(s.pens[k])} for k in s.pens_used],
            "scores": self.scores(s),
            # Hands are secret: how many cards each holds, not which.
            "hands": {n: {"cards": s.hands[c], "sheepdog": s.sheepdogs[c]} for c, n in enumerate(names)},
            "played": dict(zip(kinds, s.played, strict=True)),
            "off_board": {n: {"sheep": s.sheep_pool[c], "shepherds": s.shepherd_pool[c]} for c, n in enumerate(names)},
            "turn": {
                "number": s.turn,
                "player": None if s.phase is Phase.OVER else names[s.active],
                "phase": s.phase.value,
                "card": None if now.card is None else now.card.value,
                "as": None if now.as_ is None else now.as_.value,
                "actions": now.actions,
                "wolf_steps": now.wolf_steps,
            },
            "last": s.note,
        }

    def turn_phase(self, state: HillState) -> tuple[int, str]:
        return (state.turn, state.phase.value)


_EXPECTS: dict[Phase, tuple[str, ...]] = {
    Phase.DEAL: ("draw",),
    Phase.SETUP: ("place-shepherd",),
    Phase.CARD: ("play-card",),
    Phase.ACTION: ("place-shepherd", "place-sheep", "move-flock", "move-wolf", "done"),
    Phase.DRAW: ("draw",),
    Phase.OVER: (),
}
_RULES: dict[Phase, str] = {
    Phase.DEAL: "Set Up",
    Phase.SETUP: "Set Up",
    Phase.CARD: "Sequence of Play",
    Phase.ACTION: "Actions",
    Phase.DRAW: "Sequence of Play",
    Phase.OVER: "Winning the Game",
}


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _winners(out: Outcome) -> str:
    """Who won; players still tied after all three tie-breaks share the win (the rulebook is silent)."""
    fig = out.detail
    order = ("points", *TIE_BREAKS)
    best = [n for n in out.ranking if all(fig[n][k] == fig[out.ranking[0]][k] for k in order)]
    if len(best) == 1:
        return f"{best[0]} wins"
    return f"{_and(best)} share the win, still tied after all three tie-breaks"


def _rule_now(s: HillState) -> str:
    if s.phase is Phase.ACTION and s.now.wolf_steps:
        return "The Wolf"
    if s.phase is Phase.ACTION:
        return {Card.ONE: 'The "1" Card', Card.ONE_PLUS_ONE: 'The "1+1" Card', Card.TWO: 'The "2" Card'}[s.now.as_]  # type: ignore[index]
    return _RULES[s.phase]


def _card_text(s: HillState) -> str:
    now = s.now
    played = "your Sheepdog card as a " if now.card is Card.SHEEPDOG else "a "
    if now.as_ is Card.ONE:
        return f"you played {played}1: take one action for any colour, your own included."
    if now.as_ is Card.ONE_PLUS_ONE:
        left = [
            w
            for w, done in (("one action for your own colour", now.own), ("one action for another player's colour, not yours", now.other))
            if not done
        ]
        return f"you played {played}1+1: take " + " and ".join(left) + " (never moving a flock that mixes your sheep with others')."
    if now.wolf_steps:
        return "the wolf may move one more space, or say done."
    if now.actions:
        return "take your second action involving your own colour, or say done."
    return f"you played {played}2: take two actions involving your own colour, or move the wolf up to two spaces."


def _label(s: HillState, t: str, p: Mapping[str, Any]) -> str:
    scare = f", frightening {p['frighten']}'s sheep" if "frighten" in p else ""
    if t == "draw":
        return "Card dealt" if s.phase is Phase.DEAL else "Replacement card drawn"
    if t == "play-card":
        return "Sheepdog as a " + p["as"] if p["card"] == Card.SHEEPDOG.value else f"Play a {p['card']}"
    if t == "place-shepherd":
        return f"{p.get('colour', s.names[s.active])}'s shepherd to {p['pasture']}"
    if t == "place-sheep":
        return f"{p['colour']}'s sheep into pen {p['pen']}"
    if t == "move-flock":
        src = f"pen {p['pen']}" if "pen" in p else p["from"]
        return f"Flock {src} to {p['to']}{scare}"
    if t == "move-wolf":
        return f"Wolf to {p['to']}{scare}"
    return "Done"
