"""The organizer's page of a peña's webhooks and their delivery log.

Responsible for: showing, to the organizers of a peña, its webhooks (URL and the events each
hears) and the newest deliveries (when, which event, to which webhook, delivered or not, how
many attempts, the receiver's last answer and when the next attempt is due). Read only: a
webhook is registered, removed or a delivery sent again through the API (docs/api.md).

Must not: decide who may read it (clubs.webhooks.selectors does) or show a webhook's secret.

Terms: peña, webhook, entrega (delivery).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest
from django.shortcuts import get_object_or_404, render

from clubs.models import Club, Webhook, WebhookDelivery
from clubs.webhooks import selectors
from tournaments.web.organizer.common import load

#: each delivery status shown with the desk's badge of the same meaning (ok, waiting, wrong)
BADGE = {
    WebhookDelivery.Status.DELIVERED: "confirmed",
    WebhookDelivery.Status.PENDING: "submitted",
    WebhookDelivery.Status.FAILED: "disputed",
}


@login_required
def webhook_log(request: HttpRequest, club_slug: str):
    club = get_object_or_404(Club, slug=club_slug)
    hooks = load(selectors.webhooks_for_club, user=request.user, club=club)
    deliveries = selectors.deliveries_for_club(user=request.user, club=club)
    labels = dict(Webhook.Event.choices)
    context = {
        "club": club,
        "webhooks": [(hook, [labels.get(e, e) for e in hook.events]) for hook in hooks],
        "deliveries": [
            (d, labels.get(d.event, d.event), BADGE[d.status], d.get_status_display())
            for d in deliveries
        ],
    }
    return render(request, "organizer/webhooks.html", context)
