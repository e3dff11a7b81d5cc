"""Sphinx configuration of the course website. tools/site copies this folder into the generated project and
writes site.json beside it (the values of one build: the repository, the profile)."""
import json
from pathlib import Path

SITE = json.loads(Path(__file__).with_name("site.json").read_text(encoding="utf-8"))

project = "Frame by Frame"
author = "the Frame by Frame authors"
copyright = "the Frame by Frame authors"
language = "en"

extensions = ["myst_nb"]
root_doc = "index"
# The release notebooks are served as downloads, not read as pages.
exclude_patterns = ["notebooks/**", "**/.ipynb_checkpoints"]

# The pages are notebooks executed beforehand (tools/site/execution.py); MyST-NB only renders them.
nb_execution_mode = "off"
nb_merge_streams = True
nb_ipywidgets_js = {}  # widget views are replaced by stills before Sphinx sees them; load no widget scripts
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
# Sphinx runs with -W: a broken link, image or reference fails the build. A heading that skips a level is the
# chapter's style, not an error.
suppress_warnings = ["myst.header"]

# Math with the MathJax bundle vendored into _static (tools/site/mathjax.py): the pages fetch nothing elsewhere.
mathjax_path = SITE["mathjax"]
mathjax3_config = {"svg": {"fontCache": "global"}}

html_theme = "sphinx_book_theme"
html_title = "Frame by Frame"
html_static_path = ["_static"]
html_css_files = ["site.css"]
html_favicon = "_static/favicon.svg"  # without one, every browser asks for /favicon.ico and logs a 404
html_context = {"default_mode": "auto"}  # light or dark as the reader's system says (the theme needs it named)
html_copy_source = False
html_show_sourcelink = False
html_theme_options = {
    "home_page_in_toc": True,
    "show_toc_level": 2,
    "use_download_button": False,   # each chapter links its release notebook instead of the page's source
    "use_fullscreen_button": False,
    "repository_url": SITE["repository"] or "",
    "use_repository_button": bool(SITE["repository"]),
    "path_to_docs": "",
}
