# Two promises: `make demo` and `make test` work on a fresh clone with nothing installed by hand.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
NONOGEN := $(VENV)/bin/nonogen
STAMP  := $(VENV)/.installed
# Where the demo writes: outputs/ is committed, so the demo leaves no wall-clock numbers in it (scripts/demo_untimed.py)
# and makes its book with ReportLab's fixed dates: a second `make demo` changes no tracked file.
OUT    ?= outputs
UNTIME := $(PY) scripts/demo_untimed.py

.PHONY: demo test docs bench fuzz clean demo-puzzles demo-images demo-meshes demo-packing demo-book browser-deps

$(STAMP): pyproject.toml $(wildcard nonogen/solve/*.c nonogen/solve/*.h)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]' --config-settings editable_mode=compat
	@# bytecode now, as pip does for a regular install: with PYTHONDONTWRITEBYTECODE set (Docker images
	@# often set it) every start would compile the package again, 0.43 s instead of 0.27 s for a 5x5 verify
	$(PY) -m compileall -q nonogen
	touch $(STAMP)

demo: demo-puzzles demo-images demo-meshes demo-packing demo-book
	@echo "demo outputs are in $(OUT)/ (open $(OUT)/images/*/puzzle.html or $(OUT)/meshes/*/level.html to play)"

# Verify and solve every shipped puzzle; a table on the terminal, solutions as text.
demo-puzzles: $(STAMP)
	mkdir -p $(OUT)
	$(NONOGEN) verify samples/puzzles --solutions-dir $(OUT)/solutions --force --json > $(OUT)/verify.jsonl \
		|| [ $$? -eq 1 ]  # 1 = some puzzle is not unique: two samples are unsolvable on purpose
	$(NONOGEN) verify samples/puzzles || [ $$? -eq 1 ]
	$(UNTIME) $(OUT)/verify.jsonl

demo-images: $(STAMP)
	$(NONOGEN) image samples/images/nikoichu_Boardgames_Card_Attack_Sword.png -o $(OUT)/images/sword --force
	$(NONOGEN) image samples/images/nikoichu_Boardgames_Card_Attack_Sword.png -o $(OUT)/images/sword-givens --unique givens --force
	$(NONOGEN) image samples/images/nikoichu_Food_Mushroom.png -o $(OUT)/images/mushroom --colors 2 --force
	$(NONOGEN) image samples/images/tango_emotes-face-smile.png -o $(OUT)/images/smile --colors 3 --force
	$(NONOGEN) image samples/images/heart-pixelart-x10.png -o $(OUT)/images/heart --colors 3 --force
	$(NONOGEN) image samples/images/cat-x6.gif -o $(OUT)/images/cat --force
	$(NONOGEN) image samples/images/rocket-on-sky-x8.png -o $(OUT)/images/rocket --colors 4 --force
	$(NONOGEN) image samples/images/sphere-soft-alpha.png -o $(OUT)/images/sphere --size 30x30 --colors 3 --force
	$(NONOGEN) image samples/images/landscape.jpg -o $(OUT)/images/landscape --width 30 --line-solvable --force
	$(NONOGEN) image samples/images/photo-rocket-launch.jpg -o $(OUT)/images/rocket-launch --line-solvable --force
	$(NONOGEN) image samples/images/icon-mail.png -o $(OUT)/images/mail --force
	$(NONOGEN) image samples/images/drawn-key.svg -o $(OUT)/images/key --force
	$(NONOGEN) image samples/images/flat-fish.png -o $(OUT)/images/fish-grade2 --grade 2 --width 30 --force
	$(UNTIME) $(OUT)/images

demo-meshes: $(STAMP)
	$(NONOGEN) mesh samples/meshes/rocket.stl -o $(OUT)/meshes/rocket --force
	$(NONOGEN) mesh samples/meshes/mushroom.ply -o $(OUT)/meshes/mushroom --force
	$(NONOGEN) mesh samples/meshes/chair.off -o $(OUT)/meshes/chair --force
	$(NONOGEN) mesh samples/meshes/mug.glb -o $(OUT)/meshes/mug --size 12 --force
	$(NONOGEN) mesh samples/meshes/snowman.obj -o $(OUT)/meshes/snowman --line-solvable --force
	$(NONOGEN) mesh samples/meshes/dog.stl -o $(OUT)/meshes/dog --size 14 --method surface --force
	$(UNTIME) $(OUT)/meshes

demo-packing: $(STAMP)
	$(NONOGEN) pack generate --size 11x5 --pieces 12 --distinct --seed 1 -o $(OUT)/packing/level-11x5 --force
	$(NONOGEN) pack generate --classic --seed 1 -o $(OUT)/packing/classic --force
	$(NONOGEN) pack verify samples/packing/classic-challenge.pack samples/packing/random-11x5.pack samples/packing/random-10x10.pack
	$(NONOGEN) pack count samples/packing/starter-placed.pack
	$(NONOGEN) pack solve samples/packing/classic-challenge.pack --svg $(OUT)/packing/classic-challenge-solution.svg --png $(OUT)/packing/classic-challenge-solution.png --force

# A puzzle book of the demo's pictures and levels, sorted by grade, answers at the back.
demo-book: demo-images demo-meshes
	RL_invariant=1 $(NONOGEN) book $(OUT)/images/*/puzzle.json $(OUT)/meshes/*/level.json -o $(OUT)/book.pdf \
		--title "nonogen: the demo puzzles" --force

# Headless Chromium for the browser tests (tests/test_play_browser.py and others), poppler's pdftoppm/pdftotext
# for tests/test_print.py (PDF pages read back as pixels and text), and Simon Tatham's Pattern with Xvfb for
# tests/test_scan_others.py (its window's screenshot scanned back); those tests skip without them. apt-get
# installs them only when asked: ALLOW_APT=1, as root (.ci/run asks, on its fresh machine). They bring about 120
# packages and may upgrade some installed ones, so the count is said before anything is installed.
BROWSER_PACKAGES := chromium chromium-driver poppler-utils sgt-puzzles xvfb
CHROMIUM     ?= /usr/bin/chromium
CHROMEDRIVER ?= /usr/bin/chromedriver
PATTERN      ?= /usr/games/sgt-pattern
browser-deps:
	@if [ ! -x $(CHROMIUM) ] || [ ! -x $(CHROMEDRIVER) ] || ! command -v pdftoppm >/dev/null \
		|| [ ! -x $(PATTERN) ] || ! command -v Xvfb >/dev/null; then \
		if [ "$(ALLOW_APT)" = 1 ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && plan=$$(apt-get install -s $(BROWSER_PACKAGES)) && \
			echo "ALLOW_APT=1: apt-get installs $(BROWSER_PACKAGES): $$(echo "$$plan" | grep -c '^Inst') packages" \
				"with their dependencies, $$(echo "$$plan" | grep -c '^Inst .*\[') of them upgrades of installed ones" && \
			apt-get install -y -q $(BROWSER_PACKAGES) \
				|| echo "could not install $(BROWSER_PACKAGES): browser, print and Pattern-scan tests will skip"; \
		else \
			echo "browser, print and Pattern-scan tests will skip: $(BROWSER_PACKAGES) are not all installed."; \
			echo "  As root, 'make test ALLOW_APT=1' installs them with apt-get (about 120 packages with their"; \
			echo "  dependencies; it says how many first), or: sudo apt-get install $(BROWSER_PACKAGES)"; \
		fi; \
	fi

# The house rules ruff can check and the types (pyproject.toml's [tool.ruff] and [tool.mypy]) before the suite:
# a second or two (mypy's first run, with an empty .mypy_cache, about ten). The suite runs in TEST_WORKERS
# processes, a file's tests in one of them (its module fixtures are made once); then the tests marked `alone`, which
# need a process with no thread but its main one (an xdist worker has its own), in a plain pytest.
TEST_WORKERS ?= 2
test: $(STAMP) browser-deps
	$(PY) -m ruff check nonogen scripts tests
	$(PY) -m mypy nonogen
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not alone"
	$(PY) -m pytest -m alone

# The documentation site (docs/, Sphinx + MyST + sphinx-gallery) into docs/_build/html, warnings as errors.
# Built from scratch every time: the gallery's examples run again, so every picture is today's output.
docs: $(STAMP)
	rm -rf docs/_build docs/gallery docs/_play docs/examples/out docs/sg_execution_times.rst
	$(PY) -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo "the site is in docs/_build/html (open docs/_build/html/index.html)"

# Hostile-input campaign over every reader (default 20,000 cases; FUZZ_ARGS="--cases 500" for a short one).
fuzz: $(STAMP)
	$(PY) scripts/fuzz.py $(FUZZ_ARGS)

# Each capability has its own benchmark script; every one prints a table and a baseline comparison (all thirteen,
# scripts/README.md). What a bench needs from outside the repository (../shared/data, the scraped webpbn set, the
# peers scripts/build_peers.py builds) it skips with one line when absent, and the rest still runs.
bench: $(STAMP)
	$(PY) scripts/bench_verify.py
	$(PY) scripts/bench_peers.py --skip-without-peers
	$(PY) scripts/bench_grade.py
	$(PY) scripts/bench_replay.py
	$(PY) scripts/bench_batch.py
	$(PY) scripts/bench_collection.py
	$(PY) scripts/bench_image.py
	$(PY) scripts/bench_picture_quality.py
	$(PY) scripts/bench_mesh.py
	$(PY) scripts/bench_mesh_default.py
	$(PY) scripts/bench_picross3d.py
	$(PY) scripts/bench_scale3d.py
	$(PY) scripts/bench_pack.py
	$(PY) scripts/bench_studio.py
	$(PY) scripts/bench_scan.py
	$(PY) scripts/bench_scan_photo.py
	$(PY) scripts/bench_scan_real.py
	$(PY) scripts/bench_studio_scan.py

clean:
	rm -rf $(VENV) build dist *.egg-info docs/_build docs/gallery docs/_play docs/examples/out
