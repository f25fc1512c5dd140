"""What the project promises to keep from one commit to the next, written as files under
tests/golden/ and compared by tests/test_golden.py.

- ``openapi.yaml``: the OpenAPI schema as ``/api/schema/`` serves it. A change of the API shows
  in the diff of this file; ``scripts/golden`` writes it again once the change is meant.
- ``urls.txt``: every URL pattern of the site, in resolution order, with its name.
- ``urls-90d72ad.txt``, ``database-90d72ad.sql.gz``, ``archive-pena-txoko-90d72ad.json.gz``:
  the URL patterns, a PostgreSQL database (migrated, the demo loaded) and a peña's archive
  written at commit 90d72ad, before the floors were given folders of their own; never written
  again. Every URL of then must still lead to the same page (printed QR codes and links), such
  a database must migrate with its rows intact, and such an archive must import.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden"


def openapi_schema() -> bytes:
    """The schema exactly as the site serves it."""
    from django.test import Client

    return Client(HTTP_HOST="127.0.0.1").get("/api/schema/").content


def url_table() -> str:
    """One line per URL pattern, in resolution order: ``route<TAB>namespace:name``."""
    from django.urls import URLResolver, get_resolver

    def walk(patterns, prefix: str = "", namespace: str = ""):
        for entry in patterns:
            if isinstance(entry, URLResolver):
                space = namespace + (f"{entry.namespace}:" if entry.namespace else "")
                yield from walk(entry.url_patterns, prefix + str(entry.pattern), space)
            else:
                yield f"{prefix}{entry.pattern}\t{namespace}{entry.name or ''}"

    return "\n".join(walk(get_resolver().url_patterns)) + "\n"


def write() -> None:
    (GOLDEN / "openapi.yaml").write_bytes(openapi_schema())
    (GOLDEN / "urls.txt").write_text(url_table())


if __name__ == "__main__":
    sys.path.insert(0, str(GOLDEN.parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.snapshots --write")
    write()
    print(f"wrote {GOLDEN / 'openapi.yaml'} and {GOLDEN / 'urls.txt'}")
