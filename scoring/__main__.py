"""``python -m scoring``: score a hand or a match given as JSON on standard input.

Prints the result as JSON and exits 0, or prints the engine's error as JSON and exits 2.
The request and result shapes are in docs/scoring-json.md.
"""

from __future__ import annotations

import io
import json
import sys

from scoring.errors import FormatError, ScoringError
from scoring.jsonio import run


def main(stdin=sys.stdin, stdout=sys.stdout) -> int:
    try:
        try:
            request = json.load(stdin)
        except json.JSONDecodeError as error:
            raise FormatError(
                f"The input is not valid JSON (line {error.lineno}, column {error.colno}: "
                f"{error.msg}).",
                code="json",
            ) from None
        except UnicodeDecodeError:
            raise FormatError("The input is not UTF-8 text.", code="json") from None
        except (RecursionError, ValueError):  # nested too deep, or a number too long
            raise FormatError(
                "The input is JSON the engine does not read: nested too deep or a number too long.",
                code="json",
            ) from None
        result = run(request)
    except ScoringError as error:
        json.dump(error.as_dict(), stdout, ensure_ascii=False, indent=2)
        stdout.write("\n")
        return 2
    json.dump(result, stdout, ensure_ascii=False, indent=2)
    stdout.write("\n")
    return 0


if __name__ == "__main__":
    # bytes in, so that input in another encoding is our error, not a traceback
    sys.exit(main(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="strict")))
