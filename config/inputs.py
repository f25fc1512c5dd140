"""The base of the API's input shapes: a body holds only what its endpoint reads.

Responsible for: ``Input``, the DRF serializer every view's input shape (``InputSerializer``
and the shared ``…Input`` ones) is built on. A key of the body, or of an object nested in it
through another ``Input``, that is none of its fields is refused with 400 ``field_unknown``,
naming it: DRF drops such a key silently, so a misspelt field, one sent to the wrong endpoint
or in the wrong place (a preset's values nested under ``rules``) answered 200 having done less
than the client asked.

Must not: know any endpoint's fields (each view declares its own), or refuse a key that is
read some other way: a shape that passes its unknown keys on to be judged elsewhere (the
rule-set options, which scoring.RuleSet names) is a plain serializer, and the filters of a
read (query parameters) are not bodies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from config.errors import Invalid

#: the unknown keys an error names at most (each cut short): enough to find a typo
_NAMED = 5


class Input(serializers.Serializer):
    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = [str(key)[:40] for key in data if key not in self.fields]
            if unknown:
                raise Invalid(
                    (
                        "This endpoint does not read {fields}; leave it out or check its name "
                        "(the API documentation lists what each endpoint reads).",
                        "This endpoint does not read {fields}; leave them out or check their "
                        "names (the API documentation lists what each endpoint reads).",
                    ),
                    code="field_unknown",
                    fields=sorted(unknown)[:_NAMED],
                    count=len(unknown),
                )
        return super().to_internal_value(data)
