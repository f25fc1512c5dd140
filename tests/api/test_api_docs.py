"""docs/api.md cannot drift: every worked example in it is run against the app, in order, and
the documented response must be what the app answers; every documented path must be in the
OpenAPI schema (/api/schema/) with its method.

The format of the examples (docs/api.md says it too): a fenced block ``http request`` (request
line, headers, a blank line, an optional JSON body) followed by a fenced block ``http response``
(status line, headers, a blank line, an optional JSON body).

- ``{{name}}`` in a response captures the value found there; later, in a request or a response,
  it stands for that value. ``{{*}}`` is any value (a timestamp, an id nobody reuses).
- An object with the key ``"..."`` lists only some of its keys; a list whose last item is
  ``"..."`` lists only its first items. Anything else is compared exactly.
- Only the response headers written are checked.

The tournament's draw seed is fixed (tournament_create draws a random one) so that the
documented draw is the one the app makes; nothing else is mocked.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BLOCK = re.compile(r"^```http (request|response)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
PLACEHOLDER = re.compile(r"\{\{(\w+|\*)\}\}")
ANY = "*"
MORE = "..."
#: A placeholder in a response body, where JSON needs a value: turned into this string.
MARK = "\x00placeholder:"
DRAW_SEED = 20260707


@dataclass
class Request:
    line: int
    method: str
    path: str
    headers: dict[str, str]
    body: str


@dataclass
class Response:
    line: int
    status: int
    headers: dict[str, str]
    body: str


@dataclass
class Example:
    request: Request
    response: Response
    title: str = ""


def _head(text: str) -> tuple[str, dict[str, str], str]:
    head, _, body = text.partition("\n\n")
    first, *header_lines = head.splitlines()
    headers = {}
    for header in header_lines:
        name, _, value = header.partition(":")
        headers[name.strip()] = value.strip()
    return first, headers, body.strip()


def parse(text: str) -> list[Example]:
    examples: list[Example] = []
    pending: Request | None = None
    for match in BLOCK.finditer(text):
        kind, content = match.groups()
        line = text.count("\n", 0, match.start()) + 1
        first, headers, body = _head(content)
        if kind == "request":
            assert pending is None, f"docs/api.md:{line}: a request follows a request"
            method, path = first.split()[:2]
            pending = Request(line, method, path, headers, body)
        else:
            assert pending is not None, f"docs/api.md:{line}: a response without a request"
            status = int(first.split()[1])
            title = _title_before(text, match.start())
            examples.append(Example(pending, Response(line, status, headers, body), title))
            pending = None
    assert pending is None, f"docs/api.md:{pending.line}: a request without a response"
    return examples


def _title_before(text: str, position: int) -> str:
    titles = re.findall(r"^#+ (.+)$", text[:position], re.MULTILINE)
    return titles[-1] if titles else ""


# --- Placeholders -------------------------------------------------------------------------------


@dataclass
class Bindings:
    values: dict[str, Any] = field(default_factory=dict)

    def fill(self, text: str, *, json_body: bool = False) -> str:
        """Put the captured values into a request's path, header or body."""

        def value(match: re.Match) -> str:
            name = match.group(1)
            assert name in self.values, f"{{{{{name}}}}} is used before it is captured"
            return str(self.values[name])

        if json_body:
            # A bare placeholder is a JSON value; one inside quotes is text.
            text = re.sub(
                r'(?<!")\{\{(\w+)\}\}(?!")',
                lambda m: json.dumps(self.values[m.group(1)]),
                text,
            )
        return PLACEHOLDER.sub(value, text)

    def expect(self, documented: Any, actual: Any, where: str) -> None:
        """Compare a documented value with the actual one, capturing placeholders."""
        if isinstance(documented, str) and documented.startswith(MARK):
            name = documented[len(MARK) :]
            if name == ANY:
                return
            if name in self.values:
                assert actual == self.values[name], f"{where}: {actual!r} is not {{{{{name}}}}}"
            else:
                self.values[name] = actual
            return
        if isinstance(documented, str) and PLACEHOLDER.search(documented):
            self._expect_text(documented, actual, where)
        elif isinstance(documented, dict):
            assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
            keys = [k for k in documented if k != MORE]
            if MORE not in documented:
                assert sorted(actual) == sorted(keys), (
                    f"{where}: keys {sorted(actual)} are not the documented {sorted(keys)}"
                )
            for key in keys:
                assert key in actual, f"{where}: no key {key!r} in {sorted(actual)}"
                self.expect(documented[key], actual[key], f"{where}.{key}")
        elif isinstance(documented, list):
            assert isinstance(actual, list), f"{where}: expected a list, got {actual!r}"
            items = documented
            if documented and documented[-1] == MORE:
                items = documented[:-1]
                assert len(actual) >= len(items), f"{where}: fewer items than documented"
            else:
                assert len(actual) == len(items), (
                    f"{where}: {len(actual)} items, documented {len(items)}"
                )
            for n, item in enumerate(items):
                self.expect(item, actual[n], f"{where}[{n}]")
        else:
            assert documented == actual, f"{where}: documented {documented!r}, got {actual!r}"

    def _expect_text(self, documented: str, actual: Any, where: str) -> None:
        pattern, names = "", []
        last = 0
        for match in PLACEHOLDER.finditer(documented):
            pattern += re.escape(documented[last : match.start()])
            name = match.group(1)
            if name != ANY and name in self.values:
                pattern += re.escape(str(self.values[name]))
            else:
                pattern += "(.+?)"
                names.append(name)
            last = match.end()
        pattern += re.escape(documented[last:])
        found = re.fullmatch(pattern, str(actual), re.DOTALL)
        assert found, f"{where}: {actual!r} does not read {documented!r}"
        for name, value in zip(names, found.groups(), strict=True):
            if name != ANY:
                self.values[name] = value


def documented_body(body: str) -> Any:
    """A response body as JSON, its bare placeholders turned into marked strings."""
    marked = re.sub(r'(?<!")\{\{(\w+|\*)\}\}(?!")', lambda m: json.dumps(MARK + m.group(1)), body)
    return json.loads(marked)


# --- Running ------------------------------------------------------------------------------------

EXAMPLES = parse(DOC.read_text(encoding="utf-8"))


@pytest.fixture
def organizer(db):
    return get_user_model().objects.create_user(username="organizador", password="amarrako")


@pytest.fixture
def fixed_draw_seed(monkeypatch):
    monkeypatch.setattr(
        "tournaments.services.tournaments.secrets.randbelow", lambda limit: DRAW_SEED
    )


def send(client: APIClient, request: Request, bindings: Bindings):
    path = bindings.fill(request.path)
    headers = {name: bindings.fill(value) for name, value in request.headers.items()}
    content_type = headers.pop("Content-Type", "application/json")
    body = bindings.fill(request.body, json_body=True) if request.body else None
    return client.generic(
        request.method, path, data=body or "", content_type=content_type, headers=headers
    )


def test_the_documented_examples_are_what_the_app_answers(
    organizer, fixed_draw_seed, django_capture_on_commit_callbacks
):
    assert len(EXAMPLES) >= 15
    client, bindings = APIClient(), Bindings()
    for example in EXAMPLES:
        request, documented = example.request, example.response
        where = f"docs/api.md:{documented.line} ({example.title}: {request.method} {request.path})"
        # As if committed: confirmed results refresh the standings through their task.
        with django_capture_on_commit_callbacks(execute=True):
            response = send(client, request, bindings)
        shown = response.content.decode()[:2000]
        assert response.status_code == documented.status, f"{where}: got {shown}"
        for name, value in documented.headers.items():
            if name.lower() == "content-type" and not response.content:
                continue
            assert response.headers.get(name) == bindings.fill(value), (
                f"{where}: header {name} is {response.headers.get(name)!r}"
            )
        if documented.body:
            actual = response.json()
            try:
                bindings.expect(documented_body(documented.body), actual, "body")
            except AssertionError as error:
                raise AssertionError(
                    f"{where}: {error}\nthe app answered:\n{json.dumps(actual, indent=2)}"
                ) from None
        else:
            assert not response.content, f"{where}: undocumented body {shown}"


#: A call named in the text: `GET /api/v1/rounds/{round_id}/board` (or <token>, {{name}}).
INLINE_CALL = re.compile(r"`(GET|POST) (/api/v1/[^`\s]+)`")
PATH_PARAMETER = re.compile(r"\{\{\w+\}\}|\{\w+\}|<\w+>")


def documented_calls() -> list[tuple[int, str, str]]:
    text = DOC.read_text(encoding="utf-8")
    calls = [(e.request.line, e.request.method, e.request.path) for e in EXAMPLES]
    for match in INLINE_CALL.finditer(text):
        calls.append((text.count("\n", 0, match.start()) + 1, *match.groups()))
    return calls


def test_every_documented_path_is_in_the_schema(db):
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    operations = {
        (PATH_PARAMETER.sub("{}", path), method.upper())
        for path, item in schema["paths"].items()
        for method in item
    }
    calls = documented_calls()
    assert len(calls) > len(EXAMPLES)  # the examples and the calls named in the text
    for line, method, path in calls:
        shape = PATH_PARAMETER.sub("{}", path.split("?")[0])
        assert (shape, method) in operations, (
            f"docs/api.md:{line}: {method} {path} is not in the schema"
        )


def test_the_parser_reads_placeholders_and_partial_bodies():
    bindings = Bindings()
    documented = documented_body(
        '{"id": {{match}}, "at": {{*}}, "rows": [{"a": 1, "...": "..."}, "..."]}'
    )
    bindings.expect(documented, {"id": 7, "at": "now", "rows": [{"a": 1, "b": 2}, {"a": 3}]}, "x")
    assert bindings.values == {"match": 7}
    assert bindings.fill("/api/v1/matches/{{match}}/history") == "/api/v1/matches/7/history"
    assert bindings.fill('{"id": {{match}}, "t": "m-{{match}}"}', json_body=True) == (
        '{"id": 7, "t": "m-7"}'
    )
    with pytest.raises(AssertionError, match="is not"):
        bindings.expect(documented_body('{"id": {{match}}}'), {"id": 8}, "x")
    with pytest.raises(AssertionError, match="keys"):
        bindings.expect({"a": 1}, {"a": 1, "b": 2}, "x")
    with pytest.raises(AssertionError, match="items"):
        bindings.expect([1], [1, 2], "x")
    bindings.expect("table {{token}} ok", "table abc ok", "x")
    assert bindings.values["token"] == "abc"
