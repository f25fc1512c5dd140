"""``{% load tournament_names %}``: the names of things as every page says them
(tournaments.web.names). ``{{ round|round_name }}``: "Cuartos de final", or "Ronda 3";
``{% languages_in_their_own_names as languages %}``: the language menu's entries."""

from __future__ import annotations

from django import template
from django.conf import settings

from tournaments.models import Phase, Round
from tournaments.web.names import round_name as _round_name

register = template.Library()


@register.filter
def round_name(rnd: Round, phase: Phase | None = None) -> str:
    """``{{ round|round_name }}``, or ``{{ round|round_name:phase }}`` with its phase at hand."""
    return _round_name(rnd, phase or None)


@register.simple_tag
def languages_in_their_own_names() -> list[tuple[str, str]]:
    """settings.LANGUAGES as written there, each language in its own name (Español, English):
    Django's get_available_languages translates them ("Inglés" on a Spanish page), and its
    name_local calls Basque "Basque"."""
    return list(settings.LANGUAGES)
