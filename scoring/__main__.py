"""``python -m scoring``: score a hand or a match given as JSON on standard input.

Prints the result as JSON and exits 0, or prints the engine's error as JSON and exits 2.
The request and result shapes are in docs/scoring-json.md.

The error's ``message`` is in English, or in the language asked for: ``--lang es`` (or ``eu``,
``fr``), or else
the environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them),
from the engine's own catalog (scoring/locale). Its ``code`` and ``params`` are the same in
every language.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Mapping, Sequence

from scoring.errors import FormatError, ScoringError
from scoring.jsonio import run
from scoring.messages import scoring_translations

_ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def language(argv: Sequence[str] = (), environ: Mapping[str, str] | None = None) -> str:
    """The language of the messages: ``--lang``, else the environment's, else English."""
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description="Score a hand or a match given as JSON on standard input.",
    )
    parser.add_argument(
        "--lang",
        help="language of the error messages: en (the default), es, eu or fr",
        default=None,
    )
    wanted = parser.parse_args(list(argv)).lang
    if not wanted:
        for name in _ENVIRONMENT:
            value = (environ or {}).get(name)
            if value:
                wanted = value.split(":")[0]
                break
    code = (wanted or "en").split(".")[0].split("@")[0]
    return "en" if code in ("", "C", "POSIX") else code


def main(
    stdin=sys.stdin,
    stdout=sys.stdout,
    argv: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
) -> int:
    lang = language(argv, environ)
    try:
        try:
            request = json.load(stdin)
        except json.JSONDecodeError as error:
            raise FormatError(
                "The input is not valid JSON (line {line}, column {column}: {reason}).",
                code="json",
                line=error.lineno,
                column=error.colno,
                reason=error.msg,
            ) from None
        except UnicodeDecodeError:
            raise FormatError("The input is not UTF-8 text.", code="json_encoding") from None
        except (RecursionError, ValueError):  # nested too deep, or a number too long
            raise FormatError(
                "The input is JSON the engine does not read: nested too deep or a number too long.",
                code="json_unreadable",
            ) from None
        result = run(request)
    except ScoringError as error:
        body = error.as_dict()
        if lang.split("_")[0] != "en":
            body["message"] = error.render(scoring_translations(lang))
        json.dump(body, stdout, ensure_ascii=False, indent=2)
        stdout.write("\n")
        return 2
    json.dump(result, stdout, ensure_ascii=False, indent=2)
    stdout.write("\n")
    return 0


if __name__ == "__main__":
    # bytes in, so that input in another encoding is our error, not a traceback
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="strict")
    sys.exit(main(stdin, sys.stdout, sys.argv[1:], os.environ))
