# Two promises: `make demo` and `make test` work on a fresh clone with nothing installed by hand.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
NONOGEN := $(VENV)/bin/nonogen
STAMP  := $(VENV)/.installed

.PHONY: demo test bench clean demo-puzzles demo-images demo-meshes demo-packing

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

demo: demo-puzzles demo-images demo-meshes demo-packing
	@echo "demo outputs are in outputs/"

# Verify and solve every shipped puzzle; a table on the terminal, solutions as text.
demo-puzzles: $(STAMP)
	$(NONOGEN) verify samples/puzzles --solutions-dir outputs/solutions --force

demo-images: $(STAMP)

demo-meshes: $(STAMP)

demo-packing: $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

# Each capability has its own benchmark script; every one prints a table and a baseline comparison.
bench: $(STAMP)
	$(PY) scripts/bench_verify.py
	$(PY) scripts/bench_image.py
	$(PY) scripts/bench_mesh.py
	$(PY) scripts/bench_pack.py

clean:
	rm -rf $(VENV) build *.egg-info
