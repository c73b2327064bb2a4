"""Docstrings say what the code does: none of `solver/` cites an issue (its history is in git
and in benchmarks/results)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SOLVER = Path(__file__).resolve().parents[2] / "solver"
ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def docstrings(source: str):
    """Every docstring of a module's source, with the line it starts on."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, DOCUMENTED) and (text := ast.get_docstring(node, clean=False)):
            yield node.body[0].lineno, text


def issues_cited(source: str) -> list[str]:
    return [f"{line}: {match}" for line, text in docstrings(source) for match in ISSUE.findall(text)]


def test_the_check_finds_an_issue_in_any_docstring():
    source = '"""A module (issue 12)."""\nclass A:\n    """Issue #3."""\n    def f(self):\n        """ok"""\n'
    assert issues_cited(source) == ["1: issue 12", "3: Issue #3"]
    assert issues_cited("x = 1  # issue 12: a comment is not a docstring\n") == []


def test_no_docstring_of_solver_cites_an_issue():
    found = {}
    for path in sorted(SOLVER.rglob("*.py")):
        cited = issues_cited(path.read_text(encoding="utf-8"))
        if cited:
            found[str(path.relative_to(SOLVER.parent))] = cited
    assert not found, f"docstrings citing issues (say what the code does instead): {found}"
