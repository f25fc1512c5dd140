"""Pages of the table area: what the phones at a table show through the table's secret link.

Responsible for: the pages behind ``/mesa/<token>/`` (the QR printed on the table sheet): the
table (where, who sits where, who is mano first, the rules in force), the quick entry of the
result (each game's stones, or only its winner), the anotador (hand by hand: the bets of each
lance, what each player declared, the score a game starts from when it comes written on paper,
why a new game's mano is who it is, the hand's stones as scoring/ counts them), the other
pair's confirmation or its own version, the receipt of what was recorded, the closed link once
the result is confirmed, and ``/sw.js`` (static/js/sw.js from the site's root: the service
worker that keeps the table's pages for offline use). Each POST calls the same service as the
API's table door (tournaments.services.results) and redirects (POST/redirect/GET); a domain or
engine error is shown on the same page, with what the person typed kept
(``config.errors.error_message``).

The token in the path is the credential, as in the API: no login, and no CSRF token either (a
site that does not know the token cannot post to it, and a phone that sends a result it kept
while offline must not fail hours later on a rotated cookie). Every write carries the version
the page was rendered with and an idempotency key rendered into the form, so a retry (double
tap, the queue of results kept on the phone, resent by static/js/site.js) records nothing twice.

Must not: hold a rule of Mus (scoring/ decides winners, games, vacas and when a partida ends;
the page's JavaScript only shows a running tally) or of who may write (the services check).
Form fields are turned into scoring's JSON form here and nothing more: "A:"/"B:" in a bet is
the pair as the people at the table see it, written as "mano:"/"postre:" for this hand.

Terms: mesa (table), pareja A/B, asiento (seat: A1, B1, A2, B2 in speaking order), mano and
postre (of a hand), lance (grande, chica, pares, juego/punto), envido, N más, quiero, no
quiero, paso, órdago, piedras, amarracos (5 piedras), juego (a game), vaca, partida, anotador.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.errors import DomainError, Invalid, NotFound, error_message
from config.live import live_stream
from scoring import RuleSet, ScoringError, amarracos
from scoring.jsonio import POSITIONS, hand_from_json, outcome_to_json
from scoring.lances import LancePoints
from tournaments.models import Match, Round
from tournaments.selectors.calendar import match_when
from tournaments.selectors.results import (
    MATCH_RELATIONS,
    TABLE_RELATIONS,
    match_rules,
    match_running_score,
    table_view,
)
from tournaments.services import results as services
from tournaments.web.bases import length_in_words
from tournaments.web.names import round_name

LANCES = ("grande", "chica", "pares", "juego")
PARES = ("none", "par", "medias", "duples")
TEAMS = ("A", "B")
#: the seats of a trios table in speaking order (scoring.jsonio: A1, B1, A2, B2, A3, B3)
TRIO_POSITIONS = ("A1", "B1", "A2", "B2", "A3", "B3")
OPEN = (Match.Status.PENDING, Match.Status.IN_PROGRESS)
#: rows of the quick entry rendered at most (static/js/table.js adds more when they fill)
MAX_ROWS = 15
#: "A: envido" / "b:2 más": an action said by pareja A or B
_PAIR_PREFIX = re.compile(r"^\s*([AaBb])\s*:\s*(.*)$")
#: g3_a, g3_b (stones), g3_w (winner), g3_o (órdago): row 3 of the quick entry
_ROW_FIELD = re.compile(r"^g(\d{1,3})_[abwo]$")


# --- Reaching the match ---------------------------------------------------------------------


def _table(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Resolve the link's token: an unknown link gets its own page (404), a confirmed match's
    link the closed page with the final result (and the error, if this was a write)."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, **kwargs: Any) -> HttpResponse:
        key = request.POST.get("idempotency_key", "") if request.method == "POST" else ""
        # A page's read takes the match with its pairs in one query, and skips the queries of
        # rows it has none of (selectors.match_by_token); a write's page reads them again.
        read = {"relations": TABLE_RELATIONS, "table_read": True} if request.method == "GET" else {}
        try:
            match = services.match_for_token(token=token, idempotency_key=key, **read)
        except NotFound as exc:
            return _error_page(request, exc, status=404)
        except DomainError as exc:
            if exc.code != "link_closed":
                return _error_page(request, exc, status=exc.status)
            posted = request.method == "POST"
            return _closed_page(
                request, token, error=exc if posted else None, status=409 if posted else 200
            )
        try:
            return view(request, match, **kwargs)
        except ScoringError as exc:  # hands stored before the rules changed, say
            return _error_page(request, exc, status=400)

    return wrapper


def _closed_match(token: str) -> Match | None:
    # The services' match_for_token refuses a confirmed match's link (link_closed); the closed
    # page still shows its final result, so it reads the match itself. One read, no rule.
    return Match.objects.select_related(*MATCH_RELATIONS).filter(token=token).first()


def _error_page(request: HttpRequest, exc: Exception, *, status: int) -> HttpResponse:
    context = {"error": error_message(exc), "missing": status == 404}
    return render(request, "tables/error.html", context, status=status)


def _closed_page(
    request: HttpRequest, token: str, *, error: Exception | None = None, status: int = 200
) -> HttpResponse:
    match = _closed_match(token)
    if match is None:
        return _error_page(request, services.table_link_unknown(), status=404)
    context = _context(request, match)
    context["error"] = error_message(error) if error is not None else ""
    context["error_reload"] = error is not None
    return render(request, "tables/confirmed.html", context, status=status)


# --- What every page shows --------------------------------------------------------------------


def _positions(rules: dict) -> tuple[str, ...]:
    """The seats around the table in speaking order: four, or six at a table of trios."""
    return TRIO_POSITIONS if rules.get("form") == "trios" else POSITIONS


def _side_key(match: Match) -> str:
    return f"table-side-{match.pk}"


def _remember_side(request: HttpRequest, match: Match, side: str) -> None:
    """This phone's pair, so that it waits for the other pair instead of confirming itself."""
    if side in services.PAIR_SIDES:
        request.session[_side_key(match)] = side


def _other(side: str) -> str:
    return services.SIDE_B if side == services.SIDE_A else services.SIDE_A


def _length_words(match: Match, rules: dict) -> str:
    """The round's length in the bases' words when it is not the tournament's ("" if it is):
    the phone asks for the match the round plays (selectors.rounds.round_rules)."""
    base = match.round.phase.tournament.rule_values()
    names = ("stones_per_game", "games_per_vaca", "vacas_per_match")
    if all(rules[name] == base[name] for name in names):
        return ""
    length = length_in_words(rules, stones=base["stones_per_game"])
    return f"{round_name(match.round)}: {length}"


def _context(request: HttpRequest, match: Match) -> dict[str, Any]:
    view = table_view(match=match)
    state = view["match"]
    rules = view["rules"]
    players = {p["seat"]: p for pair in view["pairs"].values() for p in pair["players"]}
    versions = [s for s in view["submissions"] if s["side"] in services.PAIR_SIDES]
    latest = {s["side"]: s for s in versions}
    remembered = request.session.get(_side_key(match), "")
    status = state["status"]
    published = match.round.status == Round.Status.PUBLISHED
    playable = match.kind != Match.Kind.BYE and bool(match.entry_a_id and match.entry_b_id)
    submitted_by = versions[-1]["side"] if status == Match.Status.SUBMITTED and versions else ""
    running = view["running"]
    bounds = RuleSet.from_dict(rules)
    positions = _positions(rules)
    trios = positions is TRIO_POSITIONS
    return {
        "token": match.token,
        "view": view,
        "state": state,
        "rules": rules,
        "round_name": round_name(match.round),
        # a round played to its own length says so at the top ("Final: al mejor de 5 juegos")
        "length_words": _length_words(match, rules),
        # when it is played, and its deadline once postponed (a query only for a date that
        # comes from the tournament's calendar of evenings)
        "when": match_when(match=match),
        # the engine's bound and the score worth a "¿seguro?" (static/js/table.js asks)
        "limits": {"max": bounds.max_game_stones, "usual": bounds.usual_game_stones},
        "seats": {pos: players.get(pos, {"seat": pos, "name": ""}) for pos in positions},
        "positions": positions,
        "trios": trios,
        # what the page calls each side: a pair, or a trio of three
        "side_names": {
            "A": _("Trío A") if trios else _("Pareja A"),
            "B": _("Trío B") if trios else _("Pareja B"),
        },
        "open": published and playable and status != Match.Status.CONFIRMED,
        # a pair has a result to confirm or to wait on: the page puts that first
        "acting": published
        and playable
        and status in (Match.Status.SUBMITTED, Match.Status.DISPUTED),
        "published": published,
        "playable": playable,
        "status": status,
        "remembered": remembered,
        "submitted_by": submitted_by,
        "submitted": _totals(latest[submitted_by]["summary"]) if submitted_by else None,
        "confirm_side": _other(submitted_by) if submitted_by else "",
        "waiting": bool(submitted_by) and remembered == submitted_by,
        "versions": [
            {**latest[s], "summary": _totals(latest[s]["summary"]), "other": _other(s)}
            for s in services.PAIR_SIDES
            if s in latest
        ],
        "result": _totals(state["result"]),
        "hands_count": len(running["hands"]),
        "running_state": running["state"],
        "penalty_games": running["penalty_games"],
        "version": state["version"],
        "key": str(uuid.uuid4()),
        "error": "",
        "js_texts": _js_texts(trios=trios),
    }


def _totals(summary: dict | None) -> dict | None:
    """A result (scoring's state) with the games each pair won, for the summary table."""
    if not summary:
        return None
    won = {team: sum(1 for g in summary["games"] if g["winner"] == team) for team in TEAMS}
    return {**summary, "won": won}


def _js_texts(*, trios: bool = False) -> dict[str, str]:
    """What static/js/table.js says to the person, translated here (no JS catalogue); at a
    table of trios the sides are trios."""
    return {
        "saved": _(
            "Guardado en este móvil; se enviará solo, aunque recargues o cierres la página."
        ),
        "sending": _("Enviando…"),
        "sent": _("Enviado."),
        "games": _("Juegos de la vaca: A {a} – B {b}"),
        "vacas": _("Vacas: A {a} – B {b}"),
        "decided": _("Partida decidida: gana el trío {p}. Revisa y envía.")
        if trios
        else _("Partida decidida: gana la pareja {p}. Revisa y envía."),
        "wins": _("gana {p}"),
        "open": _("sin terminar"),
        "ordago_who": _("órdago: ¿quién lo ganó?"),
        "both": _("las dos no pueden llegar a {target}"),
        "short": _("nadie llega a {target}: si se ganó con órdago, márcalo"),
        "too_many": _("imposible: como mucho se acaba con {limit}"),
        "contradicts": _("las piedras dicen que gana {p}"),
        "ordago_target": _("con órdago nadie llega a {target}"),
        "check": _("El juego {game} no puede acabar así: corrígelo antes de enviar."),
        "extra": _("sobra: la partida ya estaba decidida"),
        "juego": _("Juego"),
        "punto": _("Punto"),
        "nobody_pares": _("Nadie tiene pares: no se juegan."),
        "only": _("Solo el trío {p} tiene: se lo cuenta sin apuestas.")
        if trios
        else _("Solo la pareja {p} tiene: se lo cuenta sin apuestas."),
        "refused": _("Se lo lleva el trío {p}: no se quiso.")
        if trios
        else _("Se lo lleva la pareja {p}: no se quiso."),
        "derived": _("Lo dice lo declarado (puedes cambiarlo)."),
        "ordago_end": _("Órdago querido: la mano acaba aquí. Marca quién lo ganó."),
        "before_ordago": _("No cuenta: el órdago querido después acaba el juego."),
        "wanted": _("Querido: marca quién ganó."),
        "answer": _("Contesta el otro trío.") if trios else _("Contesta la otra pareja."),
        "limit": _(
            "Juego {game}: {value} piedras es más de lo que puede acabar un juego a {target}. "
            "El trío ganador acaba como mucho con {limit}."
        )
        if trios
        else _(
            "Juego {game}: {value} piedras es más de lo que puede acabar un juego a {target}. "
            "La pareja ganadora acaba como mucho con {limit}."
        ),
        "unusual": _(
            "Juego {game}: {value} piedras es mucho más de {target}; solo se llega ahí con un "
            "envite grande querido al final. ¿Seguro que es así?"
        ),
    }


def _max_games(rules: dict) -> int:
    """The most games a partida can last: every vaca and every game to its deciding one."""
    return (2 * rules["vacas_per_match"] - 1) * (2 * rules["games_per_vaca"] - 1)


def _game_rows(context: dict, post: Any = None) -> list[dict]:
    """The quick entry's rows: what was typed (after an error), else the games the anotador
    already closed (so a table can play a game hand by hand and enter the rest quickly)."""
    skip = context["penalty_games"]
    played = context["running_state"]["games"][skip:]
    # Long formats (3 vacas of 5 games...) would make the page heavy for a cheap phone: the
    # page's script adds rows as they fill (without it, a longer partida needs the organizer).
    count = max(min(_max_games(context["rules"]) - skip, MAX_ROWS), len(played) + 1)
    if post is not None:
        count = max([count, *_posted_rows(post)])
    rows = []
    for n in range(1, count + 1):
        if post is not None:
            row = {
                "a": post.get(f"g{n}_a", ""),
                "b": post.get(f"g{n}_b", ""),
                "w": post.get(f"g{n}_w", ""),
                "o": post.get(f"g{n}_o") == "on",
            }
        elif n <= len(played):
            game = played[n - 1]
            row = {
                "a": game["stones"]["A"],
                "b": game["stones"]["B"],
                "w": game["winner"] if game["ordago"] else "",
                "o": game["ordago"],
            }
        else:
            row = {"a": "", "b": "", "w": "", "o": False}
        rows.append({"n": n, **row})
    return rows


def _render_table(
    request: HttpRequest,
    match: Match,
    *,
    error: Exception | None = None,
    post: Any = None,
    status: int = 200,
) -> HttpResponse:
    context = _context(request, match)
    context["rows"] = _game_rows(context, post)
    context["penalty_winners"] = [
        g["winner"] for g in context["running_state"]["games"][: context["penalty_games"]]
    ]
    context["side"] = (post.get("side", "") if post is not None else "") or context["remembered"]
    if error is not None:
        context["error"] = _table_error(error, context)
        context["error_reload"] = _status(error) == 409
    # the table's stream: the other pair's result, a dispute, the organizer's decision, shown
    # as they happen (static/js/live.js swaps the page when the match's status changes)
    live = live_stream(f"mesa/{match.token}", match.round.phase.tournament_id)
    if live is not None:
        context["live"] = {**live, "state": context["status"]}
    return render(request, "tables/table.html", context, status=status)


def _table_error(exc: Exception, context: dict) -> str:
    if getattr(exc, "code", "") == "stale_version":
        if context["status"] in OPEN:
            return _("Se ha apuntado algo desde otro móvil; recarga la página para verlo.")
        return _("La otra pareja ya envió un resultado; recarga la página para verlo.")
    return error_message(exc)


def _status(exc: Exception) -> int:
    return getattr(exc, "status", 400)


def _device(request: HttpRequest) -> str:
    return (request.headers.get("User-Agent") or "")[:200]


def _version(post: Any) -> int:
    try:
        return int(post.get("version", ""))
    except ValueError:
        raise Invalid(
            "The page is missing the result's version: reload the page.", code="version_missing"
        ) from None


# --- The table and the quick entry ------------------------------------------------------------


@require_GET
@_table
def table_page(request: HttpRequest, match: Match) -> HttpResponse:
    return _render_table(request, match)


def _whole(raw: str) -> Any:
    """A number typed on the phone as an int; anything else as typed, for the engine to name
    ("²" is a digit to Python but no number). A number too long for Python to read (over 4,300
    digits) is read from its first 1,000: far past any limit all the same, and the engine shows
    only its first digits back."""
    if not (raw.isascii() and raw.isdigit()):
        return raw
    raw = raw.lstrip("0") or "0"
    return int(raw[:1000])


def _number(raw: str) -> Any:
    raw = raw.strip()
    if not raw:
        return 0
    return _whole(raw)  # anything else: the engine names the game


def _posted_rows(post: Any) -> list[int]:
    """The numbers of the quick entry's rows in a POST (the script may have added some)."""
    return sorted({int(found[1]) for key in post if (found := _ROW_FIELD.match(key))})


def _games_from_post(post: Any) -> list[dict]:
    """Each filled row as scoring's game: its stones (a blank one is 0), its winner if marked,
    and "ordago" if won by one. Empty rows are skipped."""
    games = []
    for n in _posted_rows(post):
        a, b = post.get(f"g{n}_a", "").strip(), post.get(f"g{n}_b", "").strip()
        winner = post.get(f"g{n}_w", "")
        ordago = post.get(f"g{n}_o") == "on"
        if not (a or b or winner in TEAMS or ordago):
            continue
        game: dict[str, Any] = {}
        if a or b:
            game["stones"] = [_number(a), _number(b)]
        if winner in TEAMS:
            game["winner"] = winner
        if ordago:
            game["ordago"] = True
        games.append(game)
    return games


@csrf_exempt
@require_POST
@_table
def table_result_submit(request: HttpRequest, match: Match) -> HttpResponse:
    """A pair's version of the result: the games entered quickly, or the anotador's hands."""
    post = request.POST
    side = post.get("side", "")
    recorded = post.get("hands") == services.RECORDED
    payload = {"hands": services.RECORDED} if recorded else {"games": _games_from_post(post)}
    try:
        answer = services.match_result_submit(
            match=match,
            side=side,
            payload=payload,
            idempotency_key=post.get("idempotency_key", ""),
            version=_version(post),
            via=services.LINK,
            device=_device(request),
        )
    except (DomainError, ScoringError) as exc:
        if recorded:
            return _render_hands(request, match, error=exc, post=post, status=_status(exc))
        return _render_table(request, match, error=exc, post=post, status=_status(exc))
    _remember_side(request, match, side)
    return redirect("web:table-receipt", token=match.token, submission_id=answer.submission.pk)


@csrf_exempt
@require_POST
@_table
def table_result_confirm(request: HttpRequest, match: Match) -> HttpResponse:
    """The other pair agrees with the version entered (or, in a dispute, accepts the other's)."""
    post = request.POST
    side = post.get("side", "")
    try:
        answer = services.match_result_confirm(
            match=match,
            side=side,
            idempotency_key=post.get("idempotency_key", ""),
            version=_version(post),
            via=services.LINK,
            device=_device(request),
        )
    except (DomainError, ScoringError) as exc:
        return _render_table(request, match, error=exc, status=_status(exc))
    _remember_side(request, match, side)
    return redirect("web:table-receipt", token=match.token, submission_id=answer.submission.pk)


@require_GET
@_table
def table_receipt(request: HttpRequest, match: Match, submission_id: int) -> HttpResponse:
    """Exactly what was recorded, and what happens next (confirmation, dispute)."""
    context = _context(request, match)
    receipt = next((s for s in context["view"]["submissions"] if s["id"] == submission_id), None)
    if receipt is None or receipt["side"] not in services.PAIR_SIDES:
        error = NotFound(
            "This receipt is not from this table. Go back to the table's page.",
            code="receipt_unknown",
        )
        return _error_page(request, error, status=404)
    context["receipt"] = receipt
    context["receipt_summary"] = _totals(receipt["summary"])
    return render(request, "tables/receipt.html", context)


# --- Hand by hand (anotador) --------------------------------------------------------------------


def _juego(raw: str) -> Any:
    return _whole(raw)


def _hand_from_post(post: Any, positions: tuple[str, ...] = POSITIONS) -> dict:
    """The hand in scoring's JSON form, relative to its mano, from the anotador's form.

    The form lists the players in seat order from this hand's mano (``mano`` is the position
    the page showed as mano; ``positions``: the table's seats, four or six); the sides are A
    and B on the page and mano/postre in the hand.
    """
    mano = post.get("mano", "")
    if mano not in positions:
        raise Invalid("The page is missing who is mano: reload the page.", code="mano_missing")
    mano_team = positions.index(mano) % 2
    seats = range(len(positions))
    pair_word = {TEAMS[mano_team]: "mano", TEAMS[1 - mano_team]: "postre"}
    if post.get("mode") == "lances":
        return _points_from_post(post, pair_word)
    pares = [post.get(f"pares_{s}", "none") or "none" for s in seats]
    juego = [_juego(post.get(f"juego_{s}", "none") or "none") for s in seats]
    declarations: dict[str, Any] = {"pares": pares, "juego": juego}
    punto = [post.get(f"punto_{s}", "").strip() for s in seats]
    nobody_juego = all(j == "none" for j in juego)
    if nobody_juego and any(punto):
        if not all(punto) and len(punto) == 6:
            raise Invalid(
                "Write the punto of all six players, or of none and mark which trio won the punto.",
                code="punto_missing_six",
            )
        if not all(punto):
            raise Invalid(
                "Write the punto of all four players, or of none and mark which pair won the "
                "punto.",
                code="punto_missing",
            )
        declarations["punto"] = [_whole(p) for p in punto]
    winners = {}
    for lance in LANCES:
        side = post.get(f"win_{lance}", "")
        if side in TEAMS:
            name = "punto" if lance == "juego" and nobody_juego else lance
            winners[name] = pair_word[side]
    declarations["winners"] = winners
    bets = {}
    for lance in LANCES:
        actions = []
        for said in post.get(f"bets_{lance}", "").split(","):
            said = said.strip()
            if not said:
                continue
            named = _PAIR_PREFIX.match(said)
            actions.append(f"{pair_word[named[1].upper()]}: {named[2]}" if named else said)
        if actions:
            bets[lance] = actions  # "juego" also carries punto's bets (scoring.jsonio)
    return {"declarations": declarations, "bets": bets}


def _points_from_post(post: Any, pair_word: dict[str, str]) -> dict:
    """The hand as a paper anotador writes it (templates/tables/_lances.html): for each lance
    the pair (A/B on the page) that took it, how, its stones and bonus; or only each pair's
    total; and, with the first hand, the score the game starts from. The engine checks every
    figure (scoring.lances)."""
    lances: dict[str, dict] = {}
    last = "punto" if post.get("lp_last") == "punto" else "juego"
    for lance in LANCES:
        team = post.get(f"lp_{lance}_to", "")
        if team not in TEAMS:
            continue
        point: dict[str, Any] = {
            "to": pair_word[team],
            "how": post.get(f"lp_{lance}_how", "paso") or "paso",
        }
        for part in ("stones", "bonus"):
            raw = post.get(f"lp_{lance}_{part}", "").strip()
            if raw:
                point[part] = _whole(raw)
        lances[last if lance == "juego" else lance] = point
    hand: dict[str, Any] = {}
    if lances:
        hand["lances"] = lances
    totals = {team: post.get(f"lp_total_{team}", "").strip() for team in TEAMS}
    if any(totals.values()):
        hand["totals"] = {pair_word[t]: _number(v) for t, v in totals.items()}
    start = {team: post.get(f"start_{team}", "").strip() for team in TEAMS}
    if any(start.values()):
        hand["start"] = {t: _number(v) for t, v in start.items()}
    return hand


def _points_context(post: Any) -> dict[str, Any]:
    """What templates/tables/_lances.html shows: each lance's row, with what was typed when
    the engine refused it (the form opens again with it)."""
    return {
        "points_open": post.get("mode") == "lances",
        "points_last": post.get("lp_last", "juego"),
        "points": [
            {
                "name": lance,
                "to": post.get(f"lp_{lance}_to", ""),
                "how": post.get(f"lp_{lance}_how", "paso"),
                "stones": post.get(f"lp_{lance}_stones", ""),
                "bonus": post.get(f"lp_{lance}_bonus", ""),
            }
            for lance in LANCES
        ],
        "points_totals": {t: post.get(f"lp_total_{t}", "") for t in TEAMS},
        "points_start": {t: post.get(f"start_{t}", "") for t in TEAMS},
        "how_choices": [
            ("paso", _("en paso")),
            ("deje", _("deje (no quiero)")),
            ("querido", _("envite querido")),
            ("ordago", _("órdago querido")),
        ],
    }


def _points_mode(rules: dict) -> bool:
    """Whether the engine takes a hand written as lance points under these rules: always for
    pairs; for another form (trios) only once scoring.lances reads it for that form, so the
    page asks the engine rather than assuming (today it reads a trios hand's ``totals`` as a
    betting record without them, and the mode stays hidden)."""
    if rules.get("form", "pairs") == "pairs":
        return True
    try:
        record = hand_from_json({"totals": {"mano": 3, "postre": 0}}, RuleSet.from_dict(rules))
    except ScoringError as error:
        return getattr(error, "code", "") not in ("unknown_field", "not_object")
    return isinstance(record, LancePoints)


def _team_of(position: str, pair: str) -> str:
    """The team (A/B) of pareja mano/postre in a hand whose mano sat at ``position`` (A1 … B3:
    seats alternate between the sides, so the letter says the side)."""
    mano_team = TEAMS.index(position[0])
    return TEAMS[mano_team if pair == "mano" else 1 - mano_team]


def _lance_labels() -> dict[str, str]:
    """What a counted event's lance is called on the page, in its language (the engine names
    it in its own words: "hand" is a hand written as its totals alone)."""
    return {
        "grande": _("Grande"),
        "chica": _("Chica"),
        "pares": _("Pares"),
        "juego": _("Juego"),
        "punto": _("Punto"),
        "perete": _("Tío Perete"),
        "hand": _("Total de la mano"),
    }


def _hand_rows(match: Match) -> list[dict]:
    """Each hand recorded: who was mano, the stones each side counted and the game after it."""
    running = match_running_score(match=match)
    labels = _lance_labels()
    rows = []
    for number, outcome in enumerate(running.outcomes, start=1):
        data = outcome_to_json(number, outcome, running.state.rules)
        got = {"A": 0, "B": 0}
        events = []
        for event in data["counted"]:
            # the pairs form names the side "pair", the other forms "side"
            team = _team_of(data["mano"], event.get("pair") or event["side"])
            got[team] += event["stones"]
            label = labels.get(event["lance"], event["lance"])
            events.append({**event, "team": team, "label": label})
        piles = {team: amarracos(stones) for team, stones in got.items()}
        rows.append({**data, "got": got, "piles": piles, "events": events})
    return rows


def _pad_amounts(least: int) -> list[int]:
    """The bets the pad offers in one tap besides its envido of ``least`` (the minimum envite,
    or what its − and + set): the next three and ten, the sizes a table says most ("tres", "cinco",
    "diez"); each is an envido when it opens a lance and a raise ("3 más") when it answers."""
    return [least + 1, least + 2, least + 3, max(10, least + 4)]


def _pares_choices() -> list[tuple[str, str, str]]:
    """The chips of each player's pares: (value, what a screen reader says, what the chip
    shows when shorter)."""
    labels = {"none": _("sin pares"), "par": _("par"), "medias": _("medias"), "duples": _("duples")}
    return [(value, labels[value], "—" if value == "none" else "") for value in PARES]


def _juego_choices(*, real: bool) -> list[tuple[str, str, str]]:
    """The chips of each player's juego: none, the juegos that decide the lance by themselves
    (31, 32, 40: the best three), any other (33 to 37, which then needs its winner) and the 31
    real when the rules have it."""
    return [
        ("none", _("sin juego"), "—"),
        ("31", "31", ""),
        ("32", "32", ""),
        ("40", "40", ""),
        ("other", _("juego de 33 a 37"), "33–37"),
        *([("31 real", _("31 real"), "")] if real else []),
    ]


def _new_game_mano(
    hands: list[dict], mano: str, seats: dict, positions: tuple[str, ...] = POSITIONS
) -> dict | None:
    """When a new game starts, its mano is not the next player after the last hand's mano but
    the next after the previous game's first (scoring.match): what the page says, so that the
    table knows why."""
    if not hands or not hands[-1]["game_ended"]:
        return None
    n = len(positions)
    expected = positions[(positions.index(hands[-1]["mano"]) + 1) % n]
    if expected == mano:
        return None
    previous = positions[(positions.index(mano) - 1) % n]

    def named(position: str) -> str:
        name = seats[position]["name"]
        return f"{name} ({position})" if name else position

    return {"expected": named(expected), "previous": named(previous)}


def _render_hands(
    request: HttpRequest,
    match: Match,
    *,
    error: Exception | None = None,
    post: Any = None,
    status: int = 200,
) -> HttpResponse:
    context = _context(request, match)
    state = context["running_state"]
    mano = state["next_mano"]
    positions = context["positions"]
    start = positions.index(mano)
    order = [positions[(start + seat) % len(positions)] for seat in range(len(positions))]
    post = post if post is not None else {}
    hands = _hand_rows(match)
    context.update(
        {
            "hands": hands,
            "new_game_mano": _new_game_mano(hands, mano, context["seats"], positions),
            # the first hand may start from a score written on paper (scoring: start_of)
            "game_start": not hands,
            "start": {"a": post.get("start_a", ""), "b": post.get("start_b", "")},
            "start_max": context["rules"]["stones_per_game"] - 1,
            "mano": mano,
            "mano_team": mano[0],
            "postre_team": TEAMS[1 - positions.index(mano) % 2],
            "number": state["hands"] + 1,
            "players": [
                {
                    "seat": seat,
                    "position": position,
                    "team": position[0],
                    "name": context["seats"][position]["name"],
                    "pares": post.get(f"pares_{seat}", "none") or "none",
                    "juego": post.get(f"juego_{seat}", "none") or "none",
                    "punto": post.get(f"punto_{seat}", ""),
                }
                for seat, position in enumerate(order)
            ],
            "lances": [
                {
                    "name": lance,
                    "bets": post.get(f"bets_{lance}", ""),
                    "winner": post.get(f"win_{lance}", ""),
                }
                for lance in LANCES
            ],
            "amarracos": {t: amarracos(state["stones"][t]) for t in TEAMS},
            "pad_amounts": _pad_amounts(context["rules"]["min_envite"]),
            "pares_choices": _pares_choices(),
            "juego_choices": _juego_choices(real=context["rules"]["real_31"] != "off"),
            "hand_entry": context["open"] and context["status"] in OPEN,
            "points_mode": _points_mode(context["rules"]),
            "side": post.get("side", "") or context["remembered"],
            **_points_context(post),
        }
    )
    context["reload_url"] = reverse("web:table-hands", kwargs={"token": match.token})
    if error is not None:
        context["error"] = _table_error(error, context)
        context["error_reload"] = _status(error) == 409
    return render(request, "tables/hands.html", context, status=status)


def _start_from_post(post: Any, target: int) -> tuple[int, int]:
    """The score a game starts from when the table brings it written on paper: each pair's
    stones, a whole number from 0 to one less than the game's target (blank is 0)."""
    start = []
    for side in TEAMS:
        raw = post.get(f"start_{side.lower()}", "").strip()
        value = _whole(raw) if raw else 0
        if not isinstance(value, int) or not 0 <= value < target:
            raise Invalid(
                "Pareja {side} cannot start the game with '{value}' stones: a game to {target} "
                "starts from a whole number of stones from 0 to {limit}.",
                code="start_score_range",
                side=side,
                value=raw[:12],
                target=target,
                limit=target - 1,
            )
        start.append(value)
    return start[0], start[1]


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
@_table
def table_hands(request: HttpRequest, match: Match) -> HttpResponse:
    """The anotador: the score so far and the form of the next hand (POST records it)."""
    if request.method != "POST":
        return _render_hands(request, match)
    post = request.POST
    try:
        rules = match_rules(match=match)
        hand = _hand_from_post(post, _positions(rules.as_dict()))
        start = _start_from_post(post, rules.stones_per_game)
        if start != (0, 0):  # the hands service reads it from the first hand (start_of)
            hand["start"] = list(start)
        services.match_hand_add(
            match=match,
            hand=hand,
            idempotency_key=post.get("idempotency_key", ""),
            version=_version(post),
            via=services.LINK,
            device=_device(request),
        )
    except (DomainError, ScoringError) as exc:
        return _render_hands(request, match, error=exc, post=post, status=_status(exc))
    return redirect("web:table-hands", token=match.token)


@csrf_exempt
@require_POST
@_table
def table_hand_undo(request: HttpRequest, match: Match) -> HttpResponse:
    """Remove the last hand recorded (a mistake at the table)."""
    try:
        services.match_hand_undo(
            match=match, version=_version(request.POST), via=services.LINK, device=_device(request)
        )
    except (DomainError, ScoringError) as exc:
        return _render_hands(request, match, error=exc, status=_status(exc))
    return redirect("web:table-hands", token=match.token)


# --- Offline: the service worker --------------------------------------------------------------


@require_GET
def table_service_worker(request: HttpRequest) -> HttpResponse:
    """static/js/sw.js from the site's root, so that its scope may cover the table's pages
    (a worker's scope is at most the folder it is served from); checked for a new version at
    every load of a page (no-cache), never kept stale."""
    found = finders.find("js/sw.js") or staticfiles_storage.path("js/sw.js")
    with open(found, encoding="utf-8") as source:
        script = source.read()
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


urlpatterns = [
    path("sw.js", table_service_worker, name="table-sw"),
    path("mesa/<str:token>/", table_page, name="table"),
    path("mesa/<str:token>/resultado/", table_result_submit, name="table-submit"),
    path("mesa/<str:token>/confirmar/", table_result_confirm, name="table-confirm"),
    path("mesa/<str:token>/anotador/", table_hands, name="table-hands"),
    path("mesa/<str:token>/anotador/deshacer/", table_hand_undo, name="table-hand-undo"),
    path("mesa/<str:token>/recibo/<int:submission_id>/", table_receipt, name="table-receipt"),
]
