"""The package as a whole: its layers, its public names and what ``import mctslib`` costs."""

import json
import os
import subprocess
import sys
from pathlib import Path

import mctslib

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numba", "matplotlib", "ipywidgets", "IPython", "scipy", "pyspiel", "llvmlite")


def test_import_mctslib_loads_no_heavy_module():
    # A fresh interpreter, so that nothing another test imported hides a regression.
    code = ("import json, sys; import mctslib; "
            f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    assert json.loads(out.stdout) == []


def test_public_names_are_importable_from_the_root():
    for name in mctslib.__all__:
        assert getattr(mctslib, name) is not None, name
    from mctslib import UCTSearch, run_one_node, solve_zero_sum  # the names a reader types

    assert UCTSearch.__module__ == "mctslib.search.uct"
    assert run_one_node.__module__ == "mctslib.experiments.simultaneous.one_node"
    assert solve_zero_sum.__module__ == "mctslib.search.zero_sum"


def test_every_folder_is_a_layer_of_the_contract():
    # A new folder under mctslib/ must be placed in the layers contract (pyproject.toml).
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = config["contracts"][0]["layers"]
    named = {part.strip() for layer in layers for part in layer.replace(":", "|").split("|")}
    folders = {p.name for p in (ROOT / "mctslib").iterdir()
               if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in (ROOT / "mctslib").glob("*.py")} - {"__init__", "__main__"}
    assert folders | modules == named


def test_lint_imports_passes_and_catches_a_planted_violation(tmp_path):
    clean = subprocess.run(["lint-imports", "--no-cache"], check=False, capture_output=True,
                           text=True, cwd=ROOT)
    assert clean.returncode == 0, clean.stdout[-2000:]
    # Plant a game importing a search in a copy of the package, and the contract must break.
    import shutil

    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "mctslib", copy / "mctslib",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    with open(copy / "mctslib" / "games" / "tictactoe.py", "a") as f:
        f.write("\nfrom ..search.uct import UCTSearch  # noqa: E402,F401 (planted)\n")
    env = {**os.environ, "PYTHONPATH": str(copy)}  # the copy, not the installed package
    broken = subprocess.run(["lint-imports", "--no-cache"], check=False, capture_output=True,
                            text=True, cwd=copy, env=env)
    assert broken.returncode != 0
    assert "mctslib.games.tictactoe -> mctslib.search.uct" in broken.stdout


def _import_cycles(package: str) -> list[list[str]]:
    """Every set of modules of ``package`` that import one another in a ring (Tarjan's SCCs).

    Imports inside functions count: a cycle hidden in a function still ties the modules.
    """
    import grimp

    graph = grimp.build_graph(package)
    imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    order, low, stack, on_stack, rings = {}, {}, [], set(), []

    def visit(start):  # iterative, so that a long chain cannot hit the recursion limit
        work = [(start, iter(imports[start]))]
        order[start] = low[start] = len(order)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(imports[child])))
                elif child in on_stack:
                    low[module] = min(low[module], order[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == order[module]:
                ring = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    ring.append(member)
                    if member == module:
                        break
                if len(ring) > 1:
                    rings.append(sorted(ring))

    for module in sorted(imports):
        if module not in order:
            visit(module)
    return rings


def test_no_two_modules_import_each_other():
    assert _import_cycles("mctslib") == []


def test_the_cycle_finder_finds_a_planted_cycle(tmp_path):
    package = tmp_path / "ringpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from .b import g\n    return g\n")
    (package / "b.py").write_text("from .c import h\n\ng = 1\n")
    (package / "c.py").write_text("from . import a\n\nh = 2\n")
    (package / "d.py").write_text("from .a import f\n")
    sys.path.insert(0, str(tmp_path))
    try:
        assert _import_cycles("ringpkg") == [["ringpkg.a", "ringpkg.b", "ringpkg.c"]]
    finally:
        sys.path.remove(str(tmp_path))


def test_each_subject_of_experiments_is_independent_and_names_its_chapter():
    # A new subpackage of mctslib.experiments must join the independence contract, and its
    # __init__ must say which chapter it serves.
    import importlib

    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    independent = next(c["modules"] for c in config["contracts"] if c["type"] == "independence")
    subjects = sorted(p.name for p in (ROOT / "mctslib" / "experiments").iterdir()
                      if (p / "__init__.py").exists())
    assert sorted(m.rsplit(".", 1)[1] for m in independent) == subjects
    for subject in subjects:
        doc = importlib.import_module(f"mctslib.experiments.{subject}").__doc__ or ""
        assert "chapter" in doc.split("\n\n")[0].lower(), subject


#: A module longer than this says at its top why it is one module (developers' guide; issue 34).
LONG_MODULE = 600


def test_every_long_module_says_why_it_is_one_module():
    import ast

    unexplained = []
    for path in sorted((ROOT / "mctslib").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > LONG_MODULE:
            doc = ast.get_docstring(ast.parse(text)) or ""
            if "Why one module" not in doc:
                unexplained.append(f"{path.relative_to(ROOT)} ({len(text.splitlines())} lines)")
    assert not unexplained, ("modules over 600 lines whose docstring does not say 'Why one "
                             "module ...' (or split them): " + ", ".join(unexplained))
