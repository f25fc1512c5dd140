"""The live push of a championship's public page (config.live).

Responsible for: the topic a tournament's confirmed result reaches (``championship:<id>`` of
every championship whose stage holds the tournament) and the door of its stream
(``/live/campeonatos/<campeonato>/``), open to whom may see the page. Registered at the app's
ready(): tournaments import none of this.

Must not: publish by itself (tournaments' follow-ups publish, after their commit).
"""

from __future__ import annotations

from config.live import live_above_register, live_door_register, live_stream
from seasons.championships import selectors
from seasons.championships.models import Championship, StageTournament


def championship_topic(championship_id: int) -> str:
    return f"championship:{championship_id}"


def topics_of(tournament_id: int) -> list[str]:
    found = StageTournament.objects.filter(tournament_id=tournament_id).values_list(
        "championship_id", flat=True
    )
    return [championship_topic(pk) for pk in found.distinct()]


def _door(slug: str, *, user) -> str:
    return championship_topic(selectors.championship_get(slug=slug, user=user).pk)


def championship_live(championship: Championship):
    """The page's ``live`` (templates/_live.html), None when the push is off."""
    topic = championship_topic(championship.pk)
    return live_stream(f"campeonatos/{championship.slug}", topic)


def register() -> None:
    live_above_register(topics_of)
    live_door_register("campeonatos", 1, _door)
