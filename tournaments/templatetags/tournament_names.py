"""``{% load tournament_names %}``: the names of things as every page says them
(tournaments.web.names). ``{{ round|round_name }}``: "Cuartos de final", or "Ronda 3"."""

from __future__ import annotations

from django import template

from tournaments.models import Phase, Round
from tournaments.web.names import round_name as _round_name

register = template.Library()


@register.filter
def round_name(rnd: Round, phase: Phase | None = None) -> str:
    """``{{ round|round_name }}``, or ``{{ round|round_name:phase }}`` with its phase at hand."""
    return _round_name(rnd, phase or None)
