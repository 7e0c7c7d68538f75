"""Sphinx configuration of nonogen's documentation site: `make docs` builds it into docs/_build/html.

Pages are Markdown (MyST), so docs/FORMATS.md and the guides read the same on GitHub; the gallery's
examples (docs/examples/) are run by sphinx-gallery on every build, so every picture in it is output of
the code as it is now; the command reference is read from the argparse parsers (sphinx-argparse) and the
API reference from the docstrings (autodoc).
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))  # the gallery's scraper, the CLI parsers, the pages' commands

import nonogen  # noqa: E402
from gallery_pictures import PLAY  # noqa: E402

project = "nonogen"
author = "the nonogen authors"
copyright = "the nonogen authors, MIT licence"
release = version = nonogen.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx_gallery.gen_gallery",
    "sphinxarg.ext",
    "cli_parsers",
    "page_commands",  # a page's pictures of scratch/ are what its own commands write, run at every build
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", PLAY, "examples", "gallery/*.ipynb", "gallery/*.py", "studio/*.md"]

smartquotes = False  # a flag in help text or prose stays `--jobs`, never an en dash
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # README-style links (`page.md#a-heading`) resolve to the heading's anchor

autodoc_member_order = "bysource"
autodoc_typehints = "signature"

sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "gallery",
    "filename_pattern": r".*\.py$",  # every example runs
    "within_subsection_order": "FileNameSortKey",
    "image_scrapers": ("gallery_pictures.scrape",),
    "reset_modules": ("gallery_pictures.start_example",),
    "reset_modules_order": "before",
    "capture_repr": (),  # an example prints what it wants shown; expressions are not echoed
    "download_all_examples": False,
    "remove_config_comments": True,
    "min_reported_time": 1,
    "write_computation_times": False,  # its page loads scripts from CDNs: the site makes no network request
    "show_memory": False,
    "plot_gallery": "True",
    "abort_on_example_error": True,
}

html_theme = "furo"
html_title = f"nonogen {release}"
html_static_path = ["_static"]
html_css_files = ["nonogen.css"]
(HERE / PLAY).mkdir(exist_ok=True)
html_extra_path = [PLAY]  # the gallery's playable pages, published under play/
html_theme_options = {
    "source_repository": "",
    "navigation_with_keys": True,
}
html_show_sourcelink = False
