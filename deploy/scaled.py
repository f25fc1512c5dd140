"""The scaled layout's generated files (``scripts/prod --scaled``): HAProxy's and PgBouncer's
configurations, rendered from the templates beside this file, and the database URL the
processes use behind PgBouncer.

``python deploy/scaled.py render`` writes into ``AMARRAKO_RUN_DIR``:

- ``haproxy.cfg`` (from ``haproxy.cfg.template``): the load balancer on ``BIND``, one server
  per web node (``WEB_NODES`` nodes, node n on ``WEB_NODE_HOST``:``WEB_NODE_PORT`` + n - 1,
  as deploy/gunicorn.conf.py binds them; or, for nodes on other machines, ``WEB_SERVERS``:
  ``10.0.0.11:8001,10.0.0.12:8001``), checked on ``/readyz`` with a ``Host`` the application
  allows (the first of ``ALLOWED_HOSTS``); and ``/live/`` to the live push's uvicorn nodes
  (``LIVE_NODES``, node n on ``LIVE_NODE_HOST``:``LIVE_NODE_PORT`` + n - 1, or
  ``LIVE_SERVERS``), checked on ``/live/readyz``;
- ``pgbouncer.ini`` (from ``pgbouncer.ini.template``) and ``pgbouncer-users.txt``: PgBouncer
  in transaction mode on ``PGBOUNCER_HOST``:``PGBOUNCER_PORT`` in front of the PostgreSQL of
  ``DATABASE_URL``, with its user and password (trust when the URL has no password, as
  PostgreSQL does for it then; SCRAM otherwise);

and prints ``DATABASE_URL`` pointed at PgBouncer, which scripts/prod gives the web and worker
processes (migrations go to PostgreSQL itself, before PgBouncer starts).

It imports nothing of the project (scripts/prod runs it before anything is started).
"""

from __future__ import annotations

import os
import string
import sys
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent


def env(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


def check_host() -> str:
    """A name the application accepts in ``Host`` (Django refuses one not in ALLOWED_HOSTS)."""
    for host in env("ALLOWED_HOSTS", "localhost").split(","):
        host = host.strip().lstrip(".")
        if host and "*" not in host:
            return host
    return "localhost"


def pgbouncer_quote(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def render(run_dir: Path) -> str:
    """Write the files; return the pooled DATABASE_URL."""
    url = urlsplit(os.environ["DATABASE_URL"])
    user = unquote(url.username or "postgres")
    password = unquote(url.password or "")
    pg_host = url.hostname or "/var/run/postgresql"
    pg_port = str(url.port or 5432)
    listen = env("PGBOUNCER_HOST", "127.0.0.1")
    port = env("PGBOUNCER_PORT", "6432")
    nodes = int(env("WEB_NODES", "2"))
    node_host = env("WEB_NODE_HOST", "127.0.0.1")
    first_port = int(env("WEB_NODE_PORT", "8001"))
    if nodes < 1:
        raise SystemExit(f"scaled.py: WEB_NODES={nodes}: at least one web node")

    addresses = [a.strip() for a in env("WEB_SERVERS", "").split(",") if a.strip()] or [
        f"{node_host}:{first_port + n}" for n in range(nodes)
    ]
    servers = "\n".join(
        f"    server web{n} {address}" for n, address in enumerate(addresses, start=1)
    )
    live_nodes = int(env("LIVE_NODES", "2"))
    live_port = int(env("LIVE_NODE_PORT", "8101"))
    live_host = env("LIVE_NODE_HOST", "127.0.0.1")
    live_addresses = [a.strip() for a in env("LIVE_SERVERS", "").split(",") if a.strip()] or [
        f"{live_host}:{live_port + n}" for n in range(live_nodes)
    ]
    live_servers = "\n".join(
        f"    server live{n} {address}" for n, address in enumerate(live_addresses, start=1)
    )
    haproxy = string.Template((HERE / "haproxy.cfg.template").read_text()).substitute(
        bind=env("BIND", "127.0.0.1:8000"),
        maxconn=env("LB_MAXCONN", "4096"),
        run_dir=run_dir,
        check_host=check_host(),
        servers=servers,
        live_servers=live_servers,
    )
    (run_dir / "haproxy.cfg").write_text(haproxy)

    users = run_dir / "pgbouncer-users.txt"
    users.write_text(f"{pgbouncer_quote(user)} {pgbouncer_quote(password)}\n")
    users.chmod(0o600)
    pool_size = env("PGBOUNCER_POOL_SIZE", "20")
    pgbouncer = string.Template((HERE / "pgbouncer.ini.template").read_text()).substitute(
        pg_host=pg_host,
        pg_port=pg_port,
        listen_addr=listen,
        listen_port=port,
        # PgBouncer refuses to run as root; started as root (a container, CI), it changes to
        # this user once it has read its files.
        run_as=f"user = {env('PGBOUNCER_RUN_AS', 'nobody')}" if os.geteuid() == 0 else "",
        auth_type="scram-sha-256" if password else "trust",
        auth_file=users,
        user=user,
        max_clients=env("PGBOUNCER_MAX_CLIENTS", "1000"),
        pool_size=pool_size,
        reserve_pool_size=env("PGBOUNCER_RESERVE_POOL_SIZE", "5"),
    )
    (run_dir / "pgbouncer.ini").write_text(pgbouncer)

    credentials = quote(user, safe="") + (f":{quote(password, safe='')}" if password else "")
    return urlunsplit(
        (url.scheme, f"{credentials}@{listen}:{port}", url.path, url.query, url.fragment)
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["render"]:
        sys.exit("usage: scaled.py render (writes into AMARRAKO_RUN_DIR, prints DATABASE_URL)")
    directory = Path(os.environ["AMARRAKO_RUN_DIR"])
    directory.mkdir(parents=True, exist_ok=True)
    print(render(directory))
