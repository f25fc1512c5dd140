"""Why a pairing is what it is: structured reasons with stable codes and an English rendering.

Responsible for: the `Reason` value every `Pairing` carries, the catalogue of reason codes, and
their English wording (`Reason.describe`). The web layer translates by ``code`` and ``params``,
so a code, once released, keeps its meaning and its parameter names; a new situation gets a new
code.

Must not: decide anything. The pairing modules choose reasons; this module only names them.

Terms: a *record* is a pareja's wins–losses in the phase (``"3–1"``, a bye counts as a win); a
*score group* is the set of entrants with the same record; to *float down* is to be paired with
an entrant of a lower score group; a *bye* is a round without an opponent.

Reason codes (parameters in brackets):

Swiss and elimination after N losses (a tres ceros):

- ``same_score`` [score]: both entrants have the same record, e.g. ``3–1``.
- ``float_down`` [score, opponent_score]: the better entrant meets one from a lower score group.
- ``same_losses`` [losses]: both entrants have lost the same number of matches.
- ``loss_float`` [losses, opponent_losses]: the entrants have lost different numbers of matches.
- ``not_met_before``: the two have not been paired before in this phase.
- ``rematch_unavoidable`` [times]: they have met ``times`` times already; no pairing of the
  round without a rematch exists (only in late rounds of small fields).
- ``same_club_avoided``: club-mates are kept apart this round and one of the two had a club-mate
  in their score group.
- ``same_club_unavoidable`` [club]: club-mates meet although they are to be kept apart.
- ``avoids_second_bye``: one of the two ranks below the entrant given the bye, but has had more
  byes, so plays instead.
- ``bye``: no opponent this round.
- ``lowest_ranked_eligible``: the bye goes to the lowest-ranked entrant with the fewest byes.
- ``bye_avoids_rematch``: the bye goes higher up because giving it to a lower-ranked eligible
  entrant would force a rematch.
- ``first_bye``: the entrant had no bye before.
- ``every_entrant_had_bye`` [byes]: every entrant has had ``byes`` byes, so one gets another.

Brackets (single and double elimination, groups then knockout):

- ``seeded`` [seed, opponent_seed]: first-round match between two seeded entrants.
- ``seeded_v_drawn`` [seed]: a seeded entrant meets an unseeded one placed by lot.
- ``drawn_by_lot``: both entrants are unseeded and were placed by lot.
- ``top_seed_bye`` [seed, entrants, size]: a top seed goes straight to the second round because
  the field does not fill the bracket.
- ``bye_by_lot`` [entrants, size]: an unseeded entrant drew a first-round bye.
- ``group_crossing`` [label, opponent_label]: groups-then-knockout crossing such as 1A v 2B.
- ``crossing_bye`` [label]: a group qualifier (e.g. 1A) goes straight to the second round.
- ``winner_of`` [match]: this slot is filled by the winner of bracket match ``match``.
- ``loser_of`` [match]: this slot is filled by the loser of bracket match ``match``.
- ``third_place``: the match for third place between the losing semi-finalists.
- ``grand_final``: winners' bracket champion v losers' bracket champion.
- ``grand_final_reset``: second grand final, because the losers' bracket champion won the first.

Round robin (liguilla):

- ``round_robin`` [group, round, rounds]: round ``round`` of ``rounds`` in group ``group``.
- ``round_robin_rest`` [group]: the group has an odd number of entrants; this one rests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["REASON_TEXT", "Reason"]

# English wording of every code, formatted with the reason's params.
REASON_TEXT: Mapping[str, str] = MappingProxyType(
    {
        "same_score": "same record {score}",
        "float_down": "floats down from {score} to meet {opponent_score}",
        "same_losses": "same number of losses ({losses})",
        "loss_float": "different numbers of losses ({losses} v {opponent_losses})",
        "not_met_before": "not met before",
        "rematch_unavoidable": (
            "rematch (met {times} time(s) before): no pairing without one exists"
        ),
        "same_club_avoided": "kept apart from a club-mate",
        "same_club_unavoidable": "same club ({club}): could not be kept apart",
        "avoids_second_bye": "avoids a second bye",
        "bye": "bye",
        "lowest_ranked_eligible": "lowest-ranked entrant with the fewest byes",
        "bye_avoids_rematch": "a bye lower down would have forced a rematch",
        "first_bye": "first bye",
        "every_entrant_had_bye": "every entrant has had {byes} bye(s)",
        "seeded": "seed {seed} v seed {opponent_seed}",
        "seeded_v_drawn": "seed {seed} v an unseeded entrant placed by lot",
        "drawn_by_lot": "unseeded, placed by lot",
        "top_seed_bye": "bye for seed {seed}: {entrants} entrants in a bracket of {size}",
        "bye_by_lot": "bye drawn by lot: {entrants} entrants in a bracket of {size}",
        "group_crossing": "{label} v {opponent_label}",
        "crossing_bye": "bye for {label}",
        "winner_of": "winner of {match}",
        "loser_of": "loser of {match}",
        "third_place": "third-place match",
        "grand_final": "grand final",
        "grand_final_reset": "grand final reset: the losers' bracket champion won the first",
        "round_robin": "group {group}, round {round} of {rounds}",
        "round_robin_rest": "rests this round: group {group} has an odd number of entrants",
    }
)


@dataclass(frozen=True)
class Reason:
    """One reason for a pairing: a stable ``code`` and the values its wording needs."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in REASON_TEXT:
            raise ValueError(f"unknown reason code {self.code!r}")
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items()))))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reason):
            return NotImplemented
        return self.code == other.code and dict(self.params) == dict(other.params)

    def __repr__(self) -> str:
        if not self.params:
            return f"Reason({self.code!r})"
        return f"Reason({self.code!r}, {dict(self.params)!r})"

    def describe(self) -> str:
        """The reason in English, e.g. ``same record 3–1``."""
        return REASON_TEXT[self.code].format(**self.params)
