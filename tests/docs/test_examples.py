"""Every example in README.md and docs/*.md works as printed.

Python blocks (```python): every ``from loaderlab... import a, b`` / ``import loaderlab...`` resolves (the
module imports and has each name), and so does every ``loaderlab.X`` after ``import loaderlab``. A block that
imports nothing beyond the standard library, torch, numpy and loaderlab also runs, in a fresh interpreter in an
empty folder, and must exit 0 — unless the line before its fence is ``<!-- example: not run -->`` (the
``train.py`` that imports ``my_project``): such a block only has its imports checked.

Shell blocks (```bash, ```sh, ```console — of a console block only the ``$ `` lines): every
``python -m loaderlab SUB`` / ``loaderlab SUB`` (``torchrun ... -m loaderlab SUB`` too) names a subcommand
``python -m loaderlab --help`` lists, and each ``--option`` it passes is one ``SUB --help`` lists (for ``run``,
only the options before the script: the rest are the script's).

One test per block, so a failure names the file and the line.
"""

from __future__ import annotations

import ast
import functools
import importlib
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = "<!-- example: not run -->"
PYTHON_LANGS = {"python", "py", "python3"}
SHELL_LANGS = {"bash", "sh", "shell", "console"}
RUNNABLE_TOP_MODULES = set(sys.stdlib_module_names) | {"torch", "numpy", "loaderlab"}
RUN_TIMEOUT_S = 120

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+.-]*)[^`]*$")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # the file's line of the block's first line of code (1-based)
    lang: str
    code: str
    not_run: bool

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    def doc_line(self, code_line: int) -> str:
        """``file:line`` of the block's ``code_line`` (1-based within the block)."""
        return f"{self.path.relative_to(ROOT)}:{self.line + code_line - 1}"


def fenced_blocks(path: Path) -> list[Block]:
    lines = path.read_text(encoding="utf-8").split("\n")
    out, i = [], 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        indent, fence, lang = opened["indent"], opened["fence"], opened["lang"].lower()
        before = next((line.strip() for line in reversed(lines[:i]) if line.strip()), "")
        j = i + 1
        while j < len(lines) and not (lines[j].strip().startswith(fence[0] * len(fence))
                                      and not lines[j].strip().strip(fence[0])):
            j += 1
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:j]]
        out.append(Block(path, i + 2, lang, "\n".join(body) + "\n", before == NOT_RUN))
        i = j + 1
    return out


ALL_BLOCKS = [block for path in DOC_FILES for block in fenced_blocks(path)]
PYTHON_BLOCKS = [b for b in ALL_BLOCKS if b.lang in PYTHON_LANGS]
SHELL_BLOCKS = [b for b in ALL_BLOCKS if b.lang in SHELL_LANGS]


def _ids(blocks: list[Block]) -> list[str]:
    return [f"{b.where}-{b.lang}" for b in blocks]


# ---------------------------------------------------------------- python blocks


def _parse(block: Block) -> ast.Module:
    try:
        return ast.parse(block.code)
    except SyntaxError as e:
        pytest.fail(f"{block.doc_line(e.lineno or 1)}: the example is not valid Python: {e.msg}")


def _top_modules(tree: ast.Module) -> set[str]:
    tops = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            tops |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            tops.add(node.module.split(".")[0])
    return tops


def _is_loaderlab(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] == "loaderlab"


def _import_problem(module: str) -> str | None:
    try:
        importlib.import_module(module)
    except Exception as e:  # noqa: BLE001 - any failure is the example's problem, said in full
        return f"`import {module}` fails: {type(e).__name__}: {e}"
    return None


def _name_problem(module: str, name: str) -> str | None:
    problem = _import_problem(module)
    if problem:
        return problem
    mod = sys.modules[module]
    try:
        if hasattr(mod, name):
            return None
    except Exception as e:  # noqa: BLE001 - a lazy name whose module fails to import
        return f"`{module}.{name}` fails: {type(e).__name__}: {e}"
    try:  # `from package import submodule` is a name import too
        importlib.import_module(f"{module}.{name}")
        return None
    except ModuleNotFoundError:
        pass
    except Exception as e:  # noqa: BLE001
        return f"`{module}.{name}` fails: {type(e).__name__}: {e}"
    public = getattr(mod, "__all__", None)
    why = ("it has no __all__ (no public names yet)" if public is None
           else f"its __all__ does not list it ({len(public)} names)")
    return f"`{module}` has no name `{name}`: {why}"


def _loaderlab_aliases(tree: ast.Module) -> set[str]:
    """Names bound to the ``loaderlab`` package itself by ``import loaderlab`` (or ``as x``)."""
    return {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
            for alias in node.names if alias.name == "loaderlab"}


def import_problems(block: Block) -> list[str]:
    tree = _parse(block)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_loaderlab(alias.name) and (p := _import_problem(alias.name)):
                    problems.append(f"{block.doc_line(node.lineno)}: {p}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_loaderlab(node.module):
            for alias in node.names:
                p = _import_problem(node.module) if alias.name == "*" else _name_problem(node.module, alias.name)
                if p:
                    problems.append(f"{block.doc_line(node.lineno)}: name `{alias.name}`: {p}")
    aliases = _loaderlab_aliases(tree)
    seen = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and node.attr not in seen):
            seen.add(node.attr)
            if p := _name_problem("loaderlab", node.attr):
                problems.append(f"{block.doc_line(node.lineno)}: `loaderlab.{node.attr}`: {p}")
    return sorted(set(problems), key=problems.index)


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=_ids(PYTHON_BLOCKS))
def test_every_loaderlab_import_of_a_python_example_resolves(block):
    problems = import_problems(block)
    assert not problems, "an example imports what LoaderLab does not have:\n  " + "\n  ".join(problems)


def _runnable(block: Block) -> bool:
    return not block.not_run and _top_modules(ast.parse(block.code)) <= RUNNABLE_TOP_MODULES


def _parses(block: Block) -> bool:
    try:
        ast.parse(block.code)
    except SyntaxError:
        return False
    return True


RUNNABLE_BLOCKS = [b for b in PYTHON_BLOCKS if _parses(b) and _runnable(b)]


def test_each_python_example_either_runs_or_says_why_not():
    """A block importing something outside the standard library, torch, numpy and loaderlab cannot run here:
    it must say so with the marker, so that a forgotten import is not silently left unrun."""
    unmarked = [b.where for b in PYTHON_BLOCKS if _parses(b) and not b.not_run and not _runnable(b)]
    assert not unmarked, (f"these examples import other packages; put `{NOT_RUN}` on the line before the "
                          f"fence if that is on purpose: {unmarked}")


@pytest.mark.slow
@pytest.mark.parametrize("block", RUNNABLE_BLOCKS, ids=_ids(RUNNABLE_BLOCKS))
def test_a_python_example_runs_as_printed(block, tmp_path):
    script = tmp_path / "example.py"
    script.write_text(block.code, encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    try:
        done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{block.where}: the example ran past {RUN_TIMEOUT_S} s")
    problems = import_problems(block)
    assert done.returncode == 0, (
        f"{block.where}: the example exited with {done.returncode}"
        + ("; its imports do not resolve:\n  " + "\n  ".join(problems) if problems else "")
        + f"\n--- stderr (end) ---\n{done.stderr[-3000:]}\n--- stdout (end) ---\n{done.stdout[-1000:]}")


# ---------------------------------------------------------------- shell blocks


def _help(*args: str) -> str:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-m", "loaderlab", *args, "--help"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"`python -m loaderlab {' '.join(args)} --help` failed:\n{done.stderr}"
    return done.stdout


@functools.lru_cache(maxsize=None)
def subcommands() -> frozenset[str]:
    text = _help()
    listed = text[text.index("commands"):]
    listed = listed[:listed.index("examples:")] if "examples:" in listed else listed
    names = frozenset(re.findall(r"^ {2,}([a-z][a-z_-]*) {2,}\S", listed, flags=re.M))
    assert names, f"no subcommand found in `python -m loaderlab --help`:\n{text}"
    return names


@functools.lru_cache(maxsize=None)
def long_options(sub: str) -> frozenset[str]:
    """The options ``SUB --help`` declares (its usage and options, not the options of its examples)."""
    text = re.split(r"^examples?:", _help(sub), flags=re.M)[0]
    return frozenset(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", text))


def shell_commands(block: Block) -> list[tuple[int, list[str]]]:
    """``(line in the block, tokens)`` of each command of the block, comments and continuations joined."""
    out, pending, start = [], "", 0
    for n, raw in enumerate(block.code.split("\n"), start=1):
        line = raw.rstrip()
        if not pending:
            if block.lang == "console":
                if not line.lstrip().startswith("$ "):
                    continue
                line = line.lstrip()[2:]
            start = n
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError:
            tokens = line.split("#")[0].split()
        command: list[str] = []
        for token in tokens + [";"]:
            if token in {"&&", "||", ";", "|", "&"}:
                if command:
                    out.append((start, command))
                command = []
            else:
                command.append(token)
    return out


def loaderlab_call(tokens: list[str]) -> list[str] | None:
    """What follows ``loaderlab`` in ``python -m loaderlab ...``, ``loaderlab ...`` or ``torchrun -m loaderlab``."""
    while tokens and re.match(r"^[A-Za-z_]\w*=", tokens[0]):  # VAR=value before the command
        tokens = tokens[1:]
    if not tokens:
        return None
    if os.path.basename(tokens[0]) == "loaderlab":
        return tokens[1:]
    for i in range(len(tokens) - 1):
        if tokens[i] == "-m" and tokens[i + 1] == "loaderlab":
            return tokens[i + 2:]
    return None


def command_problems(block: Block) -> list[str]:
    problems = []
    for line, tokens in shell_commands(block):
        args = loaderlab_call(tokens)
        if args is None or not args or args[0].startswith("-"):
            continue
        sub, rest, shown = args[0], args[1:], " ".join(tokens)
        if sub not in subcommands():
            problems.append(f"{block.doc_line(line)}: `{shown}`: `{sub}` is not a subcommand of "
                            f"`python -m loaderlab` (it lists {sorted(subcommands())})")
            continue
        if sub == "run":  # the options before the script are run's; everything after it is the script's
            own = []
            for token in rest:
                if token.endswith(".py") or (own and own[-1] == "-m"):
                    break
                own.append(token)
            rest = own
        for token in rest:
            option = token.split("=", 1)[0]
            if option.startswith("--") and option not in long_options(sub):
                problems.append(f"{block.doc_line(line)}: `{shown}`: `{sub}` has no option `{option}` "
                                f"(`{sub} --help` lists {sorted(long_options(sub))})")
    return problems


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=_ids(SHELL_BLOCKS))
def test_every_loaderlab_command_of_a_shell_example_exists(block):
    problems = command_problems(block)
    assert not problems, "an example runs a command LoaderLab does not have:\n  " + "\n  ".join(problems)


def test_the_examples_are_found():
    """The extraction itself: the README's engine example, its train.py (not run) and its commands."""
    readme = [b for b in ALL_BLOCKS if b.path.name == "README.md"]
    assert any(b.lang == "python" and b.not_run and "my_project" in b.code for b in readme)
    assert any(b.lang == "python" and "from loaderlab import DataLoader" in b.code for b in RUNNABLE_BLOCKS)
    calls = [loaderlab_call(t) for b in SHELL_BLOCKS for _, t in shell_commands(b)]
    assert ["run", "train.py", "--lr", "3e-4"] in calls
    assert ["report", "trace.json", "--json"] in calls  # a console block: its `$ ` line
