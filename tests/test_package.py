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
    assert run_one_node.__module__ == "mctslib.experiments.simultaneous"
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
