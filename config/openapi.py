"""The API's error responses in its OpenAPI schema.

Responsible for: ``add_error_responses``, a drf-spectacular postprocessing hook that gives every
operation the error responses it can answer — 400 (the body or a value is wrong), 401/403 (not
logged in, not allowed), 404, 405, 411/413/415 for operations that read a body, 409 for writes
(a stale version, a duplicate), 414/431 (an address or a header over the limits), 429
(throttled) and 500 — all with the one error body every error
of the API has (config.errors.error_body), as the component ``Error``.

Must not: describe a success response (the views' serializers do).
"""

from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["status", "code", "message", "params"],
            "properties": {
                "status": {"type": "integer", "description": "the HTTP status, repeated"},
                "code": {
                    "type": "string",
                    "description": "stable: what went wrong, for programs (docs/api.md lists them)",
                },
                "message": {
                    "type": "string",
                    "description": "what went wrong and what to do, in the Accept-Language "
                    "of the request (English when it names none)",
                },
                "params": {
                    "type": "object",
                    "additionalProperties": True,
                    "description": "every value the message shows, by name",
                },
                "fields": {
                    "type": "object",
                    "additionalProperties": True,
                    "description": "validation errors: field name → messages",
                },
            },
        }
    },
}

_READ = {
    "400": "The request is not valid: a value, a parameter or the JSON itself.",
    "401": "Not logged in (session, token or HTTP Basic).",
    "403": "Logged in, but not allowed to do this.",
    "404": "No such object, or not visible to this user.",
    "405": "This method is not allowed here.",
    "414": "The request line (the address) is longer than the server reads.",
    "429": "Too many requests: wait the seconds of Retry-After.",
    "431": "A header, or the number of headers, is larger than the server reads.",
    "500": "A failure on the server; it has been logged.",
    "503": "The database cannot be reached for a moment: send it again after Retry-After.",
}
_WRITE = {
    "409": "A conflict: a stale version, a duplicate, or a state that no longer allows this.",
    "411": "The body was sent in chunks, without Content-Length.",
    "413": "The body is larger than the API accepts.",
    "415": "The body is not JSON, or its charset is not a text encoding.",
}


def add_error_responses(result, generator, request, public):
    components = result.setdefault("components", {})
    components.setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    responses = components.setdefault("responses", {})
    for status, description in {**_READ, **_WRITE}.items():
        responses[f"Error{status}"] = {
            "description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            codes = dict(_READ)
            if method != "get":
                codes.update(_WRITE)
            documented = operation.setdefault("responses", {})
            for status in codes:
                documented.setdefault(status, {"$ref": f"#/components/responses/Error{status}"})
    return result
