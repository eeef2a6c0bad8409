# The README's two commands: `make run` and `make test`.  Both set everything up first.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup system run test lint bench clean train-dice train-dice-folds train-whistle train-whistle-cnn

setup: system $(STAMP)

system:
	@bash scripts/system-packages.sh

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

run: setup
	$(BIN)/bellwether run

lint: setup
	$(BIN)/ruff check companion hardware ui calibration cli tests benchmarks

test: setup lint
	$(BIN)/python -m pytest -q

bench: setup
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# The dice reader's networks (docs/dice.md): needs the train extra (torch CPU, onnx) and ../shared/data.
# train-dice rebuilds the shipped weights; train-dice-folds the benchmark's leave-one-group-out folds.
DICE_FOLDS := benchmarks/out/dice-folds
DICE_GROUPS := webcam-train fisheye-tray white-paper iphone-table hex-trays synthetic
# Session 21, second step: a style-randomised classifier (S) beside the first, averaged (faces_extra), then tuned again.
DICE_PAIR := --face-name dice_faces_s.onnx --face-style both --face-style-share 0.5 --seed 16

train-dice: setup
	$(BIN)/python -m pip install --quiet -e '.[train]'
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/dice_train.py --out hardware/dice/weights
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/dice_train.py --out hardware/dice/weights $(DICE_PAIR)
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/dice_train.py --out hardware/dice/weights --tune-only --read-time

train-dice-folds: setup
	$(BIN)/python -m pip install --quiet -e '.[train]'
	@for g in $(DICE_GROUPS); do \
		OMP_NUM_THREADS=1 $(BIN)/python benchmarks/dice_train.py --hold-out $$g --out $(DICE_FOLDS)/$$g && \
		OMP_NUM_THREADS=1 $(BIN)/python benchmarks/dice_train.py --hold-out $$g --out $(DICE_FOLDS)/$$g $(DICE_PAIR) && \
		OMP_NUM_THREADS=1 $(BIN)/python benchmarks/dice_train.py --hold-out $$g --out $(DICE_FOLDS)/$$g --tune-only || exit 1; done
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/dice_train.py --within --out $(DICE_FOLDS)/within
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/dice_train.py --within --out $(DICE_FOLDS)/within $(DICE_PAIR)
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/dice_train.py --within --out $(DICE_FOLDS)/within --tune-only

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache

# The whistle verifiers (docs/whistle.md): numpy only, need ../shared/data.  Rebuilds (seeded) the cascade's
# hardware/whistle/weights/whistle_verifier.npz (recipe session8) and the combined
# detector's whistle_verifier_combined.npz (recipe session9; byte for byte on session 9's machine; the session8
# file, built in session 8, did not rebuild byte for byte there: docs/whistle.md), and session 15's 4-frame
# whistle_verifier_combined_h4.npz (recipe session9 on a 4-frame patch, --detector combined-short).
train-whistle: setup
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/whistle_train.py --out hardware/whistle/weights/whistle_verifier.npz
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/whistle_train.py --recipe session9 --out hardware/whistle/weights/whistle_verifier_combined.npz
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/whistle_train.py --recipe session9 --history 4 --out hardware/whistle/weights/whistle_verifier_combined_h4.npz

# The cascade's CNN verifier (docs/whistle-cnn.md): needs the train extra (torch CPU, onnx) and ../shared/data.
# Rebuilds hardware/whistle/weights/whistle_cnn.onnx and its .json (seeded, one thread; the shipped pair
# comes from the training items of commit 6cc04cc, before session 7: see docs/whistle-cnn.md).
train-whistle-cnn: setup
	$(BIN)/python -m pip install --quiet -e '.[train]'
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/whistle_cnn_train.py --out hardware/whistle/weights/whistle_cnn.onnx
