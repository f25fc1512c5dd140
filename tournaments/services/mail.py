"""E-mails in the peña's language.

Responsible for: ``email_render``: a message's subject and text body from its pair of
templates (``templates/emails/<name>_subject.txt`` and ``templates/emails/<name>.txt``),
written in Spanish with ``{% translate %}`` / ``{% blocktranslate %}`` and rendered with the
language of the peña (``Club.language``) switched on; ``site_link``: an absolute link for a
message (``settings.SITE_URL`` and the path of a named page).

Why the peña's language and not each player's: a player is a row an organizer types (a name,
maybe an address) and has no account where they could choose one, and an organizer is a login
with no language of its own either; the peña knows what its players read, and one choice per
peña keeps every e-mail of a night alike. A player's language would be a field on every
player form for the same answer in nearly every peña.

Must not: send (the callers send, after their commit), decide who gets what, or hold a text
(the templates do).

Terms: peña (club), ronda (round), mesa (table), pareja (pair), descanso (bye).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

#: where a message's templates live, under templates/
FOLDER = "emails"


@dataclass(frozen=True)
class EmailText:
    subject: str
    body: str


def email_language(language: str | None) -> str:
    """``language`` if it is one of settings.LANGUAGES, else Spanish (the source)."""
    codes = {code for code, _name in settings.LANGUAGES}
    return language if language in codes else "es"


def email_render(*, name: str, context: dict[str, Any], language: str | None) -> EmailText:
    """Render the message ``name`` in ``language``: its subject on one line, its body as plain
    text (no HTML escaping: the templates turn autoescape off) without runs of blank lines."""
    with translation.override(email_language(language)):
        subject = render_to_string(f"{FOLDER}/{name}_subject.txt", context)
        body = render_to_string(f"{FOLDER}/{name}.txt", context)
    subject = " ".join(subject.split())
    lines = [line.rstrip() for line in body.strip().splitlines()]
    body = re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
    return EmailText(subject=subject, body=body + "\n")


def site_link(view: str, *args: Any) -> str:
    """The absolute address of the page ``view`` (a URL name) for a message."""
    return settings.SITE_URL + reverse(view, args=args)
