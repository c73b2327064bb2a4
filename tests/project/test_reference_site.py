"""The reference site (docs/, built by Sphinx in CI) documents every public name: each module an
API page shows with `.. automodule::` has a docstring, and so has each public function, class, method
and property it defines (autodoc leaves out a name without one, silently). The public API of
`solver/__init__.py` is all on those pages."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import solver

API_PAGES = Path(__file__).resolve().parents[2] / "docs" / "api"
AUTOMODULE = re.compile(r"^\.\. automodule::\s+(\S+)", re.MULTILINE)


def documented_modules() -> list[str]:
    return sorted({name for page in API_PAGES.glob("*.md") for name in AUTOMODULE.findall(page.read_text())})


def public_members(module) -> list[tuple[str, object]]:
    """(qualified name, object) of the functions, classes, methods and properties `module` defines:
    those its `__all__` names when it has one (autodoc shows just those), else every name without
    a leading underscore."""
    members = []
    exported = getattr(module, "__all__", None)
    for name, value in vars(module).items():
        if name.startswith("_") or getattr(value, "__module__", None) != module.__name__:
            continue
        if exported is not None and name not in exported:
            continue
        if not (inspect.isfunction(value) or inspect.isclass(value)):
            continue
        members.append((name, value))
        if inspect.isclass(value):
            for attribute, member in vars(value).items():
                if attribute.startswith("_"):
                    continue
                if isinstance(member, property | staticmethod | classmethod) or inspect.isfunction(member):
                    members.append((f"{name}.{attribute}", getattr(value, attribute)))
    return members


def documented(name: str, value) -> bool:
    """Whether `value` has a docstring of its own: inherited from the class it overrides counts
    (a bot's `decide` documented by the Bot interface), a dataclass's generated signature not."""
    doc = inspect.getdoc(value)
    return bool(doc) and not (inspect.isclass(value) and doc.startswith(f"{value.__name__}("))


def test_the_api_pages_show_the_public_api_of_solver():
    modules = set(documented_modules())
    assert {solver._LAZY[name] for name in solver.__all__ if name in solver._LAZY} <= modules


@pytest.mark.parametrize("name", documented_modules())
def test_every_public_name_of_a_documented_module_has_a_docstring(name):
    module = importlib.import_module(name)
    assert inspect.getdoc(module), f"{name} has no module docstring"
    missing = [qualified for qualified, value in public_members(module) if not documented(qualified, value)]
    assert not missing, f"{name}: no docstring for {', '.join(missing)}"


def test_the_cli_page_documents_every_command():
    """docs/cli.md hands the whole group to sphinx-click, which lists a group's commands with
    `list_commands` and `get_command`: the lazy group must give each command (not a stub) by
    those, as it does when one runs (issue 38)."""
    import click

    from solver.cli import COMMANDS, main

    page = (API_PAGES.parent / "cli.md").read_text()
    assert ".. click:: solver.cli:main" in page and ":nested: full" in page
    context = click.Context(main, info_name="bananas")
    assert main.list_commands(context) == sorted(COMMANDS)
    for name in main.list_commands(context):
        command = main.get_command(context, name)
        assert isinstance(command, click.Command) and command.name == name and command.help, name


def test_word_lists_named_in_help_texts_are_no_mail_links():
    """The command-line page showed en@35 ... en@80 (the --lexicon help, docstrings) as seven
    `mailto:` links (issue 65): docs/conf.py makes every `mailto:` reference plain text again,
    and `.ci/run` checks the built site for any left."""
    core = pytest.importorskip("docutils.core")  # the docs extra's; CI builds the site as well
    spec = importlib.util.spec_from_file_location("docs_conf", Path(__file__).resolve().parents[2] / "docs" / "conf.py")
    assert spec is not None and spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    from solver.cli.common import lexicon_option

    help_text = lexicon_option(lambda: None).__click_params__[0].help
    assert "en@35" in help_text  # what made the links
    doctree = core.publish_doctree(help_text, settings_overrides={"report_level": 5})
    assert conf.unlink_mail_addresses(doctree) >= 5
    assert conf.unlink_mail_addresses(doctree) == 0  # none left
    assert "en@35, en@50, en@60, en@70, en@80" in doctree.astext()
