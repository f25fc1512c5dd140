"""`manage.py demo`: what it loads, that a second run changes nothing, that --reset reloads the
same demo (the draws and results are seeded), and that it is fast."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from clubs import demo
from clubs.models import Club, Membership, Pair, Player
from seasons.circuits.models import Circuit
from seasons.interpenas.models import Interpena
from seasons.leagues.models import TeamLeague
from tournaments.models import (
    AuditEntry,
    Entry,
    HandEntry,
    Match,
    Notification,
    Phase,
    ResultSubmission,
    Round,
    StandingsSnapshot,
    Tournament,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def run_demo(django_capture_on_commit_callbacks):
    """Run the command as `make run` does. The test's transaction never commits: with
    ``tasks=True`` the on_commit callbacks (the result_confirmed tasks, run eagerly) are
    executed as a commit would; without, they are dropped (the demo refreshes the standings
    itself)."""

    def run(*args: str, tasks: bool = False) -> str:
        out = io.StringIO()
        with django_capture_on_commit_callbacks(execute=tasks):
            call_command("demo", *args, stdout=out)
        return out.getvalue()

    return run


def counts() -> dict[str, int]:
    return {
        "clubs": Club.objects.count(),
        "players": Player.objects.count(),
        "pairs": Pair.objects.count(),
        "tournaments": Tournament.objects.count(),
        "entries": Entry.objects.count(),
        "phases": Phase.objects.count(),
        "rounds": Round.objects.count(),
        "matches": Match.objects.count(),
        "submissions": ResultSubmission.objects.count(),
        "hands": HandEntry.objects.count(),
        "notifications": Notification.objects.count(),
    }


def standings_rows() -> list[tuple]:
    snapshot = StandingsSnapshot.objects.get(phase__name="Suizo")
    return [(r["rank"], r["name"], r["won"], r["stones_won"]) for r in snapshot.rows]


def test_the_demo_loads_a_peña_and_a_tournament_half_way_through(run_demo):
    output = run_demo(tasks=True)

    club = Club.objects.get(slug="pena-txoko")
    assert club.name == "Peña Txoko" and club.town == "Pamplona"
    # As the login page does: with the request (the lock-out of failed logins reads it).
    user = authenticate(
        RequestFactory().post("/accounts/login/"), username="organizador", password="amarrako"
    )
    assert user is not None
    assert Membership.objects.get(club=club, user=user).role == Membership.Role.OWNER
    assert Player.objects.filter(clubs=club).count() == 64
    assert Pair.objects.filter(club=club).count() == 32
    assert Pair.objects.filter(club=club).exclude(name="").count() == len(demo.PAIR_NAMES)

    # The peña's other tournaments are its league's divisions (tests/seasons/leagues) and the
    # circuit's and interpeña's (tests/seasons/circuits, tests/seasons/interpenas).
    tournament = Tournament.objects.get(club=club, name="Torneo de San Fermín")
    assert tournament.name == "Torneo de San Fermín"
    assert tournament.preset_name == "8 reyes a 40" and tournament.stones_per_game == 40
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.entries.filter(status=Entry.Status.CHECKED_IN).count() == 32

    swiss, knockout = tournament.phases.order_by("order")
    assert (swiss.format, swiss.rounds_planned, swiss.status) == ("swiss", 5, "running")
    first, second, third = swiss.rounds.order_by("number")
    for closed in (first, second):
        assert closed.status == Round.Status.CLOSED
        assert set(closed.matches.values_list("status", flat=True)) == {"confirmed"}
    assert third.status == Round.Status.PUBLISHED
    statuses = list(third.matches.order_by("table_number").values_list("status", flat=True))
    assert statuses.count("confirmed") == 6
    assert statuses.count("submitted") == 2 and statuses.count("disputed") == 1
    assert statuses.count("in_progress") == 1 and statuses.count("pending") == 6

    # Two tables of round 1 were entered hand by hand, and confirmed from the recorded hands.
    by_hand = Match.objects.filter(round=first, hands__isnull=False).distinct()
    assert by_hand.count() == 2
    assert all(m.status == Match.Status.CONFIRMED and m.result["finished"] for m in by_hand)
    assert HandEntry.objects.filter(match__round=third).count() == 5
    # Every confirmed result came from the table's link: a pair's entry and the other's.
    played = Match.objects.filter(round__in=(first, second)).exclude(kind=Match.Kind.BYE)
    assert not ResultSubmission.objects.filter(match__in=played).exclude(via="link").exists()
    confirmed = AuditEntry.objects.filter(action="result_confirmed", tournament=tournament)
    assert confirmed.count() == 16 + 16 + 6

    assert (knockout.format, knockout.source_id, knockout.qualifiers_per_group) == (
        "single_elimination",
        swiss.id,
        8,
    )
    assert knockout.status == Phase.Status.PENDING and not knockout.rounds.exists()

    rows = standings_rows()
    assert len(rows) == 32 and rows[0][2] == 3  # somebody has won all three so far
    notified = Notification.objects.filter(tournament=tournament, kind="round_complete")
    assert notified.count() == 2  # rounds 1 and 2, through the result_confirmed task

    # The standings show at once, to anybody (the tournament is public).
    response = APIClient().get(f"/api/v1/phases/{swiss.id}/standings")
    assert response.status_code == 200
    (table,) = response.json()["groups"]
    assert [(r["rank"], r["name"]) for r in table["rows"]] == [r[:2] for r in rows]

    # "Torneo de San Juan": the plan's picture, in its final phases (docs/plans.md).
    san_juan = Tournament.objects.get(club=club, slug="san-juan")
    phases = list(san_juan.phases.order_by("order").values_list("name", "status"))
    assert phases == [
        ("Suizo para todos", "finished"),
        ("Grupos por nivel", "finished"),
        ("Final grupo 1", "running"),
        ("Final grupo 2", "running"),
        ("Cuadro B", "running"),
    ]
    assert san_juan.entries.count() == 16 and len(san_juan.prizes) == 2
    page = APIClient().get(
        reverse("web:tournament", kwargs={"club_slug": club.slug, "tournament_slug": "san-juan"})
    )
    html = page.content.decode()
    assert page.status_code == 200 and "plan-phases" in html
    assert html.count('aria-current="step"') >= 1  # the picture shows where the event is

    assert "organizador / amarrako" in output
    assert f"/api/v1/phases/{swiss.id}/standings" in output
    assert "/circuitos/circuito-de-navarra-2026/" in output  # the circuit, a floor above
    assert "/interpenas/" in output and "/ligas-penas/pena-txoko/" in output


def test_a_second_run_changes_nothing_and_reset_loads_the_same_demo_again(run_demo):
    run_demo()
    before, rows = counts(), standings_rows()
    club_id = Club.objects.get(slug="pena-txoko").id

    output = run_demo()
    assert "already loaded" in output and "--reset" in output
    assert counts() == before

    output = run_demo("--reset")
    assert "Deleted the earlier demo" in output
    assert Club.objects.get(slug="pena-txoko").id != club_id
    assert counts() == before
    assert standings_rows() == rows  # seeded: the same draws and results
    # the season beyond the tournament too, once (seasons.circuits.demo, seasons.leagues.teams.demo)
    assert Circuit.objects.count() == 1 and Interpena.objects.filter(league_key="").count() == 1
    assert TeamLeague.objects.count() == 1
