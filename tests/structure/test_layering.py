"""The package's layering, read from the source: who may import whom, and no import cycle.

Every module of scored_pr belongs to a unit: a folder (``_core``, ``_evaluators``,
``lingpipe``, ...) or a single top-level module. Units sit in layers, bottom
first; a module imports only from its own unit or from units in lower layers.
Imports inside functions count (they run, and a lazy import that closes a
cycle is still a cycle), and so do imports under ``if TYPE_CHECKING:``: a
type-only import that climbs the layers is a dependency on a higher layer all
the same (the protocol belongs below its consumers). The graph
is built with :mod:`ast` from the files, so a module that moves or a new
import that climbs the layers fails here, not in a user's traceback.
"""

from __future__ import annotations

import ast
from pathlib import Path

import scored_pr

PACKAGE = Path(scored_pr.__file__).resolve().parent

#: Bottom first. A unit imports only its own modules and those of lower layers.
LAYERS: list[set[str]] = [
    {"_core"},  # pure numpy: points, curves, measures, ranking blocks, bins, statistics
    {"_kinds"},  # the public protocol Evaluation and the registry of evaluator kinds
    {"_version", "_imports", "_validation", "_measures", "_atomic"},  # argument checks, the measure table, atomic file writes
    {"_display"},  # displays of curves: step points read through the queries, drawn with matplotlib
    {"_state", "_io", "_report", "_html", "_uncertainty"},  # state files, input readers, the text and HTML reports, intervals
    {"trec"},  # trec_eval's measures over parsed qrels and runs
    {"_evaluators"},  # the stateful evaluators
    {"_engines"},  # the engines' driver and adapters (Spark, Dask, Ray)
    {"functional", "plot", "streaming", "testing", "lingpipe", "_pytest_plugin", "spark", "dask", "ray"},  # public modules
    {"_sinks"},  # the sinks, one module each, built on streaming and plot
    {"integrations"},  # the sinks' public face
    {"_cli"},  # the command line
    {"__init__", "__main__"},
]

#: Private modules allowed directly in scored_pr/ (the rest live in role folders).
MAX_TOP_LEVEL_PRIVATE = 8


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(module: str, type_checking: bool = True) -> set[str]:
    """The scored_pr modules ``module`` imports (any depth; ``if TYPE_CHECKING:`` blocks too unless told not)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test) and not type_checking:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "scored_pr")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == "scored_pr":
                for alias in node.names:
                    full = f"{target}.{alias.name}"
                    found.add(full if full in MODULES else target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    # "import scored_pr.a.b" also runs scored_pr.a's __init__; the edge that matters is the target
    return {m for m in found if m in MODULES and m != module}


GRAPH = {m: imports_of(m) for m in MODULES}
#: The imports that run (TYPE_CHECKING blocks aside).
RUNTIME_GRAPH = {m: imports_of(m, type_checking=False) for m in MODULES}


def unit_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def layer_of(unit: str) -> int:
    for i, layer in enumerate(LAYERS):
        if unit in layer:
            return i
    raise AssertionError(f"scored_pr.{unit} is in no layer of tests/structure/test_layering.py: place it")


def test_every_module_is_placed_in_a_layer() -> None:
    assert len(MODULES) > 40  # the walk found the package, not an empty folder
    for module in MODULES:
        layer_of(unit_of(module))


def test_each_unit_imports_only_from_itself_and_lower_layers() -> None:
    bad = []
    for module, targets in sorted(GRAPH.items()):
        here = unit_of(module)
        for target in sorted(targets):
            there = unit_of(target)
            if there == "__init__" and target == "scored_pr" and here != "__init__":
                bad.append(f"{module} imports the package root (import the defining module instead)")
            elif there != here and layer_of(there) >= layer_of(here):
                bad.append(f"{module} (layer {layer_of(here)}) imports {target} (layer {layer_of(there)})")
    assert not bad, "\n".join(bad)


def test_the_numpy_core_imports_nothing_else_from_scored_pr() -> None:
    core = {m: t for m, t in GRAPH.items() if unit_of(m) == "_core"}
    assert len(core) >= 5
    for module, targets in core.items():
        assert all(unit_of(t) == "_core" for t in targets), (module, targets)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def connect(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_there_is_no_import_cycle_type_only_imports_included() -> None:
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_sees_function_level_and_type_checking_imports() -> None:
    # the exact evaluator imports the curves at top level
    assert "scored_pr._core.curves" in GRAPH["scored_pr._evaluators.exact"]
    # the command line imports the evaluators inside its functions only
    assert any(unit_of(t) == "_evaluators" for t in GRAPH["scored_pr._cli.report"])
    # the kinds module names the core's result types for type checkers only: counted, not run
    source = MODULES["scored_pr._kinds"].read_text(encoding="utf-8")
    assert "TYPE_CHECKING" in source and "_core.thresholds" in source
    assert "scored_pr._core.thresholds" in GRAPH["scored_pr._kinds"]
    assert "scored_pr._core.thresholds" not in RUNTIME_GRAPH["scored_pr._kinds"]
    # and a type-only import that climbs would be seen: the reader counts it
    assert _cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]


def test_few_private_modules_lie_directly_in_the_package() -> None:
    top = sorted(p.stem for p in PACKAGE.glob("_*.py") if not p.stem.startswith("__"))
    assert len(top) <= MAX_TOP_LEVEL_PRIVATE, top


def test_every_folder_is_a_package_setuptools_installs() -> None:
    import re

    pyproject = (PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8")
    declared = set(re.findall(r'"(scored_pr(?:\.[\w]+)*)"', pyproject.split("packages = [", 1)[1].split("]", 1)[0]))
    folders = {
        ".".join(p.parent.relative_to(PACKAGE.parent).parts)
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix in (".py", ".csv", ".md") and "__pycache__" not in p.parts
    }
    assert folders <= declared, folders - declared


# ------------------------------------------------------------- no private reach across units
#
# What one unit calls on another is a named function or method: a module of one unit never reads
# ``obj._name`` where ``_name`` belongs to another unit (an evaluator's ``_state``, a window's
# ``_add``), and never imports another unit's private module (``trec._parse``). Inside a unit,
# classes and modules share their private members freely. Attributes named like the package's own
# modules are module access when the chain starts at an imported name (``_core.points``).

#: Private attribute names of other libraries' public APIs (namedtuple's, argparse's).
NOT_PRIVATE = {"_replace", "_make", "_asdict", "_fields", "_SubParsersAction"}


def _private_names(tree: ast.AST) -> set[str]:
    """The ``_names`` a module defines: functions, classes, assigned names and attributes, slot names."""
    out: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.attr)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            out.add(n.target.id)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.add(n.value)  # __slots__ entries, setattr names
    return {d for d in out if d.startswith("_") and not d.startswith("__")}


def _imported_names(tree: ast.AST) -> set[str]:
    return {
        (a.asname or a.name).split(".")[0]
        for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
        for a in n.names
    }  # fmt: skip


def private_reaches(sources: dict[str, str]) -> list[str]:
    """``module:line expression`` for each read of another unit's private member or import of its private module."""
    trees = {m: ast.parse(src) for m, src in sources.items()}
    module_names = {m.rsplit(".", 1)[-1] for m in trees} | {unit_of(m) for m in trees}
    own_by_unit: dict[str, set[str]] = {}
    for m, tree in trees.items():
        own_by_unit.setdefault(unit_of(m), set()).update(_private_names(tree))
    anywhere = set().union(*own_by_unit.values())
    found = []
    for m, tree in sorted(trees.items()):
        imported = _imported_names(tree)
        mine = own_by_unit[unit_of(m)]
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.module:
                parts = n.module.split(".")
                if n.level == 0 and parts[0] == "scored_pr":
                    parts = parts[1:]
                # from ..trec._parse import x: a private module of another unit
                if len(parts) >= 2 and parts[0] != unit_of(m) and parts[1].startswith("_") and not parts[1].startswith("__"):
                    found.append(f"{m}:{n.lineno} imports {n.module}")
            if not (isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load)):
                continue
            name = n.attr
            if not name.startswith("_") or name.startswith("__") or name in NOT_PRIVATE:
                continue
            if name in module_names:
                chain: ast.expr = n.value
                while isinstance(chain, ast.Attribute) and chain.attr in module_names:
                    chain = chain.value
                if isinstance(chain, ast.Name) and chain.id in imported:
                    continue  # a module: _core.points, trec._columns named through an import
            if name in mine or name not in anywhere:
                continue  # the unit's own member, or another library's
            found.append(f"{m}:{n.lineno} reads {ast.unparse(n)}")
    return found


def test_no_unit_reads_another_units_private_members() -> None:
    sources = {m: p.read_text(encoding="utf-8") for m, p in MODULES.items()}
    assert private_reaches(sources) == []


def test_the_private_reach_reader_sees_a_reach() -> None:
    sources = {
        "scored_pr._evaluators.exact": "class E:\n    def _state(self):\n        self._x = 1\n",
        "scored_pr._cli.report": "def run(ev):\n    return ev._state()\n",
        "scored_pr._cli.trec": "from ..trec._parse import read_run\n",
        "scored_pr.trec._parse": "def read_run():\n    pass\n",
        "scored_pr._cli.ok": "from .._core import points as _points\ndef f(ev):\n    return ev.state(), _points._x\n",
        "scored_pr._core.points": "_x = 1\n",
    }
    assert private_reaches(sources) == [
        "scored_pr._cli.ok:3 reads _points._x",
        "scored_pr._cli.report:2 reads ev._state",
        "scored_pr._cli.trec:1 imports ..trec._parse".replace("..", ""),
    ]
