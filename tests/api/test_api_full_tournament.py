"""Whole tournaments run through the API alone, one per format, from the peña to a champion.

The organizer works through a logged-in client (the desk); the pairs at each table use only
the table's link (``table/<token>/…``, no login), the token read from the match's history as
an organizer would print it on the table's QR. Every request runs as if committed, so the
``result_confirmed`` chain (standings_refresh, bracket_advance, round_completion_check; Celery
runs eagerly in tests) follows each confirmed result exactly as it does in production, and the
later rounds of a bracket appear by themselves.

The pairs are pasted strongest first, so a pair with a lower entry id is the stronger one and
wins unless a test says otherwise; that makes every champion and standing predictable.

Along the way: a result entered hand by hand (órdagos), a forfeit, a dispute resolved by the
organizer, a correction that re-points the next knockout match, and a correction refused once
that match has started.
"""

from __future__ import annotations

import itertools

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

API = "/api/v1/"
PAIRS = (
    "Iñaki Goñi / Mikel Arrieta",
    "Maite Oroz / Ane Zabaleta",
    "Patxi Irujo / Koldo Sola",
    "Amaia Erro / Miren Lacarra",
    "Josu Aldaz / Aitor Mendive",
    "Itziar Otano / Nerea Úriz",
    "Fermín Sarasa / Txema Ezcurra",
    "Edurne Arbizu / Begoña Gorráiz",
)
# A hand decided by an órdago in grande, accepted: the grande winner takes the game.
_DECLARATIONS = {
    "pares": ["none", "none", "none", "none"],
    "juego": ["none", "none", "none", "none"],
    "punto": [30, 12, 20, 22],
}
_keys = itertools.count(1)


class Api:
    """A client on /api/v1/ whose writes run as if committed (their on_commit callbacks, the
    queued tasks, are executed), checking each answer's status code."""

    def __init__(self, client: APIClient, capture) -> None:
        self.client, self.capture = client, capture

    def get(self, path: str, status: int = 200) -> dict:
        response = self.client.get(API + path)
        assert response.status_code == status, (path, response.status_code, response.json())
        return response.json()

    def post(self, path: str, data: dict | None = None, status: int = 200, keyed=False) -> dict:
        headers = {"HTTP_IDEMPOTENCY_KEY": f"key-{next(_keys)}"} if keyed else {}
        with self.capture(execute=True):
            response = self.client.post(API + path, data or {}, format="json", **headers)
        assert response.status_code == status, (path, response.status_code, response.json())
        return response.json()


@pytest.fixture
def desk(django_capture_on_commit_callbacks) -> Api:
    client = APIClient()
    client.force_login(UserFactory(username="organizadora"))
    return Api(client, django_capture_on_commit_callbacks)


@pytest.fixture
def table(django_capture_on_commit_callbacks) -> Api:
    """The phones at the tables: no login, only the link's token."""
    return Api(APIClient(), django_capture_on_commit_callbacks)


# --- The organizer's steps --------------------------------------------------------------------


def open_tournament(desk: Api, *, preset: str = "8 reyes a 40", tables: int = 4) -> dict:
    """A peña, a tournament from a preset, the pairs pasted, checked in, and running."""
    club = desk.post("clubs/create", {"name": "Peña Txoko", "town": "Pamplona"}, status=201)
    tournament = desk.post(
        "tournaments/create",
        {
            "club": club["slug"],
            "name": "Torneo de San Fermín",
            "starts_on": "2026-07-07",
            "preset": preset,
            "tables_available": tables,
        },
        status=201,
    )
    assert tournament["preset_name"] == preset and tournament["status"] == "draft"
    tid = tournament["id"]
    desk.post(f"tournaments/{tid}/status", {"status": "registration"})
    pasted = desk.post(f"tournaments/{tid}/entries/paste", {"text": "\n".join(PAIRS)}, status=201)
    assert (pasted["registered"], pasted["waiting"]) == (len(PAIRS), 0)
    desk.post(f"tournaments/{tid}/status", {"status": "running"})
    for entry in pasted["entries"]:
        checked = desk.post(f"tournaments/{tid}/entries/{entry['id']}/check-in")
        assert checked["status"] == "checked_in"
    return {**tournament, "entries": [e["id"] for e in pasted["entries"]]}


def add_phase(desk: Api, tournament: dict, **options) -> dict:
    return desk.post(f"tournaments/{tournament['id']}/phases/create", options, status=201)


def draft_rounds(desk: Api, phase_id: int) -> list[dict]:
    phase = desk.get(f"phases/{phase_id}")
    return [r for r in phase["rounds"] if r["status"] == "draft"]


def playable(rnd: dict) -> list[dict]:
    return [m for m in rnd["matches"] if m["kind"] != "bye" and m["status"] != "confirmed"]


def stronger(match: dict) -> str:
    """The side of the stronger pair (pasted first: the lower entry id)."""
    return "a" if match["entry_a"]["id"] < match["entry_b"]["id"] else "b"


def weaker(match: dict) -> str:
    return "b" if stronger(match) == "a" else "a"


def token_of(desk: Api, match_id: int) -> str:
    return desk.get(f"matches/{match_id}/history")["token"]


def games_for(rules: dict, winner: str) -> list[dict]:
    """Quick entry: the loser takes the first game, the winner every game the match needs."""
    target = rules["stones_per_game"]
    needed = rules["games_per_vaca"] * rules["vacas_per_match"]
    lost = [target - 7, target] if winner == "a" else [target, target - 7]
    won = [target, 15] if winner == "a" else [15, target]
    return [{"stones": lost}] + [{"stones": won}] * needed


def submit(table: Api, token: str, side: str, winner: str, version: int) -> dict:
    rules = table.get(f"table/{token}")["rules"]
    body = {"side": side, "version": version, "games": games_for(rules, winner)}
    return table.post(f"table/{token}/result", body, keyed=True)


def play_at_table(desk: Api, table: Api, match: dict, winner: str) -> dict:
    """Pareja A enters the result through the link, pareja B confirms it."""
    token = token_of(desk, match["id"])
    version = table.get(f"table/{token}")["match"]["version"]
    entered = submit(table, token, "a", winner, version)
    assert entered["match"]["status"] == "submitted"
    confirmed = table.post(
        f"table/{token}/result/confirm",
        {"side": "b", "version": entered["match"]["version"]},
        keyed=True,
    )
    assert confirmed["match"]["status"] == "confirmed"
    assert confirmed["match"]["winner"] == winner
    return confirmed["match"]


def play_by_hands(desk: Api, table: Api, match: dict, winner: str) -> dict:
    """The anotador enters each hand: an órdago in grande won by ``winner`` ends each game;
    then pareja A sends the recorded hands as the result and pareja B confirms."""
    token = token_of(desk, match["id"])
    view = table.get(f"table/{token}")
    version, mano, finished, hands = view["match"]["version"], view["first_mano"], False, 0
    while not finished:
        side = "mano" if mano[0].lower() == winner else "postre"
        hand = {
            "declarations": {**_DECLARATIONS, "winners": {"grande": side}},
            "bets": {"grande": ["órdago", "quiero"]},
        }
        added = table.post(f"table/{token}/hands", {"version": version, "hand": hand}, keyed=True)
        hands += 1
        assert added["number"] == hands and added["hand"]["game_winner"] == winner.upper()
        version = added["match"]["version"]
        mano = added["running"]["state"]["next_mano"]
        finished = added["running"]["state"]["finished"]
    entered = table.post(
        f"table/{token}/result",
        {"side": "a", "version": version, "hands": "recorded"},
        keyed=True,
    )
    confirmed = table.post(
        f"table/{token}/result/confirm",
        {"side": "b", "version": entered["match"]["version"]},
        keyed=True,
    )
    assert confirmed["match"]["status"] == "confirmed" and confirmed["match"]["winner"] == winner
    assert desk.get(f"matches/{match['id']}/history")["hand_count"] == hands
    return confirmed["match"]


def play_round(desk: Api, table: Api, rnd: dict, special=None) -> None:
    """Publish a draft round, play its tables (``special(match)`` may play one itself and
    return True), and close it."""
    if rnd["status"] == "draft":
        rnd = desk.post(f"rounds/{rnd['id']}/publish")
    for match in playable(rnd):
        if special is None or not special(match):
            play_at_table(desk, table, match, stronger(match))
    closed = desk.post(f"rounds/{rnd['id']}/close")
    assert closed["status"] == "closed"


def play_bracket(desk: Api, table: Api, phase_id: int, special=None) -> int:
    """Play the draft rounds the bracket creates as results come in; returns how many."""
    played = 0
    while rounds := draft_rounds(desk, phase_id):
        play_round(desk, table, desk.get(f"rounds/{rounds[0]['id']}"), special)
        played += 1
    return played


def standings(api: Api, phase_id: int) -> list[dict]:
    groups = api.get(f"phases/{phase_id}/standings")["groups"]
    return [{**row, "group": g["group"]} for g in groups for row in g["rows"]]


def pair_ids(match: dict) -> frozenset:
    return frozenset((match["entry_a"]["id"], match["entry_b"]["id"]))


def pairings(rnd: dict) -> set[frozenset]:
    return {pair_ids(m) for m in playable(rnd)}


# --- Swiss, then the top 4 in a knockout with a third-place match -----------------------------


def test_swiss_then_top_four_knockout_with_a_correction(desk, table):
    tournament = open_tournament(desk)
    swiss = add_phase(desk, tournament, name="Suizo", format="swiss", rounds_planned=3)
    for _ in range(3):
        rnd = desk.post(f"phases/{swiss['id']}/rounds/generate", status=201)
        assert rnd["status"] == "draft" and len(playable(rnd)) == 4
        play_round(desk, table, rnd)

    rows = standings(desk, swiss["id"])
    assert [r["won"] for r in rows] == sorted((r["won"] for r in rows), reverse=True)
    assert rows[0]["entry_id"] == tournament["entries"][0] and rows[0]["won"] == 3
    top = [r["entry_id"] for r in rows[:4]]

    knockout = add_phase(
        desk,
        tournament,
        name="Eliminatoria",
        format="single_elimination",
        source_id=swiss["id"],
        qualifiers_per_group=4,
        third_place=True,
    )
    semis = desk.post(f"phases/{swiss['id']}/advance", status=201)
    assert desk.get(f"phases/{swiss['id']}")["status"] == "finished"
    assert pairings(semis) == {frozenset((top[0], top[3])), frozenset((top[1], top[2]))}

    desk.post(f"rounds/{semis['id']}/publish")
    results = {m["id"]: play_at_table(desk, table, m, stronger(m)) for m in playable(semis)}
    desk.post(f"rounds/{semis['id']}/close")
    (finals,) = draft_rounds(desk, knockout["id"])
    finals = desk.get(f"rounds/{finals['id']}")
    assert sorted(m["bracket_key"] for m in finals["matches"]) == ["3P", "W2-1"]

    # The organizer corrects a semi-final before the final starts: the final follows it.
    semi = next(m for m in playable(semis) if top[0] in pair_ids(m))
    corrected = desk.post(
        f"matches/{semi['id']}/result/correct",
        {
            "version": results[semi["id"]]["version"],
            "games": games_for(knockout["rules"], weaker(semi)),
        },
        keyed=True,
    )
    assert corrected["match"]["winner"] == weaker(semi)
    upset = semi[f"entry_{weaker(semi)}"]["id"]
    finals = desk.get(f"rounds/{finals['id']}")
    final = next(m for m in finals["matches"] if m["bracket_key"] == "W2-1")
    third = next(m for m in finals["matches"] if m["bracket_key"] == "3P")
    assert upset in pair_ids(final) and top[0] in pair_ids(third)
    history = desk.get(f"matches/{final['id']}/history")
    assert "bracket_match_repointed" in [a["action"] for a in history["audit"]]

    # Once the final has started (pareja A entered its result), the semi-final is final too.
    desk.post(f"rounds/{finals['id']}/publish")
    token = token_of(desk, final["id"])
    entered = submit(table, token, "a", stronger(final), version=0)
    refused = desk.client.post(
        f"{API}matches/{semi['id']}/result/correct",
        {
            "version": corrected["match"]["version"],
            "games": games_for(knockout["rules"], stronger(semi)),
        },
        format="json",
        HTTP_IDEMPOTENCY_KEY="late-correction",
    )
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "result_has_dependents"
    assert refused.json()["error"]["params"]["match"] == final["id"]
    # While the final is played the tournament cannot finish: a finished tournament could
    # neither close that round nor finish its phase (issue 23 #3).
    early = desk.client.post(
        f"{API}tournaments/{tournament['id']}/status", {"status": "finished"}, format="json"
    )
    assert early.status_code == 409
    error = early.json()["error"]
    assert error["code"] == "tournament_phase_open"
    assert error["params"]["phase"] == knockout["name"]
    assert error["params"]["reason"]["code"] == "phase_rounds_open"
    assert desk.get(f"tournaments/{tournament['id']}")["status"] == "running"
    table.post(
        f"table/{token}/result/confirm",
        {"side": "b", "version": entered["match"]["version"]},
        keyed=True,
    )
    play_at_table(desk, table, third, stronger(third))
    desk.post(f"rounds/{finals['id']}/close")

    finished = desk.post(f"phases/{knockout['id']}/finish")
    assert finished["status"] == "finished"
    champion = min(pair_ids(final))
    bracket = desk.get(f"phases/{knockout['id']}/bracket")
    assert bracket["champion_id"] == champion
    rows = standings(desk, knockout["id"])
    assert rows[0]["entry_id"] == champion and rows[0]["won"] == 2
    done = desk.post(f"tournaments/{tournament['id']}/status", {"status": "finished"})
    assert done["status"] == "finished"
    # The public reads the same standings without logging in.
    assert standings(table, knockout["id"]) == rows


# --- Liguilla, then the knockout crossing 1A–2B, 1B–2A ----------------------------------------


def test_liguilla_groups_then_crossing_knockout_with_a_forfeit(desk, table):
    tournament = open_tournament(desk)
    groups = add_phase(desk, tournament, name="Liguilla", format="round_robin", group_size=4)
    forfeit = {}

    def no_show(match: dict) -> bool:
        # In round 2 the stronger pair of the first table does not come: a walkover.
        if forfeit:
            return False
        absent = stronger(match)
        version = desk.get(f"matches/{match['id']}/history")["match"]["version"]
        answer = desk.post(
            f"matches/{match['id']}/forfeit", {"absent_side": absent, "version": version}
        )
        assert answer["match"]["kind"] == "forfeit" and answer["match"]["winner"] == weaker(match)
        forfeit.update(winner=match[f"entry_{weaker(match)}"]["id"], match=match["id"])
        return True

    rounds = []

    for number in (1, 2, 3):
        rnd = desk.post(f"phases/{groups['id']}/rounds/generate", status=201)
        assert len(playable(rnd)) == 4 and {m["group"] for m in rnd["matches"]} == {"A", "B"}
        play_round(desk, table, rnd, special=no_show if number == 2 else None)
        rounds.append(rnd["id"])

    rows = standings(desk, groups["id"])
    by_group = {name: [r["entry_id"] for r in rows if r["group"] == name] for name in ("A", "B")}
    assert all(len(ids) == 4 for ids in by_group.values())
    assert all(r["played"] == 3 for r in rows)
    # The walkover counts as a match won with the format's full score (3 juegos to 0).
    walkover = next(
        m for m in desk.get(f"rounds/{rounds[1]}")["matches"] if m["id"] == forfeit["match"]
    )
    assert (walkover["kind"], walkover["winner_id"]) == ("forfeit", forfeit["winner"])
    assert sorted((walkover["games_a"], walkover["games_b"])) == [0, 3]

    knockout = add_phase(
        desk,
        tournament,
        name="Cruces",
        format="single_elimination",
        source_id=groups["id"],
        qualifiers_per_group=2,
    )
    semis = desk.post(f"phases/{groups['id']}/advance", status=201)
    first_a, second_a = by_group["A"][:2]
    first_b, second_b = by_group["B"][:2]
    assert pairings(semis) == {frozenset((first_a, second_b)), frozenset((first_b, second_a))}
    bracket = desk.get(f"phases/{knockout['id']}/bracket")
    labels = {
        s["entry_id"]: s["label"]
        for m in bracket["matches"]
        for s in (m["a"], m["b"])
        if s["label"]
    }
    assert labels == {first_a: "1A", second_a: "2A", first_b: "1B", second_b: "2B"}

    assert play_bracket(desk, table, knockout["id"]) == 2
    desk.post(f"phases/{knockout['id']}/finish")
    champion = min(first_a, second_a, first_b, second_b)
    assert desk.get(f"phases/{knockout['id']}/bracket")["champion_id"] == champion
    assert standings(desk, knockout["id"])[0]["entry_id"] == champion


# --- Double elimination -----------------------------------------------------------------------


def test_double_elimination_with_a_dispute_and_the_grand_final_reset(desk, table):
    tournament = open_tournament(desk, preset="4 reyes a 30")
    phase = add_phase(desk, tournament, name="Doble", format="double_elimination")
    disputed = {}

    def dispute(match: dict) -> bool:
        # The first table's pairs each claim the win; the organizer picks pareja A's version.
        if disputed:
            return False
        token = token_of(desk, match["id"])
        first = submit(table, token, "a", "a", version=0)
        second = submit(table, token, "b", "b", version=first["match"]["version"])
        assert second["match"]["status"] == "disputed"
        resolved = desk.post(
            f"matches/{match['id']}/dispute/resolve",
            {"version": second["match"]["version"], "submission": first["submission"]["id"]},
            keyed=True,
        )
        assert resolved["match"]["status"] == "confirmed" and resolved["match"]["winner"] == "a"
        disputed.update(match=match["id"], winner=match["entry_a"]["id"])
        return True

    def grand_final_upset(match: dict) -> bool:
        # The pair from the losers' bracket wins the first grand final: the reset is played.
        if match["bracket_key"] != "GF1":
            return False
        unbeaten = [r["entry_id"] for r in standings(desk, phase["id"]) if r["lost"] == 0]
        assert len(unbeaten) == 1
        play_at_table(desk, table, match, "b" if match["entry_a"]["id"] in unbeaten else "a")
        return True

    first = desk.post(f"phases/{phase['id']}/rounds/generate", status=201)
    play_round(desk, table, first, special=dispute)
    played = 1 + play_bracket(desk, table, phase["id"], special=grand_final_upset)

    bracket = desk.get(f"phases/{phase['id']}/bracket")
    keys = {m["id"]: m for m in bracket["matches"]}
    assert keys["GF1"]["match"]["status"] == "confirmed"
    assert keys["GF2"]["match"] is not None  # the reset was played
    assert bracket["champion_id"] is not None
    assert played == max(m["stage"] for m in bracket["matches"] if m["match"])
    desk.post(f"phases/{phase['id']}/finish")
    history = desk.get(f"matches/{disputed['match']}/history")
    assert [s["side"] for s in history["submissions"]] == ["a", "b", "organizer"]
    assert "dispute_resolved" in [a["action"] for a in history["audit"]]
    # The standings count matches (not bracket places): the champion lost once, the first
    # grand final; every other pair went out at its second defeat.
    rows = {r["entry_id"]: r for r in standings(desk, phase["id"])}
    assert set(rows) == set(tournament["entries"])
    matches = [m for m in bracket["matches"] if m["match"] and m["match"]["kind"] != "bye"]
    assert sum(r["won"] for r in rows.values()) == len(matches) == 2 * 8 - 1
    assert rows.pop(bracket["champion_id"])["lost"] == 1
    assert {r["lost"] for r in rows.values()} == {2}


# --- A tres ceros: out after three lost matches -----------------------------------------------


def test_tres_ceros_to_the_last_pair_standing_with_hands_entered_at_the_table(desk, table):
    tournament = open_tournament(desk)
    phase = add_phase(desk, tournament, name="A tres ceros", format="lives", lives=3)
    by_hand = {}

    def anotador(match: dict) -> bool:
        # One table of the first round keeps the score hand by hand.
        if by_hand:
            return False
        by_hand["match"] = play_by_hands(desk, table, match, stronger(match))
        return True

    rounds = 0
    while True:
        rnd = desk.post(f"phases/{phase['id']}/rounds/generate", status=201)
        rounds += 1
        play_round(desk, table, rnd, special=anotador if rounds == 1 else None)
        response = desk.client.post(f"{API}phases/{phase['id']}/finish")
        if response.status_code == 200:
            break
        assert response.json()["error"]["code"] == "phase_lives_left"
        assert rounds < 20

    assert by_hand["match"]["result"]["finished"] is True
    rows = standings(desk, phase["id"])
    strongest = tournament["entries"][0]
    assert rows[0]["entry_id"] == strongest and rows[0]["lost"] == 0
    # Everybody else went out on their third defeat.
    assert all(r["lost"] == 3 for r in rows[1:])
    assert {r["entry_id"] for r in rows} == set(tournament["entries"])
