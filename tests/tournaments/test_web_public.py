"""The public pages of a tournament through the test client: what is public and what is a
404, what a visitor reads (tables, results, standings with their tiebreaks, brackets, a pair's
matches, the big screen), and query counts that do not grow with the number of pairs.

Data is built with the services (phase_create, round_draw_generate, round_publish,
round_close, match_result_submit, bracket_advance, standings_refresh); results that only need
to exist are written on the Match rows and the standings refreshed, as the task would.
Rules (tests.factories.TournamentFactory): juegos a 40, 2 juegos por vaca, 1 vaca.
"""

from __future__ import annotations

import itertools

import pytest
from django.urls import reverse

from clubs.models import Pair, Player
from tests.factories import (
    ClubFactory,
    EntryFactory,
    MembershipFactory,
    TournamentFactory,
)
from tournaments.models import Entry, Match, Phase, Round, Tournament
from tournaments.services.results import match_result_submit
from tournaments.services.rounds import (
    bracket_advance,
    phase_advance,
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh
from tournaments.web.public.brackets import bracket_places as _place

pytestmark = pytest.mark.django_db

FIRST = ["Iñaki", "Mikel", "Ane", "Josu", "Maite", "Koldo", "Itziar", "Xabier", "Amaia", "Unai"]
LAST = ["Etxeberria", "Arrieta", "Goñi", "Zubiri", "Irigoyen", "Lasa", "Ezcurra", "Oroz"]
NAMES = itertools.cycle(itertools.product(FIRST, LAST))


# --- Building tournaments ---------------------------------------------------------------------


def entries_for(t: Tournament, count: int) -> list[Entry]:
    """Checked-in pairs with real names; every third pair has a name of its own."""
    out = []
    for i in range(count):
        one, two = (
            Player.objects.create(first_name=f, last_name=s) for f, s in (next(NAMES), next(NAMES))
        )
        pair = Pair.objects.create(
            player_one=one,
            player_two=two,
            club=t.club,
            name=f"Los de la mesa {i + 1}" if i % 3 == 0 else "",
        )
        out.append(
            EntryFactory(tournament=t, pair=pair, status=Entry.Status.CHECKED_IN, seed=i + 1)
        )
    return out


def running(**fields) -> tuple[Tournament, object]:
    fields.setdefault("status", Tournament.Status.RUNNING)
    fields.setdefault("tables_available", 0)
    fields.setdefault("venue", "Bar Txoko, Pamplona")
    t = TournamentFactory(**fields)
    return t, MembershipFactory(club=t.club).user


def decide(match: Match, winner_id: int, loser_games: int = 0) -> None:
    """A confirmed result on the row (what the results service leaves), 2 juegos to N."""
    a_wins = winner_id == match.entry_a_id
    match.status = Match.Status.CONFIRMED
    match.winner_id = winner_id
    match.games_a, match.games_b = (2, loser_games) if a_wins else (loser_games, 2)
    match.vacas_a, match.vacas_b = (1, 0) if a_wins else (0, 1)
    match.stones_a, match.stones_b = (80, 40 + loser_games * 20) if a_wins else (40, 80)
    match.save()


def play_round(rnd: Round, organizer, pick, *, close: bool = True) -> None:
    round_publish(round=rnd, actor=organizer)
    for m in rnd.matches.exclude(kind=Match.Kind.BYE):
        decide(m, pick(m), loser_games=m.id % 2)
    if close:
        round_close(round=rnd, actor=organizer)


def better_seed(entries: list[Entry]):
    seed = {e.id: e.seed for e in entries}
    return lambda m: min((m.entry_a_id, m.entry_b_id), key=seed.get)


def swiss(pairs: int, played: int = 1) -> tuple[Tournament, Phase, list[Entry], Round]:
    """A Swiss with ``played`` rounds closed and the next one published, in play."""
    t, organizer = running()
    entries = entries_for(t, pairs)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=4
    )
    for _ in range(played):
        play_round(
            round_draw_generate(phase=phase, actor=organizer), organizer, better_seed(entries)
        )
    current = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=current, actor=organizer)
    standings_refresh(phase=phase)
    return t, phase, entries, current


def knockout(pairs: int, fmt: str = "single_elimination", **options):
    """A bracket with its first round played and the second created by bracket_advance."""
    t, organizer = running()
    entries = entries_for(t, pairs)
    phase = phase_create(tournament=t, actor=organizer, name="Cuadro", format=fmt, **options)
    first = round_draw_generate(phase=phase, actor=organizer)
    play_round(first, organizer, better_seed(entries), close=False)
    bracket_advance(phase=phase)
    standings_refresh(phase=phase)
    phase.refresh_from_db()
    return t, phase, entries, organizer


def url(name: str, t: Tournament, *extra) -> str:
    return reverse(f"web:{name}", args=[t.club.slug, t.slug, *extra])


# --- Public and not public --------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"status": Tournament.Status.DRAFT},
        {"status": Tournament.Status.RUNNING, "is_public": False},
    ],
    ids=["draft", "private"],
)
def test_a_tournament_that_is_not_published_is_a_404_on_every_page_even_for_its_organizer(
    client, fields
):
    t, organizer = running(**fields)
    (entry,) = entries_for(t, 1)
    client.force_login(organizer)
    for name, extra in [
        ("tournament", ()),
        ("public-standings", ()),
        ("public-bracket", ()),
        ("public-pairs", ()),
        ("public-pair", (entry.id,)),
        ("public-screen", ()),
        ("public-screen-fragment", ()),
    ]:
        assert client.get(url(name, t, *extra)).status_code == 404, name
    listing = client.get(reverse("web:public-tournaments")).content.decode()
    assert t.name not in listing


def test_a_draft_round_is_not_shown_and_its_page_is_a_404(client):
    t, phase, entries, current = swiss(4, played=1)
    organizer = MembershipFactory(club=t.club).user
    for m in current.matches.all():
        decide(m, m.entry_a_id)
    round_close(round=current, actor=organizer)
    draft = round_draw_generate(phase=phase, actor=organizer)
    client.force_login(organizer)  # the venue's TV is often signed in as an organizer
    page = client.get(url("tournament", t)).content.decode()
    assert "Ronda 2" in page and "Ronda 3" not in page
    assert client.get(url("public-round", t, draft.id)).status_code == 404
    screen = client.get(url("public-screen", t)).content.decode()
    assert "Ronda 2" in screen and "Ronda 3" not in screen


def test_a_round_or_pair_of_another_tournament_is_a_404(client):
    t, _phase, _entries, current = swiss(4)
    other, _o, other_entries, other_round = swiss(4)
    assert client.get(url("public-round", t, other_round.id)).status_code == 404
    assert client.get(url("public-pair", t, other_entries[0].id)).status_code == 404
    assert client.get(url("public-round", t, current.id)).status_code == 200


def test_the_list_and_the_home_fragment_show_running_and_upcoming_tournaments(client):
    club = ClubFactory(name="Peña Txoko")
    TournamentFactory(club=club, name="Torneo de San Fermín", status=Tournament.Status.RUNNING)
    TournamentFactory(club=club, name="Liga de invierno", status=Tournament.Status.REGISTRATION)
    TournamentFactory(club=club, name="Borrador secreto", status=Tournament.Status.DRAFT)
    for name in ("public-tournaments", "public-home-fragment"):
        page = client.get(reverse(f"web:{name}")).content.decode()
        assert "Torneo de San Fermín" in page and "Liga de invierno" in page
        assert "Borrador secreto" not in page
        assert page.index("En juego") < page.index("Torneo de San Fermín") < page.index("Próximos")


def test_the_home_view_lists_the_tournaments_in_the_page_itself(client, rf):
    from django.contrib.auth.models import AnonymousUser

    from tournaments.web.public import home

    TournamentFactory(name="Torneo de San Fermín", status=Tournament.Status.RUNNING)
    request = rf.get("/")
    request.user = AnonymousUser()
    page = home(request).content.decode()
    assert "Torneo de San Fermín" in page and "data-live-src" not in page
    served = client.get("/").content.decode()  # "/" is this view
    assert "Torneo de San Fermín" in served and "data-live-src" not in served


# --- What the pages say -----------------------------------------------------------------------


def test_tournament_page_shows_the_header_the_rules_and_the_round_in_play(client):
    t, phase, entries, current = swiss(8, played=1)
    page = client.get(url("tournament", t)).content.decode()
    assert t.name in page and t.club.name in page and "Bar Txoko, Pamplona" in page
    for words in ("8 reyes", "juegos a 40 piedras", "2 juegos por vaca", "partidas a 1 vaca"):
        assert words in page
    assert "Ronda 2" in page and "en juego" in page
    # every table of the round in play, with both pairs
    for m in current.matches.select_related("entry_a__pair", "entry_b__pair"):
        assert f"<b>{m.table_number}</b>" in page
        assert str(m.entry_a.pair) in page and str(m.entry_b.pair) in page
    assert "por jugar" in page


def test_a_confirmed_result_shows_on_the_tables_and_the_standings(client):
    t, phase, entries, current = swiss(4, played=1)
    organizer = MembershipFactory(club=t.club).user
    match = current.matches.order_by("table_number").first()
    match_result_submit(
        match=match,
        side="organizer",
        payload={"games": [{"stones": [40, 22]}, {"stones": [31, 40]}, {"stones": [40, 12]}]},
        idempotency_key="web-public-1",
        version=match.version,
        via="account",
        actor=organizer,
    )
    standings_refresh(phase=phase)  # what the result_confirmed task does on commit
    page = client.get(url("tournament", t)).content.decode()
    assert '<b class="sc">2</b>' in page and '<b class="sc">1</b>' in page
    winner = str(match.entry_a.pair)
    assert f'class="tp won"><a href="{url("public-pair", t, match.entry_a_id)}">{winner}' in page
    standings = client.get(url("public-standings", t)).content.decode()
    assert winner in standings


@pytest.fixture
def rendered(monkeypatch) -> list[int]:
    """One item for each time a page builds a phase's standings tables."""
    from tournaments.web.public import display

    built: list[int] = []
    real = display.standings_view
    monkeypatch.setattr(display, "standings_view", lambda *a: built.append(1) or real(*a))
    return built


def test_the_standings_page_is_rendered_once_per_refresh_and_language(client, rendered):
    # Spectators reload the same standings over and over: the tables are rendered when the
    # snapshots change (or in another language), not on every read.
    t, phase, entries, current = swiss(8, played=1)
    first = client.get(url("public-standings", t)).content.decode()
    again = client.get(url("public-standings", t)).content.decode()
    english = client.get(url("public-standings", t), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert _tables(again) == _tables(first) and len(rendered) == 2  # Spanish once, English once
    assert "Orden de desempate" in first and "Pareja" in first
    assert "Tiebreak order" in english and ">Pair<" in english
    leader = phase.standings.get().rows[0]
    assert f">{leader['name']}</a>" in first

    # A correction moves the leader; the next refresh shows it, and the page follows.
    match = Match.objects.filter(round__phase=phase, winner_id=leader["entry_id"]).get()
    loser = match.entry_b_id if match.winner_id == match.entry_a_id else match.entry_a_id
    Match.objects.filter(pk=match.pk).update(winner=loser)
    standings_refresh(phase=phase)
    after = client.get(url("public-standings", t)).content.decode()

    assert _tables(after) != _tables(first) and len(rendered) == 3
    assert after.index(str(Entry.objects.get(pk=loser).pair)) < after.index(leader["name"])


def test_the_tournament_page_renders_its_standings_once_per_refresh(client, rendered):
    t, phase, entries, current = swiss(8, played=1)
    first = client.get(url("tournament", t)).content.decode()
    again = client.get(url("tournament", t)).content.decode()

    assert _tables(again) == _tables(first) and len(rendered) == 1
    assert phase.standings.get().rows[0]["name"] in _tables(first)
    assert "±P" not in _tables(first)  # compact: the full table is on the standings page


def _tables(page: str) -> str:
    return page[page.index('<table class="standings">') : page.rindex("</table>")]


def test_standings_say_which_tiebreak_separates_each_pair_from_the_one_above(client):
    t, phase, entries, current = swiss(4, played=1)
    page = client.get(url("public-standings", t)).content.decode()
    # Round 1: seeds 1 and 2 won 2–1 or 2–0 (loser_games = match id % 2), 3 and 4 lost.
    rows = phase.standings.get().rows
    assert [r["won"] for r in rows] == [1, 1, 0, 0]
    expected = {
        "game_difference": "por diferencia de juegos",
        "stone_difference": "por diferencia de piedras",
        "buchholz": "por Buchholz",
        "lots": "por sorteo",
    }
    for row in rows:
        if row["separated_by"] in expected:
            assert expected[row["separated_by"]] in page
    assert any(r["separated_by"] not in (None, "matches_won") for r in rows)
    assert "Orden de desempate:" in page and "partidas ganadas, Buchholz" in page


def test_a_liguilla_shows_one_table_per_group(client):
    t, organizer = running()
    entries = entries_for(t, 8)
    phase = phase_create(
        tournament=t, actor=organizer, name="Liguilla", format="round_robin", group_size=4
    )
    play_round(round_draw_generate(phase=phase, actor=organizer), organizer, better_seed(entries))
    standings_refresh(phase=phase)
    page = client.get(url("tournament", t)).content.decode()
    assert "Grupo A" in page and "Grupo B" in page
    assert page.count('class="standings"') == 2


def test_the_bracket_is_drawn_with_rounds_connectors_and_placeholders(client):
    t, phase, entries, _organizer = knockout(8, third_place=True)
    page = client.get(url("public-bracket", t)).content.decode()
    for title in ("Cuartos de final", "Semifinales", "Final", "Tercer y cuarto puesto"):
        assert title in page
    # 4 quarter-finals, 2 semi-finals (drawn), the final waits for them
    assert page.count('class="bm') == 7
    assert page.count(" out down") == 3 and page.count(" out up") == 3
    semis = Match.objects.filter(round__phase=phase, bracket_key__startswith="W2")
    for m in semis:  # the semi-finals' pairs are known from the quarter-finals
        assert str(m.entry_a.pair) in page and str(m.entry_b.pair) in page
        # so the final and the third-place match name them, not "Ganador de 2-1"
        either = f"{m.entry_a.pair} o {m.entry_b.pair}"
        assert page.count(either) == 2  # the final's slot and the third-place match's
    assert "Ganador de" not in page and "Perdedor de" not in page
    # the tournament page shows the bracket of the phase in play
    assert 'class="bracket"' in client.get(url("tournament", t)).content.decode()


def test_a_double_elimination_has_a_winners_and_a_losers_bracket_and_a_grand_final(client):
    t, phase, entries, _organizer = knockout(8, fmt="double_elimination")
    page = client.get(url("public-bracket", t)).content.decode()
    assert "Cuadro de ganadores" in page and "Cuadro de perdedores (repesca)" in page
    assert "Gran final" in page and "si hace falta" in page
    # the first round's losers drop into the repesca, named as soon as their result is in
    losers = page[page.index("Cuadro de perdedores") : page.index("Gran final")]
    first = Match.objects.filter(round__phase=phase, bracket_key__startswith="W1")
    for m in first.select_related("entry_a__pair", "entry_b__pair"):
        loser = m.entry_b if m.winner_id == m.entry_a_id else m.entry_a
        assert str(loser.pair) in losers
    # the second round waits for the first, whose pairs are known: named, not "Ganador de P1-1"
    repesca = Match.objects.get(round__phase=phase, bracket_key="L1-1")
    assert f"{repesca.entry_a.pair} o {repesca.entry_b.pair}" in losers
    assert "Ganador de P1-1" not in losers


def test_groups_then_knockout_show_the_crossing_and_keep_the_group_standings(client):
    t, organizer = running()
    entries = entries_for(t, 8)
    groups = phase_create(
        tournament=t, actor=organizer, name="Liguilla", format="round_robin", group_size=4
    )
    phase_create(
        tournament=t,
        actor=organizer,
        name="Eliminatoria",
        format="single_elimination",
        source_id=groups.id,
        qualifiers_per_group=2,
    )
    for _ in range(3):
        rnd = round_draw_generate(phase=groups, actor=organizer)
        play_round(rnd, organizer, better_seed(entries))
    standings_refresh(phase=groups)
    semis = phase_advance(phase=groups, actor=organizer)
    round_publish(round=semis, actor=organizer)

    page = client.get(url("tournament", t)).content.decode()
    # the knockout's round is named as the bracket names it, here as on every page
    assert "Eliminatoria · Semifinales" in page and 'class="bracket"' in page
    assert "<i>1A</i>" in page and "<i>2B</i>" in page  # the crossing's labels
    standings = client.get(url("public-standings", t)).content.decode()
    assert standings.index("Eliminatoria") < standings.index("Liguilla")  # the phase in play
    assert "Ver el cuadro" in standings and "Grupo A" in standings and "Grupo B" in standings
    screen = client.get(url("public-screen-fragment", t)).content.decode()
    assert screen.count('class="sc-card') == 2 and "sc-standings" not in screen


def test_a_finished_knockout_names_its_champions(client):
    t, phase, entries, organizer = knockout(4)
    final = Match.objects.get(round__phase=phase, bracket_key="W2-1")
    round_publish(round=final.round, actor=organizer)
    decide(final, final.entry_b_id)
    t.status = Tournament.Status.FINISHED
    t.save()
    page = client.get(url("tournament", t)).content.decode()
    assert f"Campeones: {final.entry_b.pair}" in page


def test_a_tres_ceros_shows_the_lives_left(client):
    t, organizer = running()
    entries = entries_for(t, 6)
    phase = phase_create(
        tournament=t, actor=organizer, name="A tres ceros", format="lives", lives=1
    )
    play_round(round_draw_generate(phase=phase, actor=organizer), organizer, better_seed(entries))
    standings_refresh(phase=phase)
    page = client.get(url("public-standings", t)).content.decode()
    assert "Vidas" in page
    assert page.count('<tr class="out">') == 3  # one life: the three losers are out


def test_bracket_layout_puts_each_match_between_the_two_that_feed_it():
    def m(mid, rnd, pos, a=None, b=None):
        slot = lambda s: {"winner_of": s, "loser_of": None}  # noqa: E731
        return {"id": mid, "round": rnd, "position": pos, "a": slot(a), "b": slot(b)}

    winners = [
        m("W1-1", 1, 1), m("W1-2", 1, 2), m("W1-3", 1, 3), m("W1-4", 1, 4),
        m("W2-1", 2, 1, "W1-1", "W1-2"), m("W2-2", 2, 2, "W1-3", "W1-4"),
        m("W3-1", 3, 1, "W2-1", "W2-2"),
    ]  # fmt: skip
    assert _place(winners) == {
        "W1-1": 0, "W1-2": 1, "W1-3": 2, "W1-4": 3, "W2-1": 0.5, "W2-2": 2.5, "W3-1": 1.5,
    }  # fmt: skip
    # losers' bracket: a match fed by one of its own side stays level with it
    losers = [m("L1-1", 1, 1), m("L1-2", 1, 2), m("L2-1", 2, 1, "L1-1"), m("L2-2", 2, 2, "L1-2")]
    assert _place(losers) == {"L1-1": 0, "L1-2": 1, "L2-1": 0, "L2-2": 1}


def test_the_pair_page_lists_its_matches_with_results_and_its_place(client):
    t, phase, entries, current = swiss(4, played=1)
    top = entries[0]
    page = client.get(url("public-pair", t, top.id)).content.decode()
    assert str(top.pair) in page
    assert "Ganada" in page and "Ronda 1" in page and "Ronda 2" in page
    assert "1.º" in page or "2.º" in page
    first = Match.objects.get(round__number=1, round__phase=phase, entry_a=top)
    opponent = first.entry_b
    assert str(opponent.pair) in page
    their_page = client.get(url("public-pair", t, opponent.id)).content.decode()
    assert "Perdida" in their_page


def test_the_big_screen_and_its_fragment_show_the_tables_and_the_standings(client):
    t, phase, entries, current = swiss(8, played=1)
    page = client.get(url("public-screen", t)).content.decode()
    assert 'data-live-src="' + url("public-screen-fragment", t) in page
    assert 'data-live-every="20"' in page and "bigscreen.js" in page
    assert '<meta http-equiv="refresh"' in page  # without JavaScript
    fragment = client.get(url("public-screen-fragment", t))
    assert fragment["Cache-Control"] == "no-store"
    body = fragment.content.decode()
    assert "<html" not in body
    assert "Mesas" in body and "Clasificación" in body and body.count('class="sc-card') == 4
    assert body.count('<li class="sc-row') == 8 + 1  # eight pairs and the heading row


def test_pages_of_a_tournament_before_its_first_draw(client):
    t, _organizer = running(status=Tournament.Status.REGISTRATION)
    entries_for(t, 3)
    page = client.get(url("tournament", t)).content.decode()
    assert "todavía no se ha publicado" in page and "3 parejas inscritas" in page
    assert client.get(url("public-standings", t)).status_code == 200
    pairs = client.get(url("public-pairs", t)).content.decode()
    assert pairs.count('<li><a href="') == 3
    screen = client.get(url("public-screen-fragment", t)).content.decode()
    assert "aparecerá aquí" in screen


# --- Query counts -----------------------------------------------------------------------------


@pytest.mark.parametrize("pairs", [8, 32])
def test_query_counts_do_not_grow_with_the_number_of_pairs(
    client, django_assert_max_num_queries, pairs
):
    t, phase, entries, current = swiss(pairs, played=1)
    pages = [
        # the tournament (1), its phases and their rounds (2), then the page's own reads
        (url("tournament", t), 6),  # the round's matches, the standings' stamps, their rows
        (url("public-standings", t), 5),  # per phase its snapshots' stamps, then their rows
        (url("public-round", t, current.id), 5),  # the round, its matches
        (url("public-pairs", t), 4),  # the entries
        (url("public-pair", t, entries[0].id), 6),  # the entry, its matches, the standings
        (url("public-screen", t), 5),
        (url("public-screen-fragment", t), 5),
        (reverse("web:public-tournaments"), 1),
    ]
    for path, most in pages:
        with django_assert_max_num_queries(most):
            assert client.get(path).status_code == 200, path


@pytest.mark.parametrize("pairs", [8, 32])
def test_bracket_query_counts_do_not_grow_with_the_number_of_pairs(
    client, django_assert_max_num_queries, pairs
):
    t, phase, entries, _organizer = knockout(pairs, fmt="double_elimination")
    # the tournament, phases, rounds; the bracket's match rows and their scores (+ the round in
    # play on the tournament page)
    for path, most in ((url("tournament", t), 6), (url("public-bracket", t), 5)):
        with django_assert_max_num_queries(most):
            assert client.get(path).status_code == 200


def test_a_knockout_round_has_the_bracket_s_name_on_every_page(client):
    t, phase, entries, organizer = knockout(8, third_place=True)
    first, second = Round.objects.filter(phase=phase).order_by("number")
    round_publish(round=second, actor=organizer)
    semi = second.matches.order_by("table_number").first()

    public = {
        "tournament": client.get(url("tournament", t)),
        "round": client.get(url("public-round", t, second.pk)),
        "bracket": client.get(url("public-bracket", t)),
        "tv": client.get(url("public-screen-fragment", t)),
        "table": client.get(reverse("web:table", args=[semi.token])),
    }
    for name, response in public.items():
        page = response.content.decode()
        assert "Semifinales" in page, name
        assert "Ronda 2" not in page and "ronda 2" not in page, name
    first_round = client.get(url("public-round", t, first.pk)).content.decode()
    assert "Cuartos de final" in first_round and "Ronda 1" not in first_round

    client.force_login(organizer)
    desk = {
        "desk": reverse("web:organizer-tournament", args=[t.pk]),
        "round": reverse("web:organizer-round", args=[second.pk]),
        "board": reverse("web:organizer-round-board", args=[second.pk]),
        "print": reverse("web:organizer-round-print", args=[second.pk]),
        "match": reverse("web:organizer-match", args=[semi.pk]),
    }
    for name, path in desk.items():
        page = client.get(path).content.decode()
        assert "Semifinales" in page, name
        assert "Ronda 2" not in page, name
    desk_page = client.get(desk["desk"]).content.decode()
    assert "Cuartos de final" in desk_page
    assert "Semifinales: en juego" in desk_page  # the next step names it the same way
    english = client.get(desk["board"], HTTP_ACCEPT_LANGUAGE="en")
    assert "Semi-finals" in english.content.decode()


def test_a_swiss_round_keeps_its_number(client):
    t, phase, entries, current = swiss(8, played=1)
    page = client.get(url("public-round", t, current.pk)).content.decode()
    assert f"Ronda {current.number}" in page


def test_the_language_menu_names_each_language_in_its_own_name(client):
    for accept in ("es", "en"):
        page = client.get(reverse("web:public-tournaments"), HTTP_ACCEPT_LANGUAGE=accept)
        body = page.content.decode()
        assert '<option value="es" lang="es"' in body and ">Español</option>" in body
        assert '<option value="en" lang="en"' in body and ">English</option>" in body
        assert "Spanish" not in body and "Inglés" not in body
