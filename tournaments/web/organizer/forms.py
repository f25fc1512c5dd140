"""Forms of the organizer's desk: they read what a person typed into plain values.

Responsible for: field types, required fields and the one text format of this area — a
result typed as the final piedras of each juego ("40-32, 27-40, 40-11"; a juego won by an
órdago as its piedras when it was accepted and who won it: "24-18 órdago B"; one known only
by its winner, as a table may enter it: "gana B"), which becomes
the ``{"games": [{"stones": [A, B]}, {"stones": [A, B], "winner": "B", "ordago": true}, …]}``
payload the results services take, the same a table's phone and the API send; and that text
written back from a stored result (``games_text``), so a correction starts from it.

Must not: decide a rule (whether a result ends the partida, whether a pair may check in, how
many rounds a phase needs): the services and scoring/ do, and the views show their errors.
Forms never create rows.

Terms: peña, pareja (pair), cabeza de serie (seed), mesa (table), fase (phase), suizo,
liguilla, eliminatoria, doble eliminación, a tres ceros, juego (game), vaca, piedras (stones).
"""

from __future__ import annotations

import json
import re
import uuid

from django import forms
from django.conf import settings
from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from config.errors import error_message
from scoring import RuleSet, ScoringError
from scoring.rules import REAL_31_SUITS
from scoring.rules import Form as HandsForm
from tournaments.models import Phase, Tournament
from tournaments.selectors.rounds import FORM_OF_ENTRANT_KIND

SIDES = [("a", _("Pareja A")), ("b", _("Pareja B"))]

# A game as "40-32" (A first); an en dash, a colon or spaces around the dash are fine too. The
# engine says which stones a game can end with (a bet has no ceiling, so a game may end in four
# or five digits: scoring.RuleSet.max_game_stones); the pattern only reads numbers.
# Won by an órdago: "24-18 órdago B" (the piedras when it was accepted, then who won it; the
# Basque "hordago", no accent, brackets or a colon are fine too).
GAME_RE = re.compile(
    r"^\s*(\d{1,12})\s*[-–—:/]\s*(\d{1,12})\s*"
    r"(?:\(?\s*(h?[oó]rdago)\b\s*:?\s*([ab])?\s*\)?)?\s*$",
    re.IGNORECASE,
)
# A game a table entered by its winner only (no piedras): "gana B".
WINNER_RE = re.compile(r"^\s*gana\s+([ab])\s*$", re.IGNORECASE)
#: the word a game won by an órdago is marked with, in the text the form shows
ORDAGO_WORD = "órdago"


def games_text(games: list[dict], *, target: int) -> str:
    """The games of a stored result (scoring's JSON: stones, winner, ordago) as the text the
    form reads back: "24-18 órdago A, 12-32 órdago A, 40-38"; a game nobody took to
    ``target`` without an órdago was entered by its winner only: "gana B"."""
    parts = []
    for game in games:
        stones, winner = game["stones"], game["winner"]
        if game.get("ordago"):
            parts.append(f"{stones['A']}-{stones['B']} {ORDAGO_WORD} {winner}")
        elif max(stones["A"], stones["B"]) < target:
            parts.append(f"gana {winner}")
        else:
            parts.append(f"{stones['A']}-{stones['B']}")
    return ", ".join(parts)


def new_key() -> str:
    """A fresh idempotency key for a form shown once: a double tap sends the same one."""
    return uuid.uuid4().hex


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)


class Form(forms.Form):
    """The area's forms: labels without a trailing colon (the label sits above the field)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


def _optional_int(label, *, min_value=None, max_value=None, help_text="", **kwargs):
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=min_value,
        max_value=max_value,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        **kwargs,
    )


# --- Peña and tournament ----------------------------------------------------------------------


class ClubCreateForm(Form):
    name = forms.CharField(label=_("Nombre de la peña"), max_length=120)
    town = forms.CharField(label=_("Localidad"), max_length=120, required=False)
    language = forms.ChoiceField(
        label=_("Idioma de los correos"),
        choices=settings.LANGUAGES,
        required=False,
        help_text=_("Los emparejamientos a los jugadores y los avisos a los organizadores."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # the organizer's own language unless they choose another
        codes = [code for code, _name in settings.LANGUAGES]
        language = (get_language() or "es").split("-")[0]
        self.fields["language"].initial = language if language in codes else "es"

    def clean_language(self) -> str:
        return self.cleaned_data.get("language") or self.fields["language"].initial


#: the house rules the tournament form shows (a column of clubs.models.RuleSetFields each); the
#: game's length (piedras, juegos, vacas) comes with the preset and the phase
HOUSE_RULES = (
    "kings",
    "real_31",
    "real_31_suit",
    "tio_perete",
    "forgotten_stones_lost",
    "dejes",
    "min_envite",
)

#: which field shows an engine's error about the rule set, by its code (else: the whole form)
RULE_ERROR_FIELD = {
    "real_31": "real_31",
    "real_31_form": "real_31",
    "tio_perete_form": "tio_perete",
    "real_31_suit": "real_31_suit",
    "real_31_suit_unused": "real_31_suit",
    "min_envite": "min_envite",
    "kings": "kings",
    "dejes": "dejes",
}


def _rule_label(name: str):
    return capfirst(Tournament._meta.get_field(name).verbose_name)


def _house_rule_fields() -> dict[str, forms.Field]:
    real_31 = Tournament._meta.get_field("real_31")
    return {
        "kings": forms.TypedChoiceField(
            label=_rule_label("kings"),
            choices=Tournament._meta.get_field("kings").choices,
            coerce=int,
            required=False,
            help_text=_("Con 8 reyes, cada tres vale como un rey y cada dos como un as."),
        ),
        "real_31": forms.ChoiceField(
            label=_rule_label("real_31"),
            choices=real_31.choices,
            required=False,
            help_text=_("Si una 31 real gana a las demás 31, y qué mano la hace."),
        ),
        "real_31_suit": forms.ChoiceField(
            label=_rule_label("real_31_suit"),
            choices=[("", "—"), *[(suit, suit) for suit in REAL_31_SUITS]],
            required=False,
            help_text=_("Solo con «sota de un palo y tres sietes»: el palo de esa sota."),
        ),
        "tio_perete": forms.BooleanField(
            label=_rule_label("tio_perete"),
            required=False,
            help_text=_("Cuatro, cinco, seis y siete enseñados antes de jugar: una piedra."),
        ),
        "forgotten_stones_lost": forms.BooleanField(
            label=_rule_label("forgotten_stones_lost"),
            required=False,
            help_text=_("Una mano ya no se corrige cuando se apunta la siguiente."),
        ),
        "dejes": forms.BooleanField(
            label=_rule_label("dejes"),
            required=False,
            help_text=_("Sin marcar se juega sin deje: un envite no querido no da piedras."),
        ),
        "min_envite": forms.IntegerField(
            label=_rule_label("min_envite"),
            min_value=1,
            max_value=10,
            required=False,
            help_text=_("Las piedras del envite más pequeño (de ordinario, 2)."),
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        ),
    }


#: the format by entries on the tournament's form: from ``format_from`` entries up, the
#: ``format_*`` options; below, the ``below_*`` ones (empty: the tournament's own)
FORMAT_FIELDS = (
    "format_from",
    "format_games_per_vaca",
    "format_vacas_per_match",
    "format_stones_per_game",
    "below_games_per_vaca",
    "below_vacas_per_match",
    "below_stones_per_game",
)


def format_initial(rules: list[dict]) -> dict:
    """The form's initial format-by-entries fields from a tournament's ``rules_by_entries``:
    the rule from the most entries, and the one from 0 as "with fewer"."""
    initial: dict = {}
    if not rules:
        return initial
    top = max(rules, key=lambda r: r["from"])
    if top["from"] > 0:
        initial["format_from"] = top["from"]
        initial.update({f"format_{k}": v for k, v in top["rules"].items()})
    bottom = next((r for r in rules if r["from"] == 0), None)
    if bottom is not None:
        initial.update({f"below_{k}": v for k, v in bottom["rules"].items()})
    return initial


class TournamentForm(Form):
    """Name, date, venue, tables and the rule set: a preset by name, and the house rules.

    The house rules start as ``rules_initial`` (the default preset's on a new tournament, the
    tournament's own when editing); only the ones the organizer changed are sent, as ``rules``,
    over the preset chosen — so choosing another preset without touching them plays that
    preset's. Before anything is sent, the engine (scoring.RuleSet) checks the rule set that
    would result, in the form of hands the entrants play, and its error is shown on the field.
    """

    preset = forms.ChoiceField(label=_("Reglas"))
    name = forms.CharField(label=_("Nombre del torneo"), max_length=160)
    starts_on = forms.DateField(label=_("Fecha"), widget=DateInput())
    venue = forms.CharField(label=_("Lugar"), max_length=160, required=False)
    tables_available = forms.IntegerField(
        label=_("Mesas disponibles"),
        min_value=0,
        initial=0,
        help_text=_("0: una mesa por partida, sin límite."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    max_pairs = _optional_int(
        _("Máximo de parejas"), min_value=2, help_text=_("Vacío: sin límite.")
    )
    late_minutes_per_game = _optional_int(
        _("Minutos de retraso por juego perdido"),
        min_value=1,
        help_text=_("Vacío: sin penalización por retraso."),
    )
    is_public = forms.BooleanField(
        label=_("Público: cualquiera ve las rondas y la clasificación"),
        required=False,
        initial=True,
    )
    entrant_kind = forms.ChoiceField(
        label=_("Se inscriben"),
        choices=Tournament.EntrantKind.choices,
        initial=Tournament.EntrantKind.PAIRS,
        required=False,
        help_text=_(
            "Individual: cada ronda se sortean las parejas. Mus francés: mesas de 3 a 6 jugadores."
        ),
    )
    frances_table_size = forms.IntegerField(
        label=_("Jugadores por mesa de mus francés"),
        min_value=3,
        max_value=6,
        initial=4,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    points_win = _optional_int(
        _("Puntos por partida ganada"),
        min_value=0,
        max_value=99,
        help_text=_(
            "Como en las bases, p. ej. 2. Vacío: la clasificación cuenta partidas ganadas."
        ),
    )
    points_loss = _optional_int(_("Puntos por partida perdida"), min_value=0, max_value=99)
    points_walkover_loss = _optional_int(
        _("Puntos por partida no presentada"), min_value=0, max_value=99
    )

    min_entries = _optional_int(
        _("Mínimo de inscritos"),
        min_value=2,
        help_text=_("Con menos, el torneo no empieza. Vacío: sin mínimo."),
    )
    field_sizes = forms.CharField(
        label=_("Cuadros permitidos"),
        required=False,
        max_length=80,
        help_text=_(
            "P. ej. «12, 16»: con 14 inscritos se juega con 12, y los 2 últimos inscritos se "
            "quedan fuera al empezar (se les avisa y se les devuelve la inscripción). Vacío: "
            "cualquier número."
        ),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    format_from = _optional_int(
        _("Con al menos estos inscritos"),
        min_value=2,
        help_text=_("El formato de partida se elige al empezar, según los inscritos."),
    )
    format_games_per_vaca = _optional_int(_("…juegos por vaca"), min_value=1, max_value=9)
    format_vacas_per_match = _optional_int(_("…vacas por partida"), min_value=1, max_value=9)
    format_stones_per_game = _optional_int(_("…piedras por juego"), min_value=10, max_value=100)
    below_games_per_vaca = _optional_int(_("Con menos: juegos por vaca"), min_value=1, max_value=9)
    below_vacas_per_match = _optional_int(
        _("Con menos: vacas por partida"), min_value=1, max_value=9
    )
    below_stones_per_game = _optional_int(
        _("Con menos: piedras por juego"), min_value=10, max_value=100
    )

    def format_fields(self) -> list:
        """The bound fields of the format by entries, in the order the page shows them."""
        return [self[name] for name in FORMAT_FIELDS]

    def clean_field_sizes(self) -> list[int]:
        text = self.cleaned_data.get("field_sizes") or ""
        parts = [p for p in re.split(r"[\s,;yo/]+", text) if p]
        if not all(p.isdigit() for p in parts):
            raise forms.ValidationError(_("Escribe los cuadros como números: «12, 16»."))
        return sorted({int(p) for p in parts})

    def _rules_by_entries(self, data: dict) -> None:
        """The format by entries (FORMAT_FIELDS, popped from ``data``) as ``rules_by_entries``;
        left out unless the organizer changed it (a format set through the API that the page
        cannot show stays as it is)."""
        values = {name: data.pop(name, None) for name in FORMAT_FIELDS}
        if not set(FORMAT_FIELDS) & set(self.changed_data):
            return
        options = ("stones_per_game", "games_per_vaca", "vacas_per_match")
        above = {o: values[f"format_{o}"] for o in options if values[f"format_{o}"] is not None}
        below = {o: values[f"below_{o}"] for o in options if values[f"below_{o}"] is not None}
        start = values["format_from"]
        if start is None and (above or below):
            self.add_error("format_from", _("Di con cuántos inscritos cambia el formato."))
            return
        if start is not None and not above:
            self.add_error("format_games_per_vaca", _("Di cómo se juega con esos inscritos o más."))
            return
        rules = [{"from": start, "rules": above}] if start is not None else []
        if below:
            rules.insert(0, {"from": 0, "rules": below})
        data["rules_by_entries"] = rules

    def clean(self):
        data = super().clean()
        self._rules_by_entries(data)
        for name in ("points_loss", "points_walkover_loss"):
            if data.get(name) is None:
                data[name] = 0  # left empty: a loss is worth nothing
        rules = self._rules_changed(data)
        # Not sent (an older form, a script): the tournament keeps (or gets) the default.
        for name in ("entrant_kind", "frances_table_size"):
            if data.get(name) in ("", None):
                data.pop(name, None)
        if rules:
            data["rules"] = rules
            self._check_rules(data, rules)
        return data

    def __init__(
        self,
        *args,
        presets=(),
        editing: bool = False,
        rules_initial: dict | None = None,
        entrant_kind: str = Tournament.EntrantKind.PAIRS,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        choices = [(p.name, p.name) for p in presets]
        if editing:
            # A tournament whose rules were set value by value has no preset: keep them.
            self.fields["preset"].required = False
            choices = [("", _("— las reglas actuales —")), *choices]
        self.fields["preset"].choices = choices
        self.presets = {p.name: p for p in presets}
        self.rules_initial = dict(rules_initial or RuleSet().as_dict())
        self.entrant_kind = entrant_kind
        self.fields.update(_house_rule_fields())
        # says that the page showed the house rules: an unticked box then means "off"
        self.fields["house_rules_shown"] = forms.BooleanField(
            required=False, initial=True, widget=forms.HiddenInput
        )
        for name in HOUSE_RULES:
            self.initial.setdefault(name, self.rules_initial.get(name))

    def house_rules(self) -> list:
        """The bound fields of the house rules, in the order the page shows them."""
        return [self[name] for name in HOUSE_RULES]

    def _rules_changed(self, data: dict) -> dict:
        """The house rules the organizer changed (popped from ``data``), as ``rules`` values;
        none when the page sent no house rules (an older form, a script)."""
        values = {name: data.pop(name, None) for name in HOUSE_RULES}
        if not data.pop("house_rules_shown", False):
            return {}
        rules = {name: values[name] for name in HOUSE_RULES if name in self.changed_data}
        for name in ("kings", "min_envite"):
            if rules.get(name) is None:
                rules.pop(name, None)  # emptied: the preset's value stands
        if "real_31" in rules and rules["real_31"] == "":
            rules.pop("real_31")
        real_31 = rules.get("real_31", self.rules_initial.get("real_31"))
        if "real_31" in rules and real_31 != "sota_of_suit":
            rules["real_31_suit"] = ""  # the suit belongs to that variant only
        return rules

    def _check_rules(self, data: dict, rules: dict) -> None:
        """The engine's word on the rule set the tournament would play, shown on the form."""
        preset = self.presets.get(data.get("preset") or "")
        base = preset.rule_values() if preset is not None else self.rules_initial
        kind = data.get("entrant_kind") or self.entrant_kind
        form = FORM_OF_ENTRANT_KIND.get(kind, HandsForm.PAIRS)
        try:
            RuleSet.from_dict({**base, **rules, "form": form.value})
        except ScoringError as exc:
            self.add_error(RULE_ERROR_FIELD.get(exc.code), error_message(exc))

    def changes(self) -> dict:
        """The cleaned values named as tournament_update takes them; no preset chosen, no
        change of the rules."""
        data = dict(self.cleaned_data)
        if not data.get("preset"):
            data.pop("preset", None)
        return data


# --- Prizes -----------------------------------------------------------------------------------

#: what a prize goes to, as the page offers it: (kind, measure) of tournaments.draw.prizes
PRIZE_WHAT = {
    "most_won": ("most", "won"),
    "fewest_won": ("fewest", "won"),
    "best_stone_difference": ("most", "stone_difference"),
    "most_points": ("most", "points"),
    "most_stones_won": ("most", "stones_won"),
    "group_best": ("group_best", "won"),
}
#: a range or a list of phases: "1-2", "1, 3", "2"
PHASES_RE = re.compile(r"^\s*\d{1,2}(\s*-\s*\d{1,2})?(\s*[,y ]\s*\d{1,2}(\s*-\s*\d{1,2})?)*\s*$")


class PrizeForm(Form):
    """A prize of the bases in the organizer's words; ``prize()`` is its JSON form, which
    tournaments.draw.prizes checks (through the services) and names when it is wrong."""

    name = forms.CharField(
        label=_("Nombre del premio"),
        max_length=80,
        widget=forms.TextInput(attrs={"placeholder": _("Premio a la peor pareja")}),
    )
    what = forms.ChoiceField(
        label=_("Para"),
        choices=[
            ("most_won", _("la que más partidas gane")),
            ("fewest_won", _("la que menos partidas gane (premio a la peor pareja)")),
            ("best_stone_difference", _("la mejor diferencia de piedras")),
            ("most_points", _("la que más puntos sume")),
            ("most_stones_won", _("la que más piedras gane")),
            ("group_best", _("la mejor de cada grupo")),
        ],
    )
    phases = forms.CharField(
        label=_("Fases que cuentan"),
        required=False,
        max_length=40,
        help_text=_("Por su número en el torneo: 1-2, o 1, 3. Vacío: todas."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    tiebreak = forms.ChoiceField(
        label=_("Si empatan, desempata"),
        required=False,
        choices=[
            ("", _("nada")),
            ("stone_difference", _("la diferencia de piedras")),
            ("game_difference", _("la diferencia de juegos")),
            ("stones_won", _("las piedras ganadas")),
        ],
    )
    ties = forms.ChoiceField(
        label=_("Si sigue el empate"),
        choices=[("shared", _("se reparte")), ("lots", _("se sortea"))],
        initial="shared",
        widget=forms.RadioSelect,
    )

    def clean_phases(self) -> list[int]:
        text = self.cleaned_data.get("phases") or ""
        if not text.strip():
            return []
        if not PHASES_RE.match(text):
            raise forms.ValidationError(
                _("Escribe las fases por su número: 1-2, o 1, 3. Vacío: todas.")
            )
        phases: set[int] = set()
        for part in re.split(r"[,y ]+", re.sub(r"\s*-\s*", "-", text).strip()):
            if "-" in part:
                low, high = (int(x) for x in part.split("-"))
                phases.update(range(min(low, high), max(low, high) + 1))
            elif part:
                phases.add(int(part))
        return sorted(phases)

    def prize(self) -> dict:
        data = self.cleaned_data
        kind, measure = PRIZE_WHAT[data["what"]]
        tiebreaks = [data["tiebreak"]] if data.get("tiebreak") and kind != "group_best" else []
        return {
            "name": data["name"],
            "kind": kind,
            "measure": measure,
            "phases": data["phases"],
            "tiebreaks": [t for t in tiebreaks if t != measure],
            "ties": data["ties"],
        }


# --- Registration -----------------------------------------------------------------------------


class EntryAddForm(Form):
    """One pair: two players of the peña, or their names typed as "Ana García / Luis Pérez"."""

    player_one = forms.TypedChoiceField(label=_("Jugador"), coerce=int, required=False)
    player_two = forms.TypedChoiceField(label=_("Compañero"), coerce=int, required=False)
    names = forms.CharField(
        label=_("O escribe la pareja"),
        max_length=300,
        required=False,
        widget=forms.TextInput(
            attrs={"placeholder": "Ana García / Luis Pérez", "autocomplete": "off"}
        ),
    )

    def __init__(self, *args, players=(), **kwargs):
        """``players``: the peña's players to choose from; None for a peña too large to list
        them (entries.MAX_CHOICES): then the pair is typed, and the two lists are left out."""
        super().__init__(*args, **kwargs)
        if players is None:
            del self.fields["player_one"], self.fields["player_two"]
            return
        choices = [("", "—")] + [(p.pk, str(p)) for p in players]
        self.fields["player_one"].choices = choices
        self.fields["player_two"].choices = choices

    def clean(self):
        data = super().clean()
        chosen = [data.get("player_one"), data.get("player_two")]
        names = (data.get("names") or "").strip()
        if names and any(chosen):
            raise forms.ValidationError(
                _("Elige dos jugadores o escribe la pareja, no las dos cosas.")
            )
        if not names and not all(chosen):
            raise forms.ValidationError(
                _("Elige los dos jugadores de la pareja, o escribe sus nombres.")
            )
        return data


class EntriesPasteForm(Form):
    """A pasted list, or a CSV file (``csv_text``: the text of a file already previewed, sent
    again to register it); one of them."""

    text = forms.CharField(
        label=_("Pega la lista: una pareja por línea"),
        required=False,
        strip=False,
        widget=forms.Textarea(
            attrs={
                "rows": 8,
                "placeholder": "Ana García / Luis Pérez\nLos de la Txantrea: Miren Etxeberria / "
                "Jon Agirre",
            }
        ),
    )
    file = forms.FileField(
        label=_("O importa un archivo CSV"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv,text/plain"}),
    )
    csv_text = forms.CharField(required=False, strip=False, widget=forms.HiddenInput)

    def clean(self):
        data = super().clean()
        typed = bool((data.get("text") or "").strip())
        if data.get("file") is not None:
            data["csv_text"] = ""  # a new file replaces the one previewed
        chosen = data.get("file") is not None or bool(data.get("csv_text"))
        if typed and chosen:
            raise forms.ValidationError(
                _("Pega una lista o importa un archivo, no las dos cosas a la vez.")
            )
        if not typed and not chosen:
            raise forms.ValidationError(_("Pega la lista, o elige un archivo CSV."))
        return data


class SeedForm(Form):
    seed = _optional_int(_("Cabeza de serie"), min_value=1, help_text=_("Vacío: ninguna."))


class PinForm(Form):
    table = _optional_int(_("Mesa fija"), min_value=1, help_text=_("Vacío: ninguna."))


# --- Phases and rounds ------------------------------------------------------------------------


FORMAT_CHOICES = [
    (Phase.Format.SWISS.value, _("Suizo")),
    (Phase.Format.ROUND_ROBIN.value, _("Liguilla (grupos)")),
    (Phase.Format.SINGLE_ELIMINATION.value, _("Eliminatoria")),
    (Phase.Format.DOUBLE_ELIMINATION.value, _("Doble eliminación (con repesca)")),
    (Phase.Format.LIVES.value, _("A tres ceros")),
    (Phase.Format.GROUP_LADDER.value, _("Escalera de grupos (ascensos y descensos)")),
    (Phase.Format.TABLE_LADDER.value, _("Sube y baja (escalera de mesas)")),
]

LADDER_MOVE_CHOICES = [
    ("wins", _("Sube quien gana todas sus partidas del ciclo; baja quien las pierde todas")),
    ("place", _("Por puesto en el grupo: suben los primeros y bajan los últimos")),
]


RULE_CHOICES = [
    ("", _("Todas las parejas inscritas")),
    ("all", _("Todas las parejas de una fase")),
    ("top", _("Las N primeras de una fase")),
    ("top_of_each_group", _("Las N primeras de cada grupo")),
    ("group_winners", _("El primero de cada grupo")),
    ("places", _("Los puestos de X a Y")),
    ("group", _("Las parejas de un grupo")),
    ("not_qualified", _("Las no clasificadas (cuadro B)")),
    ("losers", _("Las perdedoras de una ronda")),
    ("fixed", _("Las parejas que elijo")),
]
#: what each rule reads besides its phase (tournaments.draw.plan)
RULE_OPTIONS = {
    "all": {"phase"},
    "top": {"phase", "count"},
    "top_of_each_group": {"phase", "count"},
    "group_winners": {"phase"},
    "places": {"phase", "first", "last"},
    "group": {"phase", "group", "first", "last"},
    "not_qualified": {"phase"},
    "losers": {"phase", "stage"},
}
SEEDING_CHOICES = [
    ("", _("Por sorteo, separando peñas")),
    ("snake", _("En serpiente según la clasificación")),
    ("level", _("Por nivel: los primeros al grupo 1, los siguientes al 2…")),
    ("pots", _("Por sorteo dentro de cada bombo")),
    ("lot", _("Por sorteo puro")),
]


class PhaseForm(Form):
    name = forms.CharField(label=_("Nombre de la fase"), max_length=80, initial=_("Suizo"))
    format = forms.ChoiceField(label=_("Sistema"), choices=FORMAT_CHOICES)
    rounds_planned = _optional_int(_("Rondas"), min_value=1, max_value=50)
    group_size = _optional_int(_("Parejas por grupo"), min_value=2, max_value=64)
    source_id = forms.TypedChoiceField(
        label=_("Con los clasificados de"), coerce=int, required=False, empty_value=None
    )
    qualifiers_per_group = _optional_int(_("Clasificados por grupo"), min_value=1, max_value=64)
    lives = forms.IntegerField(
        label=_("Derrotas para quedar fuera"),
        min_value=1,
        max_value=9,
        initial=3,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    third_place = forms.BooleanField(label=_("Partida por el tercer puesto"), required=False)
    grand_final_reset = forms.BooleanField(
        label=_("Final repetida si gana quien viene de la repesca"), required=False, initial=True
    )
    separate_clubs_rounds = _optional_int(
        _("Rondas sin cruzar parejas de la misma peña"), min_value=0, max_value=50
    )
    stones_per_game = _optional_int(_("Piedras por juego (si cambia)"), min_value=10, max_value=100)
    games_per_vaca = _optional_int(_("Juegos por vaca (si cambia)"), min_value=1, max_value=9)
    vacas_per_match = _optional_int(_("Vacas por partida (si cambia)"), min_value=1, max_value=9)
    # A knockout's length per round, counted from the final (services.lengths): empty, the
    # round plays the phase's length
    final_games_per_vaca = _optional_int(_("Final: juegos por vaca"), min_value=1, max_value=9)
    final_vacas_per_match = _optional_int(_("Final: vacas por partida"), min_value=1, max_value=9)
    semifinal_games_per_vaca = _optional_int(
        _("Semifinales: juegos por vaca"), min_value=1, max_value=9
    )
    semifinal_vacas_per_match = _optional_int(
        _("Semifinales: vacas por partida"), min_value=1, max_value=9
    )
    quarterfinal_games_per_vaca = _optional_int(
        _("Cuartos de final: juegos por vaca"), min_value=1, max_value=9
    )
    quarterfinal_vacas_per_match = _optional_int(
        _("Cuartos de final: vacas por partida"), min_value=1, max_value=9
    )
    earlier_games_per_vaca = _optional_int(
        _("Rondas anteriores: juegos por vaca"), min_value=1, max_value=9
    )
    earlier_vacas_per_match = _optional_int(
        _("Rondas anteriores: vacas por partida"), min_value=1, max_value=9
    )
    ladder_groups = _optional_int(_("Grupos de nivel"), min_value=2, max_value=26)
    cycle_rounds = _optional_int(_("Rondas de cada ciclo"), min_value=1, max_value=30)
    cycles = _optional_int(_("Ciclos"), min_value=1, max_value=30)
    move_by = forms.ChoiceField(
        label=_("Quién sube y quién baja"), choices=LADDER_MOVE_CHOICES, required=False
    )
    moves = _optional_int(
        _("Parejas que suben y bajan en cada grupo (vacío: todas las que cumplan)"),
        min_value=1,
        max_value=16,
    )
    swap = forms.BooleanField(
        label=_(
            "Quien gana dos veces seguidas en la mesa 1 cambia un jugador con quien pierde dos "
            "veces seguidas en la última (jugadores sueltos)"
        ),
        required=False,
    )

    #: the ladder's fields and the option of phase_create's ``ladder`` each one fills
    LADDER_FIELDS = {
        "ladder_groups": "groups",
        "cycle_rounds": "cycle_rounds",
        "cycles": "cycles",
        "move_by": "move_by",
        "moves": "moves",
        "swap": "swap",
    }

    #: the knockout's stages the form sets a length for, and the options of each
    STAGES = ("earlier", "quarterfinal", "semifinal", "final")
    STAGE_OPTIONS = ("games_per_vaca", "vacas_per_match")
    KNOCKOUTS = frozenset((Phase.Format.SINGLE_ELIMINATION, Phase.Format.DOUBLE_ELIMINATION))
    # The plan: where this phase's pairs come from (one rule here; more as JSON below)
    entrants_rule = forms.ChoiceField(
        label=_("Parejas que juegan esta fase"), choices=RULE_CHOICES, required=False
    )
    entrants_phase = forms.TypedChoiceField(
        label=_("De la fase"), coerce=int, required=False, empty_value=None
    )
    entrants_count = _optional_int(_("Cuántas (N)"), min_value=1, max_value=256)
    entrants_first = _optional_int(_("Desde el puesto"), min_value=1, max_value=256)
    entrants_last = _optional_int(_("Hasta el puesto"), min_value=1, max_value=256)
    entrants_group = _optional_int(_("Grupo número"), min_value=1, max_value=64)
    entrants_stage = _optional_int(_("Ronda número"), min_value=1, max_value=9)
    entrants_entries = forms.TypedMultipleChoiceField(
        label=_("Parejas elegidas"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    entrants_json = forms.CharField(
        label=_("Reglas (JSON, para varias)"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text=_(
            'Por ejemplo: [{"rule": "group_winners", "phase": 1}, {"rule": "places", "phase": 1, '
            '"first": 9, "last": 10}]. Si lo rellenas, sustituye a la regla de arriba.'
        ),
    )
    seeding = forms.ChoiceField(
        label=_("Reparto en grupos"), choices=SEEDING_CHOICES, required=False
    )
    group_sizes = forms.CharField(
        label=_("Grupos de distinto tamaño"),
        required=False,
        max_length=200,
        help_text=_("Por ejemplo: 4, 6. Vacío: todos del tamaño de arriba."),
    )

    def __init__(self, *args, phases=(), entries=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["source_id"].choices = [("", "—")] + [(p.pk, p.name) for p in phases]
        self.fields["entrants_phase"].choices = [("", "—")] + [
            (p.order, f"{p.order}. {p.name}") for p in phases
        ]
        self.fields["entrants_entries"].choices = [(e.pk, str(e.pair)) for e in entries]

    def clean_group_sizes(self) -> list[int]:
        text = (self.cleaned_data.get("group_sizes") or "").replace(";", ",")
        try:
            return [int(part) for part in text.split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(
                _("Escribe los tamaños separados por comas: 4, 6.")
            ) from None

    def clean_entrants_json(self) -> list | None:
        text = (self.cleaned_data.get("entrants_json") or "").strip()
        if not text:
            return None
        try:
            rules = json.loads(text)
        except ValueError:
            raise forms.ValidationError(_("Esto no es JSON válido.")) from None
        if not isinstance(rules, list):
            raise forms.ValidationError(_("Escribe una lista de reglas: [ … ]."))
        return rules

    def entrants(self) -> list[dict]:
        """The entrants rules the form says (the JSON if given, else the one rule)."""
        data = self.cleaned_data
        if data.get("entrants_json") is not None:
            return data["entrants_json"]
        kind = data.get("entrants_rule")
        if not kind:
            return []
        rule: dict[str, object] = {"rule": kind}
        if kind == "fixed":
            rule["entries"] = list(data.get("entrants_entries") or [])
            return [rule]
        for name in ("phase", "count", "first", "last", "group", "stage"):
            value = data.get(f"entrants_{name}")
            if value is not None and name in RULE_OPTIONS[kind]:
                rule[name] = value
        return [rule]

    def stage_fields(self) -> list:
        """The length fields of each stage, the final last (the order it is played)."""
        return [self[f"{stage}_{name}"] for stage in self.STAGES for name in self.STAGE_OPTIONS]

    #: The options the page shows for each format; the others are hidden (and left out here,
    #: so a box ticked before the format changed does not travel unseen).
    FORMAT_OPTIONS = {
        "rounds_planned": {Phase.Format.SWISS, Phase.Format.ROUND_ROBIN, Phase.Format.TABLE_LADDER},
        "group_size": {Phase.Format.ROUND_ROBIN, Phase.Format.LIVES},
        "seeding": {Phase.Format.ROUND_ROBIN, Phase.Format.LIVES},
        "group_sizes": {Phase.Format.ROUND_ROBIN, Phase.Format.LIVES},
        "lives": {Phase.Format.LIVES},
        "source_id": {Phase.Format.SINGLE_ELIMINATION},
        "qualifiers_per_group": {Phase.Format.SINGLE_ELIMINATION},
        "third_place": {Phase.Format.SINGLE_ELIMINATION},
        "grand_final_reset": {Phase.Format.DOUBLE_ELIMINATION},
        "separate_clubs_rounds": {Phase.Format.SWISS, Phase.Format.LIVES},
        "ladder_groups": {Phase.Format.GROUP_LADDER},
        "cycle_rounds": {Phase.Format.GROUP_LADDER},
        "cycles": {Phase.Format.GROUP_LADDER},
        "move_by": {Phase.Format.GROUP_LADDER},
        "moves": {Phase.Format.GROUP_LADDER},
        "swap": {Phase.Format.TABLE_LADDER},
    }

    def service_kwargs(self) -> dict:
        """The cleaned values as phase_create takes them: the chosen format's options only."""
        data = dict(self.cleaned_data)
        entrants = self.entrants()
        for name in list(data):
            if name.startswith("entrants_"):
                data.pop(name)
        if entrants:
            data["entrants"] = entrants
        for name, formats in self.FORMAT_OPTIONS.items():
            if data["format"] not in formats:
                data.pop(name)
        lengths: dict[str, dict[str, int]] = {}
        for stage in self.STAGES:
            for name in self.STAGE_OPTIONS:
                value = data.pop(f"{stage}_{name}", None)
                if value is not None and data["format"] in self.KNOCKOUTS:
                    lengths.setdefault(stage, {})[name] = value
        if lengths:
            data["round_lengths"] = lengths
        for name in ("seeding", "group_sizes"):
            if name in data and not data[name]:
                data.pop(name)
        if "lives" in data:
            data["lives"] = data["lives"] or 3
        if "separate_clubs_rounds" in data:
            data["separate_clubs_rounds"] = data["separate_clubs_rounds"] or 0
        given = {option: data.pop(name, None) for name, option in self.LADDER_FIELDS.items()}
        ladder = {option: value for option, value in given.items() if value not in (None, "")}
        if data["format"] in (Phase.Format.GROUP_LADDER, Phase.Format.TABLE_LADDER):
            data["ladder"] = ladder
        return data


class RoundLengthsForm(Form):
    """A knockout's length per round on the desk, after the phase was added: what
    services.lengths.phase_round_lengths_set replaces (empty boxes: the phase's length)."""

    STAGES = PhaseForm.STAGES
    STAGE_OPTIONS = PhaseForm.STAGE_OPTIONS

    def __init__(self, *args, phase: Phase | None = None, **kwargs):
        if phase is not None and "initial" not in kwargs:
            stored = (phase.settings or {}).get("round_lengths") or {}
            kwargs["initial"] = {
                f"{stage}_{name}": value
                for stage, options in stored.items()
                for name, value in options.items()
            }
        super().__init__(*args, **kwargs)
        for stage in self.STAGES:
            for name in self.STAGE_OPTIONS:
                self.fields[f"{stage}_{name}"] = PhaseForm.base_fields[f"{stage}_{name}"]

    def stage_fields(self) -> list:
        return [self[f"{stage}_{name}"] for stage in self.STAGES for name in self.STAGE_OPTIONS]

    def round_lengths(self) -> dict[str, dict[str, int]]:
        lengths: dict[str, dict[str, int]] = {}
        for stage in self.STAGES:
            for name in self.STAGE_OPTIONS:
                value = self.cleaned_data.get(f"{stage}_{name}")
                if value is not None:
                    lengths.setdefault(stage, {})[name] = value
        return lengths


class PairAtTableField(forms.CharField):
    """A pair of a round too large to list its pairs: typed as its table and side ("12A",
    "12 b") or its name as the lists write it; cleaned to the pair's entry id."""

    def __init__(self, *, matches=(), **kwargs):
        attrs = {"autocomplete": "off", "placeholder": "12A", "autocapitalize": "characters"}
        super().__init__(max_length=200, widget=forms.TextInput(attrs=attrs), **kwargs)
        self.at_table: dict[str, int] = {}
        self.by_name: dict[str, list[int]] = {}
        for match in matches:
            for side, entry in (("A", match.entry_a), ("B", match.entry_b)):
                if entry is None:
                    continue
                if match.kind != "bye" and match.table_number:
                    self.at_table[f"{match.table_number}{side}"] = entry.pk
                self.by_name.setdefault(str(entry.pair).casefold(), []).append(entry.pk)

    def clean(self, value):
        text = " ".join(super().clean(value).split())
        found = self.at_table.get(text.replace(" ", "").upper())
        if found is None and len(self.by_name.get(text.casefold(), [])) == 1:
            found = self.by_name[text.casefold()][0]
        if found is None:
            raise forms.ValidationError(
                _(
                    "No hay ninguna pareja «%(text)s» en esta ronda: escribe el número de su "
                    "mesa y A o B (como 12A) o su nombre como lo escribe la lista."
                ),
                code="unknown_pair",
                params={"text": text},
            )
        return found


class TableNumberField(forms.IntegerField):
    """A table of a round too large to list its tables: its number typed, cleaned to the id of
    the partida played at it."""

    def __init__(self, *, matches=(), **kwargs):
        super().__init__(
            min_value=1, widget=forms.NumberInput(attrs={"inputmode": "numeric"}), **kwargs
        )
        self.played_at = {m.table_number: m.pk for m in matches}

    def clean(self, value):
        number = super().clean(value)
        if number not in self.played_at:
            raise forms.ValidationError(
                _("No se juega ninguna partida en la mesa %(n)s en esta ronda."),
                code="unknown_table",
                params={"n": number},
            )
        return self.played_at[number]


class SwapEntriesForm(Form):
    entry_id = forms.TypedChoiceField(label=_("Pareja"), coerce=int)
    other_entry_id = forms.TypedChoiceField(label=_("con la pareja"), coerce=int)

    def __init__(self, *args, entries=(), matches=None, **kwargs):
        """``entries``: the round's pairs to choose from; ``matches`` instead, for a round too
        large to list them: the pairs are typed (`PairAtTableField`)."""
        super().__init__(*args, **kwargs)
        if matches is not None:
            help_text = _("El número de su mesa y A o B, como 12A, o su nombre.")
            for name in ("entry_id", "other_entry_id"):
                label = self.fields[name].label
                self.fields[name] = PairAtTableField(
                    matches=matches, label=label, help_text=help_text
                )
            return
        choices = [(e.pk, str(e.pair)) for e in entries]
        self.fields["entry_id"].choices = choices
        self.fields["other_entry_id"].choices = choices
        if len(choices) > 1:
            self.fields["other_entry_id"].initial = choices[1][0]


def _table_fields(form, names: tuple[str, ...], matches, typed: bool) -> None:
    """The tables to choose from a list, or typed by number for a round too large to list."""
    for name in names:
        if typed:
            label = form.fields[name].label
            form.fields[name] = TableNumberField(matches=matches, label=label)
        else:
            form.fields[name].choices = [(m.pk, _table_label(m)) for m in matches]


class SwapTablesForm(Form):
    match_id = forms.TypedChoiceField(label=_("Mesa"), coerce=int)
    other_match_id = forms.TypedChoiceField(label=_("con la mesa"), coerce=int)

    def __init__(self, *args, matches=(), typed=False, **kwargs):
        super().__init__(*args, **kwargs)
        _table_fields(self, ("match_id", "other_match_id"), matches, typed)
        if len(matches) > 1 and not typed:
            self.fields["other_match_id"].initial = matches[1].pk


class MoveTableForm(Form):
    match_id = forms.TypedChoiceField(label=_("Partida de la mesa"), coerce=int)
    table_number = forms.IntegerField(
        label=_("a la mesa libre"),
        min_value=1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args, matches=(), typed=False, **kwargs):
        super().__init__(*args, **kwargs)
        _table_fields(self, ("match_id",), matches, typed)


def _table_label(match) -> str:
    return str(_("Mesa %(number)s")) % {"number": match.table_number}


# --- Results ----------------------------------------------------------------------------------


class VersionForm(Form):
    """Every write of a result says which version of the partida the organizer saw."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=80, required=False, widget=forms.HiddenInput)


class GamesForm(VersionForm):
    games = forms.CharField(
        label=_("Piedras de cada juego (pareja A - pareja B)"),
        help_text=_(
            "Por ejemplo: 40-32, 27-40, 40-11. Un juego ganado con un órdago: las piedras "
            "cuando se aceptó y quién lo ganó, como 24-18 órdago B."
        ),
        max_length=400,
        widget=forms.TextInput(attrs={"placeholder": "40-32, 27-40, 40-11", "autocomplete": "off"}),
    )

    def clean_games(self) -> list[dict]:
        text = self.cleaned_data["games"]
        games = []
        for number, part in enumerate(p for p in re.split(r"[,;\n]+", text) if p.strip()):
            only = WINNER_RE.match(part)
            if only is not None:
                games.append({"winner": only[1].upper()})
                continue
            found = GAME_RE.match(part)
            if found is None:
                raise forms.ValidationError(
                    _(
                        "No entiendo el juego %(number)s («%(text)s»): escribe las piedras de "
                        "la pareja A y de la pareja B, como 40-32 (y si se ganó con un órdago, "
                        "quién lo ganó: 24-18 órdago B)."
                    ),
                    params={"number": number + 1, "text": part.strip()},
                )
            game: dict = {"stones": [int(found[1]), int(found[2])]}
            if found[3]:
                if not found[4]:
                    raise forms.ValidationError(
                        _(
                            "El juego %(number)s («%(text)s») se ganó con un órdago: di quién "
                            "lo ganó, A o B, como 24-18 órdago B."
                        ),
                        params={"number": number + 1, "text": part.strip()},
                    )
                game.update(winner=found[4].upper(), ordago=True)
            games.append(game)
        if not games:
            raise forms.ValidationError(_("Escribe las piedras de al menos un juego."))
        return games

    def payload(self) -> dict:
        return {"games": self.cleaned_data["games"]}


class ResolveChoiceForm(VersionForm):
    submission = forms.IntegerField(widget=forms.HiddenInput)


class ForfeitForm(VersionForm):
    absent_side = forms.ChoiceField(
        label=_("¿Qué pareja no se presentó?"), choices=SIDES, widget=forms.RadioSelect
    )


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class ScheduleForm(Form):
    """When a round or a match is played; empty: its round's date, or the calendar's."""

    scheduled_at = forms.DateTimeField(
        label=_("Se juega"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=DateTimeInput(),
        help_text=_("Vacío: la fecha de su ronda o la del calendario."),
    )


class PostponeForm(Form):
    deadline = forms.DateField(label=_("Fecha límite"), widget=DateInput())
    reason = forms.CharField(label=_("Motivo"), max_length=200, required=False)


class DeadlineDecisionForm(Form):
    """After a postponed match's deadline: a walkover for one pair, or both lose."""

    outcome = forms.ChoiceField(
        label=_("Pasada la fecha límite"),
        choices=[
            ("walkover_b", _("no se presentó la pareja B: gana la A")),
            ("walkover_a", _("no se presentó la pareja A: gana la B")),
            ("double_loss", _("no la jugaron: pierden las dos")),
        ],
        widget=forms.RadioSelect,
    )

    def decision(self) -> dict:
        outcome = self.cleaned_data["outcome"]
        if outcome == "double_loss":
            return {"outcome": "double_loss", "absent_side": ""}
        return {"outcome": "walkover", "absent_side": outcome[-1]}


class CalendarForm(Form):
    """The evenings of play of the bases: "martes y jueves a las 20:00 desde el 6 de octubre"."""

    first = forms.DateField(label=_("Desde"), widget=DateInput(), required=False)
    weekdays = forms.TypedMultipleChoiceField(
        label=_("Días"),
        coerce=int,
        required=False,
        choices=[
            (0, _("lunes")),
            (1, _("martes")),
            (2, _("miércoles")),
            (3, _("jueves")),
            (4, _("viernes")),
            (5, _("sábado")),
            (6, _("domingo")),
        ],
        widget=forms.CheckboxSelectMultiple,
    )
    time = forms.TimeField(
        label=_("Hora"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )

    def calendar(self) -> dict:
        """The pattern as the services take it; {} when the form is emptied."""
        data = self.cleaned_data
        if not data.get("first") and not data.get("weekdays") and not data.get("time"):
            return {}
        return {
            "first": data["first"].isoformat() if data.get("first") else "",
            "weekdays": data.get("weekdays") or [],
            "time": data["time"].strftime("%H:%M") if data.get("time") else "",
        }


class LatePenaltyForm(VersionForm):
    side = forms.ChoiceField(label=_("Pareja que llegó tarde"), choices=SIDES)
    minutes_late = forms.IntegerField(
        label=_("Minutos de retraso"),
        min_value=0,
        max_value=600,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class PlayerMergeForm(Form):
    """Two player rows of one person: ``keep`` stays, ``other`` is merged into it."""

    keep = forms.IntegerField(label=_("Se queda"), min_value=1, max_value=2**63 - 1)
    other = forms.IntegerField(label=_("Se fusiona en él"), min_value=1, max_value=2**63 - 1)


class PlayerPairPickForm(Form):
    """Two of the peña's own players to look at as one person (the choices are the peña's)."""

    keep = forms.TypedChoiceField(label=_("Se queda"), coerce=int)
    other = forms.TypedChoiceField(label=_("Se fusiona en él"), coerce=int)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(p.pk, f"{p} · {p.licence}" if p.licence else str(p)) for p in players]
        self.fields["keep"].choices = choices
        self.fields["other"].choices = choices
