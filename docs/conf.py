"""Sphinx configuration of the reference site: `python -m sphinx -W -b html docs docs/_build/html`.

The pages are the Markdown documents of docs/ (myst-parser), the README and the benchmark
results (included from where they live, never copied), and the API pages in docs/api/
(autodoc, from the docstrings).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # the checkout's solver/, whatever is installed

project = "bananas"
author = "the bananas developers"
copyright = "the bananas developers"
release = version = "0.1.0"

# sphinx_click: docs/cli.md, the command-line reference, from the click commands themselves.
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx_click"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "screenshots"]
html_theme = "furo"
html_title = "bananas"

# Headings get anchors, so the documents' [..](#section) and [..](FILE.md#section) links resolve.
myst_heading_anchors = 5  # the README, included a level down, has #### sections
myst_enable_extensions = ["colon_fence"]
# `name` in a docstring is the Python object of that name where there is one (a link), code otherwise.
default_role = "py:obj"
autodoc_member_order = "bysource"
# Quotes and ellipses made typographic, dashes not: the help texts sphinx-click renders
# (docs/cli.md) name options such as --games, which would read as an en dash.
smartquotes_action = "qe"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
# Types in signatures are shown as written (solver/ uses `from __future__ import annotations`).
autodoc_preserve_defaults = True


def _benchmark_pages() -> None:
    """One page per results file of benchmarks/results/, at docs/benchmarks/results/NAME.md,
    where the README's links (benchmarks/results/NAME.md) land. Each page includes the file
    where it lives; the folder is generated (and ignored by git), so a new results file needs
    nothing here."""
    results = ROOT / "benchmarks" / "results"
    pages = DOCS / "benchmarks" / "results"
    pages.mkdir(parents=True, exist_ok=True)
    wanted = {}
    for source in sorted(results.glob("*.md")):
        wanted[source.name] = f"```{{include}} ../../../benchmarks/results/{source.name}\n```\n"
    for stale in pages.glob("*.md"):
        if stale.name not in wanted:
            stale.unlink()
    for name, text in wanted.items():
        page = pages / name
        if not page.exists() or page.read_text() != text:  # unchanged pages keep their timestamps
            page.write_text(text)


_benchmark_pages()


# -- Links between files of the repository ---------------------------------------------------
# The documents link to each other as files do on a forge (README.md -> docs/RULES.md,
# docs/ARCHITECTURE.md -> ../tests/README.md, a results file -> its .svg). Sphinx resolves a
# link from the page that shows it, so each link is rewritten from the file it is written in:
# to the page that shows the target (the target itself under docs/, or the page that includes
# it), else to the file as a download; a link whose target does not exist is left alone, and
# the build fails on it.

_LINK = re.compile(r"(\]\()([^)\s#]*)(#[^)\s]*)?(\))")
_INCLUDE = re.compile(r"^```\{include\}\s+(\S+)", re.MULTILINE)


def _pages_showing_files() -> dict[Path, Path]:
    """Each repository file shown by an `{include}` page (outside docs/) -> that page."""
    shown = {}
    for page in DOCS.rglob("*.md"):
        if "_build" in page.parts:
            continue
        for target in _INCLUDE.findall(page.read_text()):
            shown[(page.parent / target).resolve()] = page
    shown[(ROOT / "benchmarks" / "results").resolve()] = DOCS / "benchmarks.md"
    return shown


def _rewrite_links(text: str, written_in: Path, shown_in: Path, shown: dict[Path, Path]) -> str:
    def rewrite(match: re.Match) -> str:
        target, anchor = match.group(2), match.group(3) or ""
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target):
            return match.group(0)  # a URL, or an anchor on the same page
        path = (written_in.parent / target).resolve()
        page = shown.get(path, path)
        if not page.exists():
            return match.group(0)
        new = os.path.relpath(page, shown_in.parent)
        return f"{match.group(1)}{new}{anchor}{match.group(4)}"

    return _LINK.sub(rewrite, text)


def _on_source_read(app, docname: str, content: list[str]) -> None:
    source = Path(app.env.doc2path(docname))
    content[0] = _rewrite_links(content[0], source, source, _pages_showing_files())


def _on_include_read(app, relative_path, parent_docname: str, content: list[str]) -> None:
    included = (Path(app.srcdir) / relative_path).resolve()
    # myst-parser passes the including page's file name without its folder: take the page
    # being read instead.
    parent = Path(app.env.doc2path(app.env.docname))
    content[0] = _rewrite_links(content[0], included, parent, _pages_showing_files())


# -- No stray mail links -----------------------------------------------------------------------
# reStructuredText makes a link of any word@word: the lexicon names en@35 ... en@80 in the help
# texts sphinx-click renders (docs/cli.md) and in docstrings (the API pages) became `mailto:`
# links. No page means to link an address, so every `mailto:` reference is made plain text
# again (`.ci/run` checks the built site has none; tests/project/test_reference_site.py this
# transform).


def unlink_mail_addresses(document) -> int:
    """Replace each `mailto:` reference in a doctree by its text; the number replaced."""
    from docutils import nodes

    found = [node for node in document.findall(nodes.reference) if node.get("refuri", "").startswith("mailto:")]
    for node in found:
        node.replace_self(nodes.Text(node.astext()))
    return len(found)


def _no_mail_links(app, doctree, docname: str) -> None:
    unlink_mail_addresses(doctree)


def setup(app):
    app.connect("source-read", _on_source_read)
    app.connect("include-read", _on_include_read)
    app.connect("doctree-resolved", _no_mail_links)
