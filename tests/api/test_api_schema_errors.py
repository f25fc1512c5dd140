"""The OpenAPI schema documents the errors: every operation lists its error responses with the
one error body, and the bodies the API really sends match that schema."""

from __future__ import annotations

import jsonschema
import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from config.openapi import ERROR_SCHEMA

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_every_operation_documents_its_errors_with_the_error_body(schema):
    assert schema["components"]["schemas"]["Error"] == ERROR_SCHEMA
    missing = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            expected = {"400", "401", "403", "404", "414", "431", "500"}
            if method != "get":
                expected |= {"409", "411", "413", "415"}
            absent = expected - set(operation["responses"])
            if absent:
                missing.append(f"{method.upper()} {path}: {sorted(absent)}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/v1/no/such/thing", None),
        ("get", "/api/v1/tournaments/999999", None),
        ("post", "/api/v1/tournaments/create", "{}"),
        ("post", "/api/v1/clubs/create", "[" * 100 + "]" * 100),
        ("get", "/api/v1/table/%00", None),
        ("get", "/api/v1/tournaments?q=" + "x" * 5000, None),
    ],
)
def test_real_error_bodies_match_the_documented_schema(method, path, body):
    client = Client()
    if body is None:
        response = getattr(client, method)(path)
    else:
        response = getattr(client, method)(path, body, content_type="application/json")

    assert response.status_code >= 400
    jsonschema.validate(response.json(), ERROR_SCHEMA)
