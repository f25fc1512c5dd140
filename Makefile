# All targets but help and clean bootstrap first: a fresh clone needs only Python 3.11 and make.
.DEFAULT_GOAL := help

VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
MANAGE := $(PY) manage.py

.PHONY: help bootstrap run test lint format lock worker prod prod-scaled clean

help:
	@echo "make run       install, migrate, load the demo tournament, serve on 127.0.0.1:8000"
	@echo "make test      install, make lint, pytest tests/ (CI=true: with PostgreSQL, Redis, a worker)"
	@echo "make lint      ruff check, ruff format --check, lint-imports (the floors' contracts)"
	@echo "make bootstrap create or update .venv from requirements.lock (every target runs it)"
	@echo "make format    apply ruff format and ruff's safe fixes"
	@echo "make lock      regenerate requirements.lock from pyproject.toml"
	@echo "make worker    run a Celery worker (needs CELERY_BROKER_URL)"
	@echo "make prod      the production stack: gunicorn, Celery worker and beat (docs/deploy.md)"
	@echo "make prod-scaled  the same scaled out: web nodes behind HAProxy, PgBouncer, workers"
	@echo "make clean     remove .venv and what the tools left (staticfiles, caches)"

bootstrap:
	@scripts/bootstrap

run: bootstrap
	$(MANAGE) migrate --noinput
	$(MANAGE) demo
	$(MANAGE) runserver 127.0.0.1:8000

# lint-imports checks the direction of imports: the contracts in pyproject.toml [tool.importlinter].
lint: bootstrap
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache --no-logo

# pytest exits 5 when it collects no test; that is not a failure of the suite.
test: lint
	$(BIN)/pytest tests/ || [ $$? -eq 5 ]

format: bootstrap
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Keeps current pins; `make lock LOCK_ARGS=--upgrade` (or --upgrade-package NAME) moves them.
lock: bootstrap
	CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/pip-compile $(LOCK_ARGS) --quiet --extra dev --all-build-deps \
		--allow-unsafe --generate-hashes --strip-extras --no-emit-index-url \
		--no-emit-find-links --no-emit-trusted-host --output-file requirements.lock pyproject.toml

worker: bootstrap
	$(BIN)/celery -A config worker --loglevel INFO

# The production stack on one machine (web, worker, beat); see docs/deploy.md for its environment.
prod: bootstrap
	scripts/prod

# The scaled-out layout on one machine: docs/deploy.md, "Scaling out".
prod-scaled: bootstrap
	scripts/prod --scaled

clean:
	rm -rf $(VENV) staticfiles .ruff_cache .hypothesis
