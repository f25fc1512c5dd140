"""A bare Django view for benchmarks/load.py: the floor any endpoint of ours is measured against.

Responsible for: ``insert_one``, a POST that parses a small JSON body and inserts one row in
its own transaction (a session row, already expired, so ``manage.py clearsessions`` removes
it: no table of our own, no migration), answering a small JSON body. No DRF, no login, no
rule. Mounted at ``/bench/insert`` only when the setting BENCHMARK_VIEWS is on (off by
default; never in a real deployment).

Must not: be mounted unless BENCHMARK_VIEWS is set.
"""

from __future__ import annotations

import json
import uuid

from django.contrib.sessions.models import Session
from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST


@csrf_exempt
@require_POST
def insert_one(request: HttpRequest) -> JsonResponse:
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return JsonResponse({"error": "not JSON"}, status=400)
    key = uuid.uuid4().hex
    with transaction.atomic():
        Session.objects.create(
            session_key=key, session_data=json.dumps(body)[:200], expire_date=timezone.now()
        )
    return JsonResponse({"id": key}, status=201)
