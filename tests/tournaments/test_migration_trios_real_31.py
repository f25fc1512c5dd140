"""A trios tournament stored with a suited 31 real (possible before a trio's match took hands)
plays the unsuited sota-and-three-sevens after migration 0006, so its rules compile again."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tests.factories import TournamentFactory
from tournaments.models import Tournament
from tournaments.selectors.rounds import tournament_rules

pytestmark = pytest.mark.django_db

migration = importlib.import_module("tournaments.migrations.0006_trios_unsuited_real_31")


def test_a_stored_trios_tournament_with_a_suited_31_real_compiles_after_the_migration():
    trios = TournamentFactory(entrant_kind="trios")
    pairs = TournamentFactory(entrant_kind="pairs", real_31="sota_of_suit", real_31_suit="oros")
    Tournament.objects.filter(pk=trios.pk).update(real_31="sota_of_suit", real_31_suit="oros")

    migration.unsuited(apps, None)

    trios.refresh_from_db()
    pairs.refresh_from_db()
    assert (trios.real_31, trios.real_31_suit) == ("sota_777", "")
    assert tournament_rules(trios).real_31.value == "sota_777"
    assert (pairs.real_31, pairs.real_31_suit) == ("sota_of_suit", "oros")  # pairs keep theirs
