"""The direction of imports: the contracts of ``lint-imports`` and the rule of no import cycles.

The contracts live in pyproject.toml ([tool.importlinter]) and ``make lint`` runs them: the
layers (pages, API, tasks, commands → services → draw manager → selectors → models), the pure
cores (scoring and tournaments.draw import no Django and nothing of the service), services that
never import a tasks module, and no cycles. Import-linter has no contract for cycles between
single modules, so this file defines one, ``NoCyclesContract`` (type ``no_cycles``), and the
tests below run it on the project's graph, built by grimp (import-linter's own graph library).

The graph holds every import statement of a module, those inside a function too: a lazy import
is how a circle hides, and it is still a circle (two modules that each need the other). A cycle
is named module by module with the line of each import, so the one to move is found at once.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest
from importlinter import Contract, ContractCheck, fields, output
from importlinter.application import contract_utils
from importlinter.application.contract_utils import AlertLevel

ROOT = Path(__file__).resolve().parents[1]

#: How an entry of ``expected_cycles`` names the modules of one cycle.
SEPARATOR = "<->"


def cycles_of(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """Every set of modules that import one another in a circle (the graph's strongly connected
    components of more than one module), found without recursion (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(module: str) -> tuple[str, Iterator[str]]:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        return module, iter(sorted(graph.find_modules_directly_imported_by(module)))

    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [visit(root)]  # a depth-first walk: each module with the imports left to follow
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    work.append(visit(other))
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return sorted(found, key=sorted)


def name_cycle(graph: grimp.ImportGraph, modules: frozenset[str]) -> str:
    """One shortest circle through the first of ``modules``, each import with its line:
    ``a -> b (l. 37) -> a (l. 283, 402)``."""
    start = min(modules)
    came_from: dict[str, str] = {}
    queue = deque([start])
    last = None
    while queue and last is None:
        module = queue.popleft()
        for other in sorted(graph.find_modules_directly_imported_by(module)):
            if other not in modules:
                continue
            if other == start:
                last = module
                break
            if other not in came_from:
                came_from[other] = module
                queue.append(other)
    path = [start] if last is None else [last]
    while path[-1] != start:
        path.append(came_from[path[-1]])
    path.reverse()
    path.append(start)
    text = start
    for importer, imported in zip(path, path[1:], strict=False):
        details = graph.get_import_details(importer=importer, imported=imported)
        lines = ", ".join(str(d["line_number"]) for d in sorted(details, key=_line))
        text += f" -> {imported} (l. {lines})"
    if len(modules) > len(path) - 1:
        text += f"; the circle holds {len(modules)} modules: {', '.join(sorted(modules))}"
    return text


def _line(detail: dict) -> int:
    return detail["line_number"]


def parse_expected(entry: str) -> frozenset[str]:
    """``"a <-> b"`` (or more modules) as the set of the modules of that cycle."""
    return frozenset(part.strip() for part in entry.split(SEPARATOR) if part.strip())


class NoCyclesContract(Contract):
    """No module imports, directly or through others, a module that imports it back.

    Configuration options:
        - ignore_imports:   imports left out of the graph (each needs a reason in a comment).
        - expected_cycles:  known cycles, ``"a <-> b"``: an expected failure each, reported as a
                            warning while it lasts; an entry whose cycle is gone (fixed, or grown
                            to other modules) breaks the contract, so the list stays true.
        - unmatched_ignore_imports_alerting: as in import-linter's contracts (default error).
    """

    type_name = "no_cycles"

    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)
    expected_cycles = fields.ListField(subfield=fields.StringField(), required=False)
    unmatched_ignore_imports_alerting = fields.EnumField(AlertLevel, default=AlertLevel.ERROR)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        removal = contract_utils.remove_ignored_imports_and_report(
            graph=graph,
            ignore_imports=self.ignore_imports,
            unmatched_alerting=self.unmatched_ignore_imports_alerting,
        )
        expected = [parse_expected(entry) for entry in self.expected_cycles or []]
        cycles = cycles_of(graph)
        unexpected = [name_cycle(graph, c) for c in cycles if c not in expected]
        gone = [
            f"{f' {SEPARATOR} '.join(sorted(e))}: no such cycle any more (fixed, or it now holds "
            "other modules); take it off expected_cycles"
            for e in expected
            if e not in cycles
        ]
        known = [f"expected cycle: {name_cycle(graph, c)}" for c in cycles if c in expected]
        return ContractCheck(
            kept=not unexpected and not gone,
            warnings=[*removal.warnings, *known],
            ignored_import_count=removal.ignored_import_count,
            metadata={"cycles": unexpected, "gone": gone},
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error(f"Import cycle: {cycle}")
        for entry in check.metadata["gone"]:
            output.print_error(f"Expected cycle {entry}")
        output.new_line()


def _contract_options(contract_id: str) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return next(c for c in config["contracts"] if c["id"] == contract_id)


def _project_graph() -> grimp.ImportGraph:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return grimp.build_graph(*config["root_packages"], cache_dir=None)


def test_the_project_has_no_import_cycle_but_the_expected_ones():
    options = _contract_options("no-cycles")
    contract = NoCyclesContract(name=options["name"], session_options={}, contract_options=options)
    check = contract.check(_project_graph(), verbose=False)
    problems = [f"import cycle: {c}" for c in check.metadata["cycles"]] + [
        f"expected cycle {e}" for e in check.metadata["gone"]
    ]
    assert check.kept, "\n".join(problems)


def test_every_import_contract_is_kept():
    """What ``make lint`` runs: each contract of pyproject.toml, its failures shown in full."""
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(lint), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


# The contract itself, on a small package written for the test.


@pytest.fixture
def package(tmp_path, monkeypatch):
    """Write modules of a package ``circles`` and return a function that builds its graph."""
    root = tmp_path / "circles"
    root.mkdir()
    (root / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(**modules: str) -> grimp.ImportGraph:
        for name, source in modules.items():
            (root / f"{name}.py").write_text(textwrap.dedent(source))
        return grimp.build_graph("circles", cache_dir=None)

    return write


def _check(graph: grimp.ImportGraph, **options) -> ContractCheck:
    return NoCyclesContract(name="no cycles", session_options={}, contract_options=options).check(
        graph, verbose=False
    )


def test_a_circle_hidden_in_a_lazy_import_is_found_and_named_with_its_lines(package):
    graph = package(
        models="VALUE = 1\n",
        a="from circles import models\nfrom circles.b import helper\n",
        b="""\
            def helper():
                from circles.a import models  # lazy: still a circle

                return models
        """,
    )
    check = _check(graph)
    assert not check.kept
    assert check.metadata["cycles"] == ["circles.a -> circles.b (l. 2) -> circles.a (l. 2)"]


def test_a_longer_circle_is_named_through_all_its_modules(package):
    graph = package(
        a="import circles.b\n",
        b="import circles.c\n",
        c="\n\ndef late():\n    import circles.a\n",
    )
    (cycle,) = _check(graph).metadata["cycles"]
    assert cycle == "circles.a -> circles.b (l. 1) -> circles.c (l. 1) -> circles.a (l. 4)"


def test_an_expected_cycle_is_a_warning_and_one_that_is_gone_breaks_the_contract(package):
    graph = package(a="import circles.b\n", b="def f():\n    import circles.a\n")
    expected = _check(graph, expected_cycles=["circles.a <-> circles.b"])
    assert expected.kept
    assert expected.warnings == [
        "expected cycle: circles.a -> circles.b (l. 1) -> circles.a (l. 2)"
    ]

    fixed = package(b="VALUE = 1\n")
    gone = _check(fixed, expected_cycles=["circles.a <-> circles.b"])
    assert not gone.kept
    assert gone.metadata["gone"][0].startswith("circles.a <-> circles.b: no such cycle")


def test_an_ignored_import_is_left_out_of_the_graph(package):
    graph = package(a="import circles.b\n", b="def f():\n    import circles.a\n")
    assert _check(graph, ignore_imports=["circles.b -> circles.a"]).kept
