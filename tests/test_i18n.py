"""The translations of the UI: the committed catalogues are complete and compiled, and the
pages a visitor, a table and an organizer open first read in English, Basque or French when that
language is chosen (Spanish stays the default).

The catalogue is locale/en/LC_MESSAGES/django.po (source texts are Spanish) and the django.mo
compiled from it; both are committed so that no machine needs gettext to run the site, and
scripts/messages regenerates them. The .po is read here with a few lines of Python (no polib)
and the .mo with the struct layout GNU gettext documents, so these tests need no gettext either.

Basque (eu) and French (fr) are checked by scripts/catalogs.py, the same report scripts/messages
prints: a test here fails while it names any entry (untranslated, fuzzy, a lost placeholder), and
names them. Their game words are each language's own (Basque: handia, txikia, pareak, jokoa,
hordago, enbido; French, as the French rulebook writes them: grand, petit, paires, jeu, point,
cailloux, manche).

Terms: the game's words (mano, postre, juego, vaca, piedras, órdago, envido, quiero, paso,
grande, chica, pares, punto, amarraco, peña) stay verbatim in the English texts where players
use them; the check for Spanish left in a page therefore looks only for ordinary Spanish words.
"""

from __future__ import annotations

import ast
import re
import struct
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from clubs.models import Club, Pair, Player
from scripts import catalogs
from tests.factories import MatchFactory, MembershipFactory, TournamentFactory
from tournaments.models import Entry, Match, Phase, Tournament
from tournaments.services.rounds import (
    phase_create,
    round_close,
    round_draw_generate,
    round_publish,
)
from tournaments.services.standings import standings_refresh

LOCALE = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES"
PO = LOCALE / "django.po"
MO = LOCALE / "django.mo"

#: %(name)s / %(n)d (Django, templates), {name} (str.format: errors catalogs, table.js), tags
PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|\{\w*\}|</?\w+[^>]*>")


# --- Reading the catalogue --------------------------------------------------------------------


def po_entries(path: Path = PO) -> list[dict]:
    """The .po's entries: msgid, msgid_plural (or None), msgstr {form: text}, flags, line."""
    entries: list[dict] = []
    entry: dict | None = None
    field: tuple | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            entry = field = None
            continue
        if line.startswith("#~"):
            raise AssertionError(f"{path.name}:{number}: obsolete entry left in the catalogue")
        if entry is None:
            entry = {"msgid_plural": None, "msgstr": {}, "flags": set(), "line": number}
            entries.append(entry)
        if line.startswith("#,"):
            entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif found := re.match(r'(msgid_plural|msgid|msgctxt|msgstr(?:\[(\d+)\])?) (".*")$', line):
            keyword, form, text = found.groups()
            field = ("msgstr", int(form or 0)) if keyword.startswith("msgstr") else (keyword,)
            _store(entry, field, ast.literal_eval(text))
        elif line.startswith('"') and field is not None:
            _store(entry, field, ast.literal_eval(line), append=True)
        else:
            raise AssertionError(f"{path.name}:{number}: cannot read {line!r}")
    return entries


def _store(entry: dict, field: tuple, text: str, *, append: bool = False) -> None:
    if field[0] == "msgstr":
        forms = entry["msgstr"]
        forms[field[1]] = forms.get(field[1], "") + text if append else text
    else:
        entry[field[0]] = entry.get(field[0], "") + text if append else text


def translations() -> list[dict]:
    """Every entry but the header."""
    return [e for e in po_entries() if e["msgid"]]


def mo_catalog(path: Path = MO) -> dict[str, str]:
    """The .mo's msgid → msgstr, plurals as 'singular\\0plural' → 'form0\\0form1' (the layout of
    GNU gettext's .mo files: magic, revision, count, then two tables of (length, offset))."""
    data = path.read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, ids_at, strs_at = struct.unpack(order + "4I", data[4:20])
    catalog = {}
    for i in range(count):
        id_len, id_off = struct.unpack(order + "2I", data[ids_at + 8 * i : ids_at + 8 * i + 8])
        st_len, st_off = struct.unpack(order + "2I", data[strs_at + 8 * i : strs_at + 8 * i + 8])
        key = data[id_off : id_off + id_len].decode("utf-8")
        catalog[key] = data[st_off : st_off + st_len].decode("utf-8")
    return catalog


def po_as_mo() -> dict[str, str]:
    """What msgfmt should make of the .po, in mo_catalog's shape (header left out)."""
    out = {}
    for e in translations():
        key = e["msgid"] if e.get("msgctxt") is None else f"{e['msgctxt']}\x04{e['msgid']}"
        if e["msgid_plural"] is not None:
            key += "\0" + e["msgid_plural"]
        out[key] = "\0".join(e["msgstr"][form] for form in sorted(e["msgstr"]))
    return out


# --- (a) the .po: complete, not fuzzy, placeholders kept ----------------------------------------


def test_the_catalogue_has_the_uis_strings():
    entries = translations()
    # The UI had 837 strings when the catalogue was first translated; a much smaller catalogue
    # means makemessages missed the templates or the Python sources.
    assert len(entries) > 500
    assert {"Clasificación", "Entrar", "Torneos de mus", "Anotar mano"} <= {
        e["msgid"] for e in entries
    }


def test_the_header_declares_english_with_two_plural_forms_and_is_not_fuzzy():
    header = po_entries()[0]
    assert header["msgid"] == "" and "fuzzy" not in header["flags"]
    text = header["msgstr"][0]
    assert "Language: en\n" in text
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in text
    assert "charset=UTF-8" in text


def test_no_translation_is_empty_or_fuzzy():
    problems = []
    for e in translations():
        forms = 2 if e["msgid_plural"] is not None else 1
        if "fuzzy" in e["flags"]:
            problems.append(f"line {e['line']}: fuzzy {e['msgid']!r}")
        if sorted(e["msgstr"]) != list(range(forms)):
            problems.append(f"line {e['line']}: forms {sorted(e['msgstr'])} for {e['msgid']!r}")
        if any(not text.strip() for text in e["msgstr"].values()):
            problems.append(f"line {e['line']}: untranslated {e['msgid']!r}")
    assert not problems, "\n".join(problems)


def test_every_placeholder_of_a_msgid_is_in_its_translation_and_no_other():
    # A lost %(n)s hides a number; an extra or misspelt {name} makes the page raise KeyError.
    problems = []
    for e in translations():
        sources = [e["msgid"], e["msgid_plural"] or e["msgid"]]
        for form, text in e["msgstr"].items():
            want = sorted(PLACEHOLDER.findall(sources[min(form, 1)]))
            got = sorted(PLACEHOLDER.findall(text))
            if want != got:
                problems.append(f"line {e['line']}: {want} became {got} in {text!r}")
    assert not problems, "\n".join(problems)


def test_the_placeholder_check_catches_a_lost_or_misspelt_placeholder(tmp_path):
    broken = tmp_path / "django.po"
    broken.write_text(
        'msgid "Ronda %(n)s"\nmsgstr "Round"\n\nmsgid "Juego {game}"\nmsgstr "Game {juego}"\n',
        encoding="utf-8",
    )
    found = [
        (sorted(PLACEHOLDER.findall(e["msgid"])), sorted(PLACEHOLDER.findall(e["msgstr"][0])))
        for e in po_entries(broken)
    ]
    assert found == [(["%(n)s"], []), (["{game}"], ["{juego}"])]


def test_translations_keep_the_games_own_words():
    by_id = {e["msgid"]: e["msgstr"] for e in translations()}
    assert by_id["Órdago"][0] == "Órdago"
    assert by_id["No quiero"][0] == "No quiero"
    assert by_id["%(n)s amarraco"] == {0: "%(n)s amarraco", 1: "%(n)s amarracos"}
    assert by_id["%(n)s piedra"] == {0: "%(n)s stone", 1: "%(n)s stones"}
    assert "vaca" in by_id["juegos por vaca"][0]


# --- (b) the committed .mo is the .po compiled ---------------------------------------------------


def test_the_committed_mo_holds_exactly_the_po_translations():
    compiled, source = mo_catalog(), po_as_mo()
    compiled.pop("", None)  # the header
    missing = sorted(set(source) - set(compiled))
    stale = sorted(set(compiled) - set(source))
    changed = sorted(k for k in set(source) & set(compiled) if source[k] != compiled[k])
    assert not (missing or stale or changed), (
        "locale/en/LC_MESSAGES/django.mo is out of date with django.po: run scripts/messages "
        f"(missing {missing[:5]}, stale {stale[:5]}, changed {changed[:5]})"
    )


def test_the_mo_carries_the_plural_rule():
    import gettext

    with MO.open("rb") as f:
        catalog = gettext.GNUTranslations(f)
    assert catalog.info()["language"] == "en"
    assert catalog.ngettext("%(n)s pareja", "%(n)s parejas", 1) == "%(n)s pair"
    assert catalog.ngettext("%(n)s pareja", "%(n)s parejas", 3) == "%(n)s pairs"


# --- (c) the pages in English -------------------------------------------------------------------

#: Ordinary Spanish words that have no business in an English page (the game's own words, which
#: the English texts keep, are not here; nor are words that are English too, like "a" or "no").
SPANISH = frozenset(
    """
    de del la el los las que en para por con sin una unos es está y al
    pareja parejas mesa mesas ronda rondas partida partidas torneo torneos clasificación
    juegos piedras resultado resultados enviar entrar usuario contraseña inscritas inscrita
    ganadas jugadas todavía aquí también ver sorteo organización idioma cambiar fase fases
    cuadro gana ganó presente apuntar anotar hay siguiente reglas grupo
    """.split()  # noqa: SIM905 (a list of 60 one-word strings would be one word a line)
)


class _Text(HTMLParser):
    """The words a person reads: text outside <script>/<style> plus title, aria-label,
    placeholder and alt attributes."""

    READ = ("title", "aria-label", "placeholder", "alt")

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self._skip += 1
        self.parts += [value for name, value in attrs if name in self.READ and value]

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def spanish_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[^\W\d_]+", text.lower()) if w in SPANISH}


def test_the_spanish_word_check_finds_spanish_and_spares_the_games_words():
    assert spanish_words("Clasificación de la ronda 2") == {"clasificación", "de", "la", "ronda"}
    assert not spanish_words("Pair A wins the vaca with an órdago: quiero, no quiero, paso.")
    assert visible_text('<p title="Mesa">Hi<script>var de = 1;</script></p>') == "Mesa Hi"


@pytest.fixture
def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def played() -> tuple[Tournament, Phase]:
    """A public, running Swiss of four pairs with round 1 played and closed, round 2 in play
    and the standings computed. Names are neutral (no Spanish words) so that a Spanish word in
    the page can only come from the UI."""
    club = Club.objects.create(name="Txoko Berri", slug="txoko-berri", town="Pamplona")
    t = TournamentFactory(
        club=club,
        name="Winter Cup",
        slug="winter-cup",
        venue="Bar Txoko",
        status=Tournament.Status.RUNNING,
        tables_available=0,
    )
    organizer = MembershipFactory(club=club).user
    names = ["Iñaki", "Mikel", "Ane", "Josu", "Maite", "Koldo", "Itziar", "Xabier"]
    entries = []
    for i in range(4):
        one, two = (
            Player.objects.create(first_name=name, last_name="Etxeberria")
            for name in names[2 * i : 2 * i + 2]
        )
        pair = Pair.objects.create(player_one=one, player_two=two, club=club)
        entries.append(
            Entry.objects.create(
                tournament=t, pair=pair, seed=i + 1, status=Entry.Status.CHECKED_IN
            )
        )
    phase = phase_create(
        tournament=t, actor=organizer, name="Swiss", format="swiss", rounds_planned=3
    )
    first = round_draw_generate(phase=phase, actor=organizer)
    round_publish(round=first, actor=organizer)
    seed = {e.id: e.seed for e in entries}
    for m in first.matches.all():
        a_wins = seed[m.entry_a_id] < seed[m.entry_b_id]
        m.status, m.winner_id = Match.Status.CONFIRMED, (m.entry_a_id if a_wins else m.entry_b_id)
        m.games_a, m.games_b = (2, 1) if a_wins else (1, 2)
        m.vacas_a, m.vacas_b = (1, 0) if a_wins else (0, 1)
        m.stones_a, m.stones_b = (80, 60) if a_wins else (60, 80)
        m.save()
    round_close(round=first, actor=organizer)
    round_publish(round=round_draw_generate(phase=phase, actor=organizer), actor=organizer)
    standings_refresh(phase=phase)
    return t, phase


def page(client, url: str) -> tuple[str, str]:
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    return html, visible_text(html)


def public_url(name: str, t: Tournament) -> str:
    return reverse(f"web:{name}", args=[t.club.slug, t.slug])


def table_url() -> str:
    """A table's page: a match of a published round (the factories' defaults), with neutral
    names instead of the factories' Spanish ones."""
    players = {
        f"entry_{side}__pair__player_{seat}__{field}": value
        for side, seat in (("a", "one"), ("a", "two"), ("b", "one"), ("b", "two"))
        for field, value in (("first_name", f"Ane{side}{seat}"), ("last_name", "Etxeberria"))
    }
    match = MatchFactory(
        round__phase__name="Swiss",
        round__phase__tournament__status=Tournament.Status.RUNNING,
        round__phase__tournament__name="Winter Cup",
        round__phase__tournament__club__name="Txoko Berri",
        entry_a__pair__name="Iruña",
        entry_b__pair__name="Txantrea",
        **players,
    )
    return reverse("web:table", args=[match.token])


def assert_english(html: str, text: str, *expected: str) -> None:
    assert '<html lang="en">' in html
    for phrase in expected:
        assert phrase in text, f"{phrase!r} not in the page: {text[:600]}"
    left = spanish_words(text)
    assert not left, f"Spanish left in the English page: {sorted(left)} in {text[:800]}"


@pytest.mark.django_db
def test_the_home_page_in_english(english, played):
    html, text = page(english, reverse("home"))
    assert_english(
        html, text, "Mus tournaments", "For clubs (peñas)", "Follow the standings live.",
        "In play", "Winter Cup", "4 pairs", "in play",
    )  # fmt: skip


@pytest.mark.django_db
def test_the_table_page_in_english(english):
    html, text = page(english, table_url())
    assert_english(html, text, "Which pair are you?", "Game by game", "Hand by hand", "Send result")


@pytest.mark.django_db
def test_the_organizer_login_page_in_english(english):
    html, text = page(english, reverse("login"))
    assert_english(html, text, "Log in", "Username", "Password", "To organize your club's")


@pytest.mark.django_db
def test_the_public_tournament_page_in_english(english, played):
    t, _ = played
    html, text = page(english, public_url("tournament", t))
    assert_english(html, text, "Standings", "Rules", "Round 2", "kings", "games per vaca")


@pytest.mark.django_db
def test_the_standings_in_english(english, played):
    t, _ = played
    html, text = page(english, public_url("public-standings", t))
    assert_english(html, text, "Standings", "Pair", "matches won", "Tiebreak order:")


@pytest.mark.django_db
def test_a_language_chosen_by_the_browser_is_english_too(client):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    html = response.content.decode()
    assert_english(html, visible_text(html), "Mus tournaments", "No published tournaments yet.")


@pytest.mark.django_db
def test_the_pages_are_spanish_by_default(client, played):
    t, _ = played
    expected = {
        reverse("home"): "Torneos de mus",
        table_url(): "¿Qué pareja sois?",
        reverse("login"): "Contraseña",
        public_url("tournament", t): "Reglas",
        public_url("public-standings", t): "Orden de desempate:",
    }
    for url, phrase in expected.items():
        html, text = page(client, url)
        assert '<html lang="es">' in html and phrase in text, url
        assert "Mus tournaments" not in text and "Standings" not in text


# --- (d) Basque and French: complete, compiled, and the pages speak them ----------------------

#: language → (its plural rule as gettext writes it, a few words of its own on the table page)
OTHER_LANGUAGES = {
    "eu": ("nplurals=2; plural=(n != 1);", ["Zein bikote zarete?", "Jokoz joko", "Bidali emaitza"]),
    "fr": ("nplurals=2; plural=(n > 1);", ["Quel couple êtes-vous ?", "Jeu par jeu"]),
}


def test_every_language_is_offered_in_its_own_name():
    assert settings.LANGUAGES == [
        ("es", "Español"), ("en", "English"), ("eu", "Euskara"), ("fr", "Français"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "report", catalogs.reports(), ids=lambda r: r.path.relative_to(catalogs.ROOT).as_posix()
)
def test_every_catalogue_is_complete(report):
    # en, eu, fr for the pages; es, eu, fr for the errors (engine's and project's)
    assert not report.problems, "\n".join(report.lines())


def test_the_report_names_each_missing_entry_with_its_file_and_line(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    reference = tmp_path / "es.po"
    reference.write_text(
        'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "Card {card}"\nmsgstr "Carta {card}"\n\nmsgid "Round"\nmsgstr "Ronda"\n',
        encoding="utf-8",
    )
    po = tmp_path / "fr.po"
    po.write_text(
        'msgid ""\nmsgstr "Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        'msgid "Card {card}"\nmsgstr "Carte {carte}"\n\n'
        '#, fuzzy\nmsgid "%(n)s pair"\nmsgid_plural "%(n)s pairs"\nmsgstr[0] "%(n)s couple"\n'
        'msgstr[1] ""\n\n#, fuzzy\nmsgid "Table"\nmsgstr "Table"\n',
        encoding="utf-8",
    )
    lines = catalogs.check(po, reference).lines()
    assert lines[0] == "fr.po: 5 to do"
    assert "  fr.po:4: placeholders ['{card}'] became ['{carte}']: 'Card {card}'" in lines
    assert "  fr.po:7: untranslated: '%(n)s pair'" in lines
    assert any(line.startswith("  fr.po:7: fuzzy") for line in lines)
    assert any(line.startswith("  fr.po:13: fuzzy") and "'Table'" in line for line in lines)
    assert "  fr.po:0: missing (in es.po): 'Round'" in lines


@pytest.mark.parametrize("language", sorted(OTHER_LANGUAGES))
def test_the_header_declares_the_language_and_its_plural_rule(language):
    path = catalogs.page_catalogue(language)
    header = po_entries(path)[0]
    assert header["msgid"] == "" and "fuzzy" not in header["flags"]
    assert f"Language: {language}\n" in header["msgstr"][0]
    assert OTHER_LANGUAGES[language][0] in header["msgstr"][0]
    for directory in catalogs.ERROR_DIRS:
        text = po_entries(catalogs.error_catalogue(directory, language))[0]["msgstr"][0]
        assert f"Language: {language}\n" in text and OTHER_LANGUAGES[language][0] in text


@pytest.mark.parametrize("language", sorted(OTHER_LANGUAGES))
def test_the_committed_mo_of_each_language_holds_exactly_its_po(language):
    path = catalogs.page_catalogue(language)
    compiled = mo_catalog(path.with_suffix(".mo"))
    compiled.pop("", None)
    source = {}
    for e in po_entries(path)[1:]:
        key = e["msgid"] if e.get("msgctxt") is None else f"{e['msgctxt']}\x04{e['msgid']}"
        if e["msgid_plural"] is not None:
            key += "\0" + e["msgid_plural"]
        source[key] = "\0".join(e["msgstr"][form] for form in sorted(e["msgstr"]))
    assert compiled == source, f"{path.with_suffix('.mo')} is stale: run scripts/messages"


def test_each_language_uses_its_own_words_of_the_game():
    def by_id(language):
        return {e["msgid"]: e["msgstr"] for e in po_entries(catalogs.page_catalogue(language))}

    eu, fr = by_id("eu"), by_id("fr")
    assert [eu[w][0] for w in ("Grande", "Chica", "Pares", "Juego", "Órdago", "Envido")] == [
        "Handia", "Txikia", "Pareak", "Jokoa", "Hordago", "Enbido",
    ]  # fmt: skip
    assert [fr[w][0] for w in ("Grande", "Chica", "Pares", "Juego", "Quiero", "No quiero")] == [
        "Grand", "Petit", "Paires", "Jeu", "Je veux", "Je ne veux pas",
    ]  # fmt: skip
    assert fr["%(n)s piedra"] == {0: "%(n)s caillou", 1: "%(n)s cailloux"}
    assert fr["Cuartos de final"][0] == "Quarts de finale"


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(OTHER_LANGUAGES))
def test_the_table_page_and_the_standings_speak_the_chosen_language(client, played, language):
    t, _ = played
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html, text = page(client, table_url())
    assert f'<html lang="{language}">' in html
    for phrase in OTHER_LANGUAGES[language][1]:
        assert phrase in text, f"{phrase!r} not in the {language} table page: {text[:600]}"
    assert "¿Qué pareja sois?" not in text and "Which pair are you?" not in text
    html, text = page(client, public_url("public-standings", t))
    assert f'<html lang="{language}">' in html
    assert {"eu": "Berdinketa hausteko ordena:", "fr": "Ordre de départage :"}[language] in text
    assert "Orden de desempate:" not in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "message"),
    [
        ("eu", "Ez dago 999999 txapelketarik"),
        ("fr-FR,fr;q=0.9", "Il n'y a pas de tournoi 999999"),
        ("es", "No existe el torneo 999999"),
        ("", "There is no tournament 999999"),
    ],
)
def test_the_api_answers_errors_in_the_language_asked_for(client, accept, message):
    response = client.get("/api/v1/tournaments/999999", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 404
    body = response.json()["error"]
    assert body["code"] == "tournament_not_found" and body["message"].startswith(message)
