"""The production stack's log, for the lines that do not come from Python's logging.

``make prod`` (scripts/prod) runs two things through this script:

- ``stacklog.py supervisord -c deploy/supervisord.conf``: supervisord, with
  - its own lines (spawned, exited, stopped) in the shape of every other line of the stack
    (config/logs.py): under ``LOG_FORMAT=json`` one JSON object each, otherwise text; either way
    with the time in UTC, ISO 8601 with its offset (supervisord wrote the machine's local time
    and did not say which);
  - its standard output, when it is a file (``make prod > file``), written in append mode:
    supervisord wrote the processes' lines through ``/dev/stdout`` opened for appending, and its
    own through the descriptor the shell had opened, at that descriptor's offset, so its own
    lines overwrote the others'.
- ``COMMAND 2>&1 | stacklog.py lines LOGGER``: each line of its standard input as a log line of
  ``LOGGER`` (what ``migrate`` prints before the stack starts).

It loads config/logs.py by its path: supervisord imports nothing of the project.
"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import stat
import sys
import time
from pathlib import Path


def _load_logs():
    path = Path(__file__).resolve().parent.parent / "config" / "logs.py"
    spec = importlib.util.spec_from_file_location("amarrako_logs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


logs = _load_logs()
JSON = os.environ.get("LOG_FORMAT", "text").strip().lower() == "json"


def line(logger: str, message: str, level: str = "INFO") -> str:
    """One line of the stack's log (without its newline)."""
    if JSON:
        return logs.json_line(logger, message, level)
    return f"{logs.utc_time(time.time())} {level} {logger} [-]: {logs.printable(message)}"


def append_mode(fd: int) -> None:
    """Every write to ``fd`` goes to the end of its file, whoever else writes there."""
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        return
    if regular:
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)


def supervisord(args: list[str]) -> None:
    from supervisor import loggers
    from supervisor import supervisord as server

    class Lines(loggers.StreamHandler):
        def emit(self, record) -> None:
            try:
                fields = record.asdict()
                self.stream.write(line("supervisord", fields["message"], fields["levelname"]))
                self.stream.write("\n")
                self.flush()
            except Exception:
                self.handleError()

    def handle_stdout(logger, fmt) -> None:
        """What supervisord calls to write its own lines to its standard output."""
        handler = Lines(sys.stdout)
        handler.setFormat(fmt)
        handler.setLevel(logger.level)
        logger.addHandler(handler)

    for fd in (1, 2):
        append_mode(fd)
    loggers.handle_stdout = handle_stdout
    server.main(args)


def lines(logger: str) -> None:
    for text in sys.stdin:
        print(line(logger, text.rstrip("\n")), flush=True)


if __name__ == "__main__":
    role, rest = sys.argv[1], sys.argv[2:]
    if role == "supervisord":
        supervisord(rest)
    elif role == "lines":
        lines(rest[0])
    else:
        sys.exit(f"stacklog.py: supervisord ARGS… or lines LOGGER, not {role!r}")
