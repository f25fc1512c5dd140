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
- ``stacklog.py run LOGGER COMMAND…``: runs a program that is not Python (HAProxy, PgBouncer,
  in the scaled layout's deploy/supervisord-scaled.conf) with each line it prints made a log
  line of ``LOGGER``; the signals supervisord sends are passed on to it, and it exits as the
  program did (a program killed by signal N: status 128 + N), so supervisord sees its death.

It loads config/logs.py by its path: supervisord imports nothing of the project.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import os
import re
import signal
import stat
import subprocess
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


# What a program's line starts with that the stack's line says already: PgBouncer's time and
# pid ("2026-11-28 01:38:55.667 UTC [18204] "), HAProxy's pid ("[NOTICE]   (1234) : ").
_PREFIX = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \w+ \[\d+\] ")
_LEVELS = (("FATAL", "CRITICAL"), ("ALERT", "ERROR"), ("ERROR", "ERROR"), ("WARNING", "WARNING"))


def level_of(message: str) -> str:
    head = message[:40].upper()
    return next((level for word, level in _LEVELS if word in head), "INFO")


def run(logger: str, command: list[str]) -> int:
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)  # fmt: skip

    def forward(signum, _frame) -> None:
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT,
                   signal.SIGUSR1, signal.SIGUSR2):  # fmt: skip
        signal.signal(signum, forward)
    for raw in child.stdout:
        message = _PREFIX.sub("", raw.decode(errors="replace").rstrip("\n"))
        if message.strip():
            print(line(logger, message, level_of(message)), flush=True)
    status = child.wait()
    return 128 - status if status < 0 else status


if __name__ == "__main__":
    role, rest = sys.argv[1], sys.argv[2:]
    if role == "supervisord":
        supervisord(rest)
    elif role == "lines":
        lines(rest[0])
    elif role == "run":
        append_mode(1)
        sys.exit(run(rest[0], rest[1:]))
    else:
        sys.exit(f"stacklog.py: supervisord, lines or run, not {role!r}")
