# armlab: the two commands a newcomer needs are `make book` and `make test`.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: book pdf test test-fast exercises grade pdfs gradescope bench serve lab normalize clean

# Re-create the environment whenever a requirements file or the package metadata changes.
$(STAMP): requirements.txt requirements-test.txt pyproject.toml postBuild .jupyter/*.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -r requirements-test.txt
	NB_PYTHON_PREFIX=$(abspath $(VENV)) ARMLAB_INSTRUCTOR=1 bash postBuild
	touch $(STAMP)

venv: $(STAMP)

# The execution cache keys on each chapter's code only: when armlab changes, drop it,
# and Sphinx's saved environment, so no page keeps numbers computed by an older armlab.
ARMLAB_SRC := $(wildcard armlab/*.py armlab/*/*.py)
_build/.armlab-src: $(ARMLAB_SRC)
	rm -rf _build/.jupyter_cache _build/.doctrees
	mkdir -p _build && touch $@

book: $(STAMP) _build/.armlab-src
	$(VENV)/bin/jupyter-book build . -W -n --keep-going

# One PDF of every page of _toc.yml, _build/html/armlab.pdf (the front page links to it):
# Jupyter Book's singlehtml builder from make book's saved environment (nothing is executed
# again), printed by the system's Chromium once MathJax has typeset it (_ext/book_pdf.py).
pdf: book
	$(PY) _ext/book_pdf.py

test: $(STAMP)
	$(PY) -m pytest

test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow and not browser"

exercises: $(STAMP)
	$(PY) -m armlab.grading.release

grade: $(STAMP)
	$(PY) -m armlab.grading.autograde $(ASSIGNMENT) $(SUBMISSIONS) $(GRADE_ARGS)

# One PDF per submission of a graded round (grading/$(ASSIGNMENT)), named for the LMS's bulk
# upload (PDF_ARGS="--lms canvas --submissions export.zip"), for grading by hand.
pdfs: $(STAMP)
	$(PY) -m armlab.grading.submission_pdfs grading/$(ASSIGNMENT) $(PDF_ARGS)

# Gradescope's autograder.zip for one set (the course secret from $ARMLAB_GRADING_SECRET).
gradescope: $(STAMP)
	$(PY) -m armlab.grading.gradescope build $(ASSIGNMENT) --out $(or $(OUT),autograder.zip) $(GRADESCOPE_ARGS)

bench: $(STAMP)
	$(PY) benchmarks/run.py

# Rewrite book/*.md as JupyterLab saves them (tests/test_chapters_roundtrip.py checks it).
normalize: $(STAMP)
	$(PY) _ext/normalize_chapters.py

lab: $(STAMP)
	$(VENV)/bin/jupyter lab book/statics.md

serve:
	$(PYTHON) -m http.server --directory _build/html 8000

clean:
	rm -rf _build .jupyter_cache
