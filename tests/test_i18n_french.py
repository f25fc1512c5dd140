"""French speaks its own game words everywhere, as Basque does (docs/architecture.md,
"Languages"): hordago, not órdago beside it; vache for the vaca; ordinals as French writes
them (1er, 2e), not the Spanish 2º.

The words a player types into the table's text entry stay Spanish in the hint that lists
them (envido 5, a 7, órdago, no quiero): that is what the page reads.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from seasons.circuits.models import Circuit
from tests.test_i18n import po_entries

FRENCH = settings.BASE_DIR / "locale" / "fr" / "LC_MESSAGES" / "django.po"
#: the hint of the words the table's text entry reads: Spanish on purpose
TYPED = "envido 5, a 7, órdago"


def test_the_french_catalogue_has_no_spanish_game_word_left():
    left = []
    for entry in po_entries(FRENCH):
        if not entry.get("msgid") or TYPED in entry["msgid"]:
            continue
        for text in entry["msgstr"].values():
            words = re.sub(r"%\(\w+\)[sd]|\{\w+\}", "", text)  # not the placeholders
            if re.search(r"[óÓ]rdago|\bvacas?\b|º", words):
                left.append((entry["line"], entry["msgid"], text))
    assert not left, left


@pytest.mark.django_db
def test_french_pages_write_french_ordinals(client, shared_demo):
    circuit = Circuit.objects.get(slug="circuito-de-navarra-2026")
    page = client.get(f"/circuitos/{circuit.slug}/", HTTP_ACCEPT_LANGUAGE="fr")
    html = page.content.decode()
    assert page.status_code == 200 and "º" not in html
    assert re.search(r": 1er \d+", html) and re.search(r": [2-9]e \d+", html)
    spanish = client.get(f"/circuitos/{circuit.slug}/", HTTP_ACCEPT_LANGUAGE="es")
    assert re.search(r": 2\.º \d+", spanish.content.decode())
