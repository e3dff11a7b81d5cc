"""The course as a static website (`make site`): every chapter executed, rendered by Sphinx with MyST-NB and the
book theme, solutions and hidden tests kept out.

- execution.py: each chapter's source notebook run once per change (cached by what changes its outputs);
- pages.py: the page of a chapter, the release notebook with the outputs a student may see; widgets.py: stills
  for widget views;
- leaks.py: what must never reach the site, and the check over every built file;
- mathjax.py: the math renderer, vendored from npm; build.py: the Sphinx project and the build;
- site.toml: a line and a key figure per chapter; sphinx/: conf.py and the stylesheet; templates/: the landing page.
"""
