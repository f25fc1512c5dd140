"""A trios or Mus francés tournament stored with the tío Perete on (which its tables never
counted) has it turned off by migration 0007, so its rules compile again under the engine that
refuses the option outside pairs (``tio_perete_form``)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from scoring import RuleSetError
from tests.factories import TournamentFactory
from tournaments.models import Tournament
from tournaments.selectors.rounds import tournament_rules

pytestmark = pytest.mark.django_db

migration = importlib.import_module("tournaments.migrations.0007_tio_perete_pairs_only")


@pytest.mark.parametrize("kind", ["trios", "frances"])
def test_a_stored_tournament_of_another_form_with_the_tio_perete_compiles_after_it(kind):
    other = TournamentFactory(entrant_kind=kind)
    pairs = TournamentFactory(entrant_kind="pairs", tio_perete=True)
    alone = TournamentFactory(entrant_kind="individuals", tio_perete=True)  # tables of pairs
    Tournament.objects.filter(pk=other.pk).update(tio_perete=True)
    other.refresh_from_db()
    with pytest.raises(RuleSetError):
        tournament_rules(other)

    migration.perete_off(apps, None)

    for tournament in (other, pairs, alone):
        tournament.refresh_from_db()
    assert other.tio_perete is False and tournament_rules(other).tio_perete is False
    assert pairs.tio_perete is True and alone.tio_perete is True  # pairs keep theirs
