"""Schemathesis: requests generated from the OpenAPI schema, sent to every operation of the
API as the demo peña's organizer (a token), against the demo tournament's data. Fails on any
5xx and on any answer the schema does not document (status, content type, body).

Bounded by its work, not by a clock: a few generated examples per operation
(``MAX_EXAMPLES``), no shrinking budget to speak of, no example database — a regression guard,
not a fuzzing campaign; run it longer by setting ``SCHEMATHESIS_EXAMPLES``. Its time limit is a
bound against a hang only, far above what that work takes (6 s here, about 300 requests; it
ran past pytest's default 120 s on a loaded machine). A check that fails is reported with its
operation at the end; anything else (the limit, an error of the generator) stops the test at
once with what it is, and says which operation it was on and how many requests had been sent.
"""

from __future__ import annotations

import os
import time

import pytest
import schemathesis
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import checks
from schemathesis.core.failures import FailureGroup

from config.wsgi import application

#: what must hold for every answer: no 5xx, and status, content type, headers and body as the
#: schema documents them. (Whether a schema-valid request is accepted is the service's rule:
#: a wrong password or a closed round is a documented 4xx, not a failure.)
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "4"))
#: against a hang only: the work is bounded (MAX_EXAMPLES per operation); 13 s here, setup
#: included, 70 s on a machine loaded five times over
TIME_LIMIT = 900
TOKEN: dict[str, str] = {}
STARTED: dict[str, float] = {}


@pytest.fixture(scope="module")
def api_schema(django_db_setup, django_db_blocker):
    from rest_framework.authtoken.models import Token

    from clubs.models import Club, Membership
    from seasons.demo import demo_delete

    STARTED["at"] = time.monotonic()  # pytest-timeout counts the setup too
    with django_db_blocker.unblock():
        call_command("demo", verbosity=0)
        organizer = Membership.objects.get(
            user__username="organizador", club__slug="pena-txoko"
        ).user
        TOKEN["key"] = Token.objects.get_or_create(user=organizer)[0].key
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
        # The demo's rows only: a flush would also drop the rows migrations create (the
        # built-in rule-set presets) that later tests rely on.
        Token.objects.filter(user=organizer).delete()
        demo_delete(Club.objects.get(slug="pena-txoko"))


@pytest.fixture
def _keep_the_test_connection():
    """As Django's test client does: a request must not close the test's database connection
    (the WSGI handler closes it after each request when CONN_MAX_AGE is 0)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _interruption(error: BaseException) -> BaseException | None:
    """The BaseException that is not an Exception (pytest-timeout's Failed, Ctrl-C) inside
    ``error``: itself, in an exception group, or as the cause of a wrapper."""
    if not isinstance(error, Exception):
        return error
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            if (found := _interruption(inner)) is not None:
                return found
    if error.__cause__ is not None:
        return _interruption(error.__cause__)
    return None


@pytest.mark.django_db
@pytest.mark.usefixtures("_keep_the_test_connection")
@pytest.mark.timeout(TIME_LIMIT)
def test_every_operation_answers_what_the_schema_documents(api_schema):
    # identity: the in-process client does not undo the gzip the server would apply
    headers = {"Authorization": f"Token {TOKEN['key']}", "Accept-Encoding": "identity"}
    failures: list[str] = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 60
    sent = 0

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def check(case):
            nonlocal sent
            sent += 1
            case.call_and_validate(headers=headers, checks=CHECKS)

        try:
            check()
        except (AssertionError, FailureGroup) as failure:  # a check failed: reported at the end
            if time.monotonic() - STARTED["at"] >= TIME_LIMIT:
                # The limit struck inside a query, which swallowed it and broke the connection:
                # this failure and every later one are its doing, not the operations'.
                pytest.fail(
                    f"the time limit ({TIME_LIMIT} s, against a hang) was reached while testing "
                    f"{operation.label}, after {sent} requests; {len(failures)} operations had "
                    "failed before it:\n\n" + "\n\n".join(failures)
                )
            failures.append(f"{operation.label}: {str(failure)[:1500]}")
        except BaseException as error:  # not a check: the limit, the generator's own error
            # Hypothesis wraps a time limit hit during a case (a BaseException) in "Inconsistent
            # results", which read like a flaky operation: raise what it wraps.
            stop = _interruption(error) or error
            stop.add_note(f"while testing {operation.label}, after {sent} requests")
            raise stop from None

    assert sent >= len(operations)
    assert not failures, f"{len(failures)} operations failed:\n\n" + "\n\n".join(failures)
