"""The rule set a table plays by.

Responsible for: one frozen value holding every option that changes how a hand, a game, a vaca
or a match is scored, with its defaults and its own validation. Where the rules sources disagree
(see docs/rules.md) the option is here, and the default is the Spanish page's (source 001)
unless noted.

Must not: know about tournaments, clubs or the database.

Terms: reyes (8 reyes: every 3 is a rey and every 2 an as; 4 reyes: 3 and 2 keep their value),
piedras (stones), juego (a game to 30/40 stones, and also the lance), vaca (a set of games),
31 real, deje (the stone a refused envite gives), envite, modalidad (``form``: pairs, trios,
individual, Mus francés), fichas (the chips of Mus francés).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

from scoring.betting import MAX_BET
from scoring.errors import FORM_TERMS, RuleSetError, shown


class Real31(enum.StrEnum):
    """Whether 31 real (a figure and three sietes) beats every other 31, whatever the seat."""

    OFF = "off"
    SOTA_777 = "sota_777"  # only sota+7+7+7 (source 000: "some others restrict it")
    FIGURE_777 = "figure_777"  # any card worth 10 with three sietes (source 003)
    #: sota+7+7+7 with the sota of the suit ``real_31_suit`` names (source 000: «only when the
    #: Jack is of a specific suit»)
    SOTA_OF_SUIT = "sota_of_suit"
    #: sota+7+7+7 with no siete of the sota's suit (source 000: «the sevens be of different
    #: suit than the Jack»)
    SOTA_APART = "sota_apart"


#: the 31 real variants that look at the suits, not only the ranks (scoring.hand reads the cards)
SUITED_REAL_31 = frozenset((Real31.SOTA_OF_SUIT, Real31.SOTA_APART))
REAL_31_SUITS = ("oros", "copas", "espadas", "bastos")


class Form(enum.StrEnum):
    """Who plays against whom (sources 002/004: «individually between two or more players, up
    to six, or between four or six, forming two sides»; 001: Mus francés)."""

    PAIRS = "pairs"  # 2 x 2, seats alternating between the sides
    TRIOS = "trios"  # 2 x 3, seats alternating between the sides
    INDIVIDUAL = "individual"  # 2 to 6 players, each for themself, stones as in pairs
    FRANCES = "frances"  # Mus francés: 3 to 6 players with chips (source 001)


#: the seats each form allows, and how many when the rule set does not say
FORM_SEATS = {
    Form.PAIRS: (4, 4, 4),
    Form.TRIOS: (6, 6, 6),
    Form.INDIVIDUAL: (2, 6, 4),
    Form.FRANCES: (3, 6, 4),
}
#: the forms where two sides play, as module constants: reading an enum's member from its class,
#: or hashing it, costs more than the rest of a hand's look-ups
_PAIRS, _TRIOS = Form.PAIRS, Form.TRIOS
#: what a Mus francés player may start with (source 001: «empezará con 10 o 20 fichas»)
FRANCES_CHIPS = (10, 20)


@dataclass(frozen=True, slots=True)
class RuleSet:
    kings: int = 8
    stones_per_game: int = 40
    games_per_vaca: int = 3
    vacas_per_match: int = 1
    real_31: Real31 = Real31.OFF
    dejes: bool = True
    min_envite: int = 2
    #: the suit of the sota in a 31 real under ``real_31=sota_of_suit`` ("" otherwise)
    real_31_suit: str = ""
    #: 4-5-6-7 shown before play scores one stone (source 000 «La Jugada del tío Perete»)
    tio_perete: bool = False
    #: a stone forgotten is lost once the deck is cut (source 004): a hand can no longer be
    #: corrected once the next hand is entered
    forgotten_stones_lost: bool = False
    #: who plays against whom; the fields after it only matter for some forms
    form: Form = Form.PAIRS
    #: how many players sit at the table (0: the form's usual number)
    players: int = 0
    #: Mus francés: the chips each player starts with (0: its usual 20); given for another form,
    #: where nobody counts chips, it is refused
    chips: int = 0

    def __post_init__(self) -> None:
        if (
            isinstance(self.kings, bool)
            or not isinstance(self.kings, int)
            or self.kings not in (4, 8)
        ):
            raise RuleSetError(
                "Kings must be 8 or 4, not {value}.", code="kings", value=shown(self.kings)
            )
        if _out_of_range(self.stones_per_game, 10, 100):
            raise RuleSetError(
                "Stones per game must be a whole number from {low} to {high}, not {value}.",
                code="stones_per_game",
                low=10,
                high=100,
                value=shown(self.stones_per_game),
            )
        if _out_of_range(self.games_per_vaca, 1, 9):
            raise RuleSetError(
                "Games to win a vaca must be a whole number from {low} to {high}, not {value}.",
                code="games_per_vaca",
                low=1,
                high=9,
                value=shown(self.games_per_vaca),
            )
        if _out_of_range(self.vacas_per_match, 1, 9):
            raise RuleSetError(
                "Vacas to win the match must be a whole number from {low} to {high}, not {value}.",
                code="vacas_per_match",
                low=1,
                high=9,
                value=shown(self.vacas_per_match),
            )
        if _out_of_range(self.min_envite, 1, 10):
            raise RuleSetError(
                "The minimum envite must be a whole number from {low} to {high}, not {value}.",
                code="min_envite",
                low=1,
                high=10,
                value=shown(self.min_envite),
            )
        if not isinstance(self.real_31, Real31):
            raise RuleSetError(
                "31 real must be one of: off, sota_777, figure_777, sota_of_suit, sota_apart "
                "(got {value}).",
                code="real_31",
                value=shown(self.real_31),
            )
        if not isinstance(self.dejes, bool):
            raise RuleSetError(
                "Dejes must be true or false, not {value}.", code="dejes", value=shown(self.dejes)
            )
        if self.real_31 is Real31.SOTA_OF_SUIT:
            if self.real_31_suit not in REAL_31_SUITS:
                raise RuleSetError(
                    "31 real with the sota of one suit needs that suit: oros, copas, espadas or "
                    "bastos (got {value}).",
                    code="real_31_suit",
                    value=shown(self.real_31_suit),
                )
        elif self.real_31_suit != "":
            raise RuleSetError(
                "A suit for 31 real is given only with real_31 'sota_of_suit' (got {value}).",
                code="real_31_suit_unused",
                value=shown(self.real_31_suit),
            )
        for name in ("tio_perete", "forgotten_stones_lost"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise RuleSetError(
                    "{option} must be true or false, not {value}.",
                    code="option_bool",
                    option=name,
                    value=shown(value),
                )
        if not isinstance(self.form, Form):
            raise RuleSetError(
                "The form must be one of: pairs, trios, individual, frances (got {value}).",
                code="form",
                value=shown(self.form),
            )
        if self.real_31 in SUITED_REAL_31 and self.form is not Form.PAIRS:
            raise RuleSetError(
                "31 real by the suit of its cards ({value}) is scored for two pairs only; in "
                "{form} choose off, sota_777 or figure_777.",
                code="real_31_form",
                value=self.real_31.value,
                form=FORM_TERMS[self.form.value],
            )
        low, high, usual = FORM_SEATS[self.form]
        if self.players == 0:
            object.__setattr__(self, "players", usual)
        if _out_of_range(self.players, low, high):
            if low == high:
                raise RuleSetError(
                    "The form {form} is played by {low} players, not {value}.",
                    code="players_fixed",
                    form=FORM_TERMS[self.form.value],
                    low=low,
                    value=shown(self.players),
                )
            raise RuleSetError(
                "The form {form} is played by {low} to {high} players, not {value}.",
                code="players_range",
                form=FORM_TERMS[self.form.value],
                low=low,
                high=high,
                value=shown(self.players),
            )
        if self.form is not Form.FRANCES:
            if isinstance(self.chips, bool) or self.chips != 0:
                raise RuleSetError(
                    "The option chips ({value}) is for Mus francés only, where each player "
                    "starts with chips; this rule set plays {form}: leave it out.",
                    code="chips_form",
                    value=shown(self.chips),
                    form=FORM_TERMS[self.form.value],
                )
        else:
            if self.chips == 0 and not isinstance(self.chips, bool):
                object.__setattr__(self, "chips", FRANCES_CHIPS[-1])
            if isinstance(self.chips, bool) or self.chips not in FRANCES_CHIPS:
                raise RuleSetError(
                    "In Mus francés each player starts with 10 or 20 chips, not {value}.",
                    code="chips",
                    value=shown(self.chips),
                )
        if self.tio_perete and self.form is not Form.PAIRS:
            # 000 names it for a player whose pair scores it; the other forms count no such
            # stone (docs/rules.md, «House rules»)
            raise RuleSetError(
                "The tío Perete (tio_perete) is counted only between two pairs; this rule set "
                "plays {form}: turn it off.",
                code="tio_perete_form",
                form=FORM_TERMS[self.form.value],
            )

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RuleSet:
        """Build a rule set from plain values (JSON); unknown keys are an error."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RuleSetError("The rule set must be an object of options.", code="format")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleSetError(
                "Unknown rule set option '{option}'; the options are {options}.",
                code="unknown_option",
                option=str(unknown[0])[:40],
                options=sorted(known),
            )
        values = dict(data)
        if "real_31" in values:
            raw = values["real_31"]
            if raw is False or raw is None:
                raw = "off"
            try:
                values["real_31"] = raw if isinstance(raw, Real31) else Real31(raw)
            except ValueError:
                raise RuleSetError(
                    "31 real must be one of: off, sota_777, figure_777, sota_of_suit, sota_apart "
                    "(got {value}).",
                    code="real_31",
                    value=shown(raw),
                ) from None
        if values.get("real_31_suit") is None:
            values.pop("real_31_suit", None)
        if "form" in values:
            raw = values["form"]
            try:
                values["form"] = raw if isinstance(raw, Form) else Form(raw)
            except ValueError:
                raise RuleSetError(
                    "The form must be one of: pairs, trios, individual, frances (got {value}).",
                    code="form",
                    value=shown(raw),
                ) from None
        return cls(**values)

    @property
    def sides(self) -> int:
        """How many sides play a hand: 2 in pairs and trios, one per player otherwise."""
        form = self.form
        return 2 if form is _PAIRS or form is _TRIOS else self.players

    @property
    def individual(self) -> bool:
        """Each player for themself (individual and Mus francés)."""
        form = self.form
        return form is not _PAIRS and form is not _TRIOS

    @property
    def max_game_stones(self) -> int:
        """The most stones a game can end with (the winner's; the loser ends below the target).

        The first to reach the target wins there and then (001, 004), so the winner had at
        most one stone less than the target before the stone count that won it; and one count
        pays at most what a bet can (a deje is the bet before a raise, an accepted bet its
        total; a bonus is a few stones): a bet has no ceiling in the sources (004 «Note»), so
        the bound is the largest bet the engine records, scoring.betting.MAX_BET. A game to 40
        ends at 10,038 at the most. scoring.match.check_game_stones is the one check against
        it, for games entered as final stones and for hands written as totals alone (a hand
        entered by its bets or lance points cannot pass it: each of its counts is a bet's).
        """
        return self.stones_per_game - 1 + MAX_BET

    @property
    def usual_game_stones(self) -> int:
        """Up to this a game's winner is an everyday score; above it (up to max_game_stones)
        only a big envite accepted near the end gets there, so a phone asks "¿seguro?" before
        sending it (the engine and the API accept it)."""
        return min(self.stones_per_game + USUAL_OVERSHOOT, self.max_game_stones)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kings": self.kings,
            "stones_per_game": self.stones_per_game,
            "games_per_vaca": self.games_per_vaca,
            "vacas_per_match": self.vacas_per_match,
            "real_31": self.real_31.value,
            "dejes": self.dejes,
            "min_envite": self.min_envite,
            "real_31_suit": self.real_31_suit,
            "tio_perete": self.tio_perete,
            "forgotten_stones_lost": self.forgotten_stones_lost,
        } | (
            {}  # pairs, as before forms existed: stored rule sets compare equal
            if self.form is Form.PAIRS
            else {"form": self.form.value, "players": self.players}
            | ({"chips": self.chips} if self.form is Form.FRANCES else {})
        )

    def hand_correctable(self, number: int, hands: int) -> bool:
        """Whether hand ``number`` (from 1) of the ``hands`` entered so far may still be
        corrected: always, unless a forgotten stone is lost once the deck is cut (source 004
        «perd le droit à le faire lorsque le jeu de cartes est coupé»), when only the last hand
        entered may, and only while no later hand has been entered."""
        return not self.forgotten_stones_lost or number >= hands


#: what the last lance of a game usually adds past the target: an envite of a few stones and the
#: bonuses of pares and juego (duples and 31 for both players are 6 each)
USUAL_OVERSHOOT = 10


def _out_of_range(value: Any, low: int, high: int) -> bool:
    return isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high


#: The rule sets clubs start from; a club can define more (clubs app).
PRESETS: dict[str, RuleSet] = {
    "8 reyes a 40": RuleSet(kings=8, stones_per_game=40),
    "4 reyes a 30": RuleSet(kings=4, stones_per_game=30),
    "4 reyes a 25": RuleSet(kings=4, stones_per_game=25),
}
