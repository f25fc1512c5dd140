"""The e-mails the service sends, in the peña's language (Club.language): the pairings a
published round sends to each player, and the round complete its organizers get.

Each is checked in Spanish, English, Basque and French: the words of its language, the round
and table numbers, the pair names and the links; a Spanish e-mail has no English in it, and
the other languages no Spanish left untranslated."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import translation

from clubs.models import Club
from tests.factories import MembershipFactory, UserFactory, tournament_field
from tournaments.models import Entry, Match, Round
from tournaments.services.mail import email_render
from tournaments.services.results import round_completion_notify
from tournaments.services.rounds import phase_create, round_draw_generate, round_publish

pytestmark = pytest.mark.django_db

SITE = "https://mus.example.org"

# What an e-mail says in each language, besides the numbers and names.
WORDS = {
    "es": {
        "round": "Ronda 1",
        "table": "mesa",
        "play": "jugáis en la mesa",
        "opponents": "Rivales:",
        "venue": "Lugar:",
        "bye": "descansáis",
        "hello": "Hola",
        "complete": "partidas confirmadas",
        "byes": "pareja descansa",
        "close": "cerrar la ronda",
    },
    "en": {
        "round": "Round 1",
        "table": "table",
        "play": "you play at table",
        "opponents": "Opponents:",
        "venue": "Venue:",
        "bye": "bye",
        "hello": "Hello",
        "complete": "matches confirmed",
        "byes": "pair has a bye",
        "close": "close the round",
    },
    "eu": {
        "round": "1. txanda",
        "table": "mahaia",
        "play": "mahaian jokatzen duzue",
        "opponents": "Aurkariak:",
        "venue": "Lekua:",
        "bye": "atseden",
        "hello": "Kaixo",
        "complete": "partida berretsita",
        "byes": "bikotek atseden hartzen du",
        "close": "txanda itxi",
    },
    "fr": {
        "round": "Tour 1",
        "table": "table",
        "play": "vous jouez à la table",
        "opponents": "Adversaires :",
        "venue": "Lieu :",
        "bye": "exempt",
        "hello": "Bonjour",
        "complete": "parties confirmées",
        "byes": "couple est exempt",
        "close": "clore le tour",
    },
}

# Words of the Spanish source that must not survive in another language, and English words
# that must not appear in a Spanish e-mail.
SPANISH = ["Hola", "Pareja", "jugáis", "Rivales", "Lugar:", "Apuntad", "emparejamientos",
           "descans", "partidas", "Ya podéis", "Clasificación", "Ronda"]  # fmt: skip
ENGLISH = ["round", "table", "bye", "opponent", "venue", "hello", "match", "confirmed",
           "standings", "pair ", "play", "enter"]  # fmt: skip

LANGUAGES = ["es", "en", "eu", "fr"]


def _published(language: str, pairs: int = 5, **tournament):
    t, organizer, entries = tournament_field(pairs, seeded=False, **tournament)
    Club.objects.filter(pk=t.club_id).update(language=language)
    t.club.refresh_from_db()
    for entry in entries:
        player = entry.pair.player_one
        player.email = f"p{player.pk}@example.org"
        player.save()
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=rnd, actor=organizer)
    return t, organizer, entries, rnd


def _mail_of(entry: Entry):
    return next(m for m in mail.outbox if m.to == [entry.pair.player_one.email])


@override_settings(SITE_URL=SITE)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pairings_are_written_in_the_penas_language(
    language, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        t, _, entries, rnd = _published(language, venue="Bar Txoko")
    words = WORDS[language]
    assert len(mail.outbox) == 5
    for entry in entries:
        match = rnd.matches.get(entry_a=entry) if rnd.matches.filter(entry_a=entry) else None
        match = match or rnd.matches.get(entry_b=entry)
        message = _mail_of(entry)
        assert message.subject.startswith(t.name) and words["round"] in message.subject
        assert words["hello"] in message.body and entry.pair.player_one.first_name in message.body
        assert str(entry.pair) in message.body
        public_round = f"{SITE}/torneos/{t.club.slug}/{t.slug}/rondas/{rnd.pk}/"
        assert public_round in message.body
        if match.entry_b_id is None:
            assert words["bye"] in message.subject and words["bye"] in message.body
            assert "/mesa/" not in message.body
            continue
        other = match.entry_b if match.entry_a_id == entry.id else match.entry_a
        assert f"{match.table_number}" in message.subject and words["table"] in message.subject
        assert words["play"] in message.body and str(other.pair) in message.body
        assert words["opponents"] in message.body
        assert f"{words['venue']} Bar Txoko" in message.body.replace("Lieu : ", "Lieu : ")
        assert f"{SITE}/mesa/{match.token}/" in message.body
    _no_other_language(language, [(m.subject, m.body) for m in mail.outbox])


@override_settings(SITE_URL=SITE)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_round_complete_is_written_in_the_penas_language(
    language, django_capture_on_commit_callbacks
):
    t, organizer, entries, rnd = _published(language)
    organizer.email = "org@example.org"
    organizer.save()
    MembershipFactory(club=t.club, user=UserFactory(email="socio@example.org"), role="member")
    mail.outbox.clear()
    rnd.matches.exclude(kind=Match.Kind.BYE).update(status=Match.Status.CONFIRMED)
    with django_capture_on_commit_callbacks(execute=True):
        assert round_completion_notify(round=rnd) is True
    [message] = mail.outbox
    assert message.to == ["org@example.org"]  # organizers only
    words = WORDS[language]
    assert message.subject.startswith(t.name) and words["round"] in message.subject
    assert f"2 {words['complete']}" in message.body  # 5 pairs: two tables and a bye
    assert f"1 {words['byes']}" in message.body
    assert words["close"] in message.body
    assert f"{SITE}/organizador/rondas/{rnd.pk}/" in message.body
    assert f"{SITE}/torneos/{t.club.slug}/{t.slug}/clasificacion/" in message.body
    _no_other_language(language, [(message.subject, message.body)])


@pytest.mark.parametrize("language", LANGUAGES)
def test_plurals_follow_the_count(language):
    """One match and one bye are said in the singular, several in the plural."""
    t, organizer, entries = tournament_field(2, seeded=False)
    rnd = Round(number=3)
    rnd.phase = phase_create(
        tournament=t, actor=organizer, name="Liguilla", format="swiss", rounds_planned=3
    )
    context = {"tournament": t, "phase": rnd.phase, "round": rnd, "round_url": "x"}
    one = email_render(
        name="round_complete", context={**context, "count": 1, "byes": 0}, language=language
    )
    many = email_render(
        name="round_complete", context={**context, "count": 12, "byes": 2}, language=language
    )
    singular = {"es": "1 partida confirmada", "en": "1 match confirmed",
                "eu": "1 partida berretsita", "fr": "1 partie confirmée"}  # fmt: skip
    plural = {"es": "2 parejas descansan", "en": "2 pairs have a bye",
              "eu": "2 bikotek atseden hartzen dute", "fr": "2 couples sont exempts"}  # fmt: skip
    assert singular[language] in one.body and "12 " in many.body
    assert plural[language] in many.body
    assert "\n\n\n" not in one.body  # no runs of blank lines where a part is left out


def test_a_name_with_quotes_and_ampersands_is_written_as_typed(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        t, _, entries, rnd = _published("es", pairs=4, venue="Bar O'Hara & Co")
    assert all("Bar O'Hara & Co" in m.body for m in mail.outbox if "mesa" in m.subject)
    assert not any("&amp;" in m.body or "&#x27;" in m.body for m in mail.outbox)


def test_rendering_leaves_the_callers_language_alone(django_capture_on_commit_callbacks):
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        _published("eu", pairs=4)
        assert translation.get_language() == "en"
    assert all("txanda" in m.subject for m in mail.outbox)


def test_a_trios_third_player_gets_the_pairing_too(django_capture_on_commit_callbacks):
    from tests.factories import PlayerFactory

    t, organizer, entries = tournament_field(4, seeded=False)
    third = PlayerFactory(email="third@example.org")
    Entry.objects.filter(pk=entries[0].pk).update(player_three=third)
    phase = phase_create(
        tournament=t, actor=organizer, name="Suizo", format="swiss", rounds_planned=3
    )
    rnd = round_draw_generate(phase=phase, actor=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=rnd, actor=organizer)
    [message] = [m for m in mail.outbox if m.to == ["third@example.org"]]
    assert "Trío" in message.body and "jugáis en la mesa" in message.body


def _no_other_language(language: str, messages: list[tuple[str, str]]) -> None:
    """A Spanish e-mail has no English word; another language keeps no Spanish one."""
    for subject, body in messages:
        # the names, numbers and links are the same in every language: leave them out
        text = re.sub(r"https?://\S+", "", f"{subject}\n{body}")
        text = re.sub(r"Torneo \d+|Peña \d+|Suizo|Bar Txoko", "", text)
        # English keeps the game's Spanish word after its own, as the site does
        text = text.replace("bye (descanso)", "bye") if language == "en" else text
        if language == "es":
            leaked = [w for w in ENGLISH if w in text.lower()]
            assert not leaked, (leaked, text)
        else:
            leaked = [w for w in SPANISH if w in text]
            assert not leaked, (leaked, text)


@pytest.mark.parametrize(
    "language, name", [("es", "Semifinales"), ("eu", "Finalerdiak"), ("fr", "Demi-finales")]
)
def test_a_knockout_round_is_named_as_its_bracket_names_it(
    language, name, django_capture_on_commit_callbacks
):
    t, organizer, entries = tournament_field(4)
    Club.objects.filter(pk=t.club_id).update(language=language)
    entries[0].pair.player_one.email = "ana@example.org"
    entries[0].pair.player_one.save()
    phase = phase_create(tournament=t, actor=organizer, name="Cuadro", format="single_elimination")
    rnd = round_draw_generate(phase=phase, actor=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round=rnd, actor=organizer)
    [message] = mail.outbox
    assert name in message.subject and name in message.body
