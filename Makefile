VENV := .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False

.PHONY: demo test bench clean

$(VENV)/.installed: pyproject.toml integrations/llama-index-retrievers-bcg/pyproject.toml integrations/llama-index-memory-bcg/pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	# torch first and pinned: a CPU wheel on disk; an unpinned torch pulls GBs of CUDA.
	$(PY) -m pip install -q torch==2.13.0
	# Everything else in one resolver run.
	$(PY) -m pip install -q -e '.[embeddings,llama-index,dev]' \
		-e integrations/llama-index-retrievers-bcg \
		-e integrations/llama-index-memory-bcg
	touch $@

demo: $(VENV)/.installed
	bash scripts/demo.sh

test: $(VENV)/.installed
	$(PY) -m pytest -q

bench: $(VENV)/.installed
	$(PY) -m pytest -q -m slow -p no:randomly tests/bench

clean:
	rm -rf $(VENV)
