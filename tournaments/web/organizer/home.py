"""The organizer's first page: the peñas they organize, each with its tournaments.

Responsible for: the list of the peñas the signed-in person organizes and their tournaments
(links to each tournament's desk and to creating one), and creating a new peña from that page;
a domain error is shown on the same page, with what the person typed kept.

Must not: decide who organizes a peña (clubs.roles and clubs.services do) or write rows itself.

Terms: peña (a Club), torneo.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import services as club_services
from clubs.roles import clubs_organized_by
from config.errors import error_message
from tournaments.models import Tournament
from tournaments.selectors.tournaments import tournament_list
from tournaments.web.organizer import forms
from tournaments.web.organizer.common import USER_ERRORS, status_of


@login_required
def home(request: HttpRequest, *, club_form=None, error: str = "", status: int = 200):
    clubs = list(clubs_organized_by(request.user).order_by("name", "pk"))
    by_club: dict[int, list[Tournament]] = {club.pk: [] for club in clubs}
    for tournament in tournament_list(user=request.user).filter(club__in=clubs):
        by_club[tournament.club_id].append(tournament)
    context = {
        "clubs": [(club, by_club[club.pk]) for club in clubs],
        "club_form": club_form or forms.ClubCreateForm(),
        "error": error,
    }
    return render(request, "organizer/home.html", context, status=status)


@login_required
@require_POST
def club_create(request: HttpRequest):
    form = forms.ClubCreateForm(request.POST)
    if not form.is_valid():
        return home(request, club_form=form, status=400)
    try:
        club = club_services.club_create(user=request.user, **form.cleaned_data)
    except USER_ERRORS as exc:
        return home(request, club_form=form, error=error_message(exc), status=status_of(exc))
    messages.success(request, _("Peña «%(name)s» creada.") % {"name": club.name})
    return redirect("web:organizer-home")
