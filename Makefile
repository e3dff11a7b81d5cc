# Frame by Frame. Every target depends on `setup`, so on a fresh machine `make lab` or `make test` does all
# set-up; a second run skips what is done (the stamp file tracks the requirement files).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LAB_PORT ?= 8888
SUBMITTED ?= submitted
OUT ?= grading-out
# More options for `python -m autograder grade`, e.g. ARGS="--jobs 2" or ARGS=--force.
ARGS ?=
# Options for `make bench`, e.g. BENCH_ARGS="--students 80" or BENCH_ARGS=--grading-only.
BENCH_ARGS ?=
CHAPTERS := $(notdir $(wildcard source/ch*))

.PHONY: setup system-packages test lab progress release autograde bench claims gpu-check constraints site clean

setup: $(STAMP) system-packages

$(STAMP): requirements.txt constraints.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -r requirements.txt -e .
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (Frame by Frame)" >/dev/null
	touch $@

# Debian packages: Graphviz's `dot` renders the computational graphs (torchviz).
system-packages:
	@bash tools/install-system-packages.sh

test: setup
	$(PY) -m pytest -q

lab: setup
	@bash tools/lab.sh $(LAB_PORT)

# Self-study: runs the visible tests of every chapter in notebooks/ (or FOLDER=...) and prints where you stand.
FOLDER ?= notebooks
progress: setup
	$(PY) -m tools.progress $(FOLDER)

release: setup
	$(PY) -m tools.release $(CHAPTERS)

# The grader's messages then spell an option as its user adds it here: ARGS=--force.
autograde: export AUTOGRADER_MAKE_TARGET := autograde
autograde: setup
	$(PY) -m autograder grade $(SUBMITTED) --out $(OUT) $(ARGS)

bench: setup
	$(PY) -m tools.bench $(BENCH_ARGS)

# On a machine with a CUDA GPU: every chapter in the gpu profile, ch05 and ch06 in the grade profile, the CUDA
# checks; report in bench-results/gpu-check.json. Without CUDA it runs the CPU checks and exits 2.
gpu-check: setup
	$(PY) -m tools.gpu_check

# Runs the chapters in the cpu profile and checks every claim their prose makes (CHAPTERS="ch03_minibatches ..."
# for some of them).
CLAIMS_PROFILE ?= cpu
claims: setup
	$(PY) -m tools.claims --profile $(CLAIMS_PROFILE) $(CHAPTERS)

# The course as a static website in build/site/ (open build/site/index.html): every chapter executed in the cpu
# profile, only what changed since the last build (build/site-cache/), rendered by Sphinx with MyST-NB; the first
# build fetches MathJax with npm. SITE_ARGS="--profile grade" for a quick look, or chapter names.
SITE_ARGS ?=
site: setup
	$(PY) -m tools.site $(SITE_ARGS)

# Pins what `make setup` installed into constraints.txt (run after changing requirements.txt).
constraints: setup
	$(PY) -m tools.constraints

# Grades (grading-out/ or any OUT) are never deleted here.
clean:
	rm -rf $(VENV) build bench-results
