"""Reads of the organizers' notifications, and what each says in the reader's language.

Responsible for: ``notifications_for_tournament`` (a tournament's notifications, newest first;
the caller has checked that the reader organizes it) and ``notification_text``: the sentence a
notification says, rendered from its ``kind`` (the message id) and ``params`` in the active
language — the page's (the language menu, the browser's) or the API call's
(``Accept-Language``). A row written before it had ``params`` shows its stored English ``text``.

Kinds: ``round_complete`` (services.results.notifications: every match or Mus francés table of a
round is confirmed) and ``bracket_conflict`` (services.rounds.bracket_advance: a correction
contradicts a later result; its params hold the draw's error as message id, code and params,
rendered through the errors catalogs like any error).

Must not: decide when a notification is created (the services do) or check who may read it.

Terms: aviso (notification), ronda (round), fase (phase), cuadro (bracket).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from config.errors import message_render
from scoring.messages import Term
from tournaments.models import Notification, Tournament


def notifications_for_tournament(*, tournament: Tournament) -> QuerySet[Notification]:
    """The tournament's notifications, newest first (one query when listed)."""
    return Notification.objects.filter(tournament=tournament).order_by("-created_at", "-id")


def notification_text(notification: Notification) -> str:
    """What the notification says, in the active language."""
    params = notification.params or {}
    try:
        if notification.kind == "round_complete" and params:
            return _(
                "%(tournament)s: todas las partidas de %(phase)s, ronda %(round)s, están "
                "confirmadas. Ya se puede cerrar la ronda."
            ) % {
                "tournament": params["tournament"],
                "phase": params["phase"],
                "round": params["round"],
            }
        if notification.kind == "bracket_conflict" and params:
            return _("%(phase)s: %(error)s") % {
                "phase": params["phase"],
                "error": _error_text(params["error"]),
            }
    except (KeyError, TypeError, ValueError):
        pass  # params of an unexpected shape: the stored text still says it
    return notification.text


def _error_text(error: Mapping[str, Any]) -> str:
    """A draw error kept as message id, code and params, rendered like any error."""
    text = error["text"]
    if isinstance(text, list):  # a (singular, plural) pair comes back from JSON as a list
        text = tuple(text)
    params = dict(error.get("params", {}))
    for name in error.get("terms", ()):
        if isinstance(params.get(name), str):
            params[name] = Term(params[name])
    return message_render(text, params)
