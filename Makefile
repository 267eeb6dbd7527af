# Project tasks. The venv is (re)built only when pyproject.toml changes.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

PYTHON_BOOT := $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.stamp
TORCH_PIN := torch==2.13.0

.PHONY: venv test lint demo fuzz bench bench-check bench-detail bench-long loadtest mutate golden compiled compiled-check compiled-clean strength train-shipped train-values clean

venv: $(STAMP)

# torch goes in first and alone: pip finds the pinned 2.13.0 CPU wheel on disk
# (find-links); an unpinned torch would pull GBs of CUDA packages.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON_BOOT) -m venv $(VENV)
	$(PIP) install --upgrade pip
	$(PIP) install $(TORCH_PIN)
	$(PIP) install -e '.[dev,ray]'
	touch $(STAMP)

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -n 2

lint: $(STAMP)
	$(VENV)/bin/ruff check .

demo: $(STAMP)
	$(PY) -m evaluation.demo

# Every game's fuzz plan (its ruleset's GameSpec: games, option sets, record round trips), then random positions.
fuzz: $(STAMP)
	$(PY) -m evaluation.fuzz
	$(PY) -m evaluation.position_fuzz --positions 5000

# Engines, Gym and AEC envs against OpenSpiel (chess, backgammon, connect_four) and PettingZoo
# connect_four_v3 in one run: CPU time, interleaved rounds, median [range], ratios. OpenSpiel is the
# `bench` extra (pip install -e '.[bench]'); without it the bench skips those references and says so.
# BASE=/path/to/an/older/tree measures it beside this one (before/after in one run).
bench: $(STAMP)
	$(PY) -m evaluation.speed $(if $(BASE),--base $(BASE))

# Fails when an engine's ratio to OpenSpiel chess falls > 15% below evaluation/bench_ratios.json.
bench-check: $(STAMP)
	$(PY) -m evaluation.speed --check

# The long sections: MCTS simulations/s and ms per decision, fof train steps/s, fof loadtest.
bench-long: $(STAMP)
	$(PY) -m evaluation.speed --section search train loadtest --rounds 4 $(if $(BASE),--base $(BASE))

# Per-game detail: validated and unchecked apply, median game, Gym per side, the bots' ms per decision.
bench-detail: $(STAMP)
	$(PY) -m evaluation.bench

# 50 concurrent games with bots against a local fof serve: p50/p99 latency of play and bot moves.
loadtest: $(STAMP)
	$(VENV)/bin/fof loadtest --games 50 --duration 30

# Mutation testing of the rules packages (about 15 minutes on 2 cores): 40 sampled mutants per
# package plus the curated ones; prints the score per package and the survivors (docs/mutation.md).
mutate: $(STAMP)
	$(PY) -m evaluation.mutation

# Every golden game (tests/golden) replayed and compared: a restructuring must leave them identical.
golden: $(STAMP)
	$(PY) -m evaluation.golden --check

# The optional compiled build of the engines and bots (fof_env, agents): Cython compiles the same
# modules (fof_env/compiled.py), and a module edited since runs from its source
# (fof_env/compiled_guard.py); FOF_COMPILED=0 turns it off. compiled-check replays every golden
# suite on the build; compiled-clean removes it.
compiled: $(STAMP)
	$(PIP) install -e '.[dev,ray,compiled]'
	$(PY) -m fof_env.compiled build --package fof_env --package agents

compiled-check: $(STAMP)
	$(PY) -m fof_env.compiled status --require
	$(PY) -m evaluation.golden --check

compiled-clean: $(STAMP)
	$(PY) -m fof_env.compiled clean

# The strength bars of the shipped models (400 games per ordered pairing, so per side; evaluation/bars.py
# says per side whether the model meets them), then one
# ladder per game: every agent on one Bradley-Terry scale (evaluation/ladder.py), with the search
# games per side of docs/ladders.md (6, and 2 where a search game takes minutes). About 3 hours on the
# first 2-core machines; the six ladders took 28 minutes on the idle AVX-512 machine of issue 14's end.
strength: $(STAMP)
	$(VENV)/bin/fof evaluate --game strike_force_one --agents random heuristic ppo --games 400 --workers 2 --seed 7 --out reports/strength-strike_force_one --no-records
	$(PY) -m evaluation.bars reports/strength-strike_force_one
	$(VENV)/bin/fof evaluate --game lost_and_found --agents random heuristic ppo --games 400 --workers 2 --seed 7 --out reports/strength-lost_and_found --no-records
	$(PY) -m evaluation.bars reports/strength-lost_and_found
	$(VENV)/bin/fof evaluate --game fubar_village_patrol --agents random heuristic ppo --games 400 --workers 2 --seed 7 --out reports/strength-fubar_village_patrol --no-records
	$(PY) -m evaluation.bars reports/strength-fubar_village_patrol
	$(VENV)/bin/fof evaluate --game fubar_lost_and_found --agents random heuristic ppo --games 400 --workers 2 --seed 7 --out reports/strength-fubar_lost_and_found --no-records
	$(PY) -m evaluation.bars reports/strength-fubar_lost_and_found
	$(VENV)/bin/fof evaluate --game compound_raid --agents random heuristic ppo --games 400 --workers 2 --seed 7 --out reports/strength-compound_raid --no-records
	$(PY) -m evaluation.bars reports/strength-compound_raid
	$(VENV)/bin/fof evaluate --game wwii_hedgerow_hamlet --agents random heuristic ppo --games 400 --workers 2 --seed 7 --out reports/strength-wwii_hedgerow_hamlet --no-records
	$(PY) -m evaluation.bars reports/strength-wwii_hedgerow_hamlet
	$(PY) -m evaluation.bars --markdown $(addprefix reports/strength-,strike_force_one lost_and_found fubar_village_patrol fubar_lost_and_found compound_raid wwii_hedgerow_hamlet)
	for g in strike_force_one lost_and_found; do $(PY) -m evaluation.ladder --game $$g --games 100 --search-games 6 --workers 2 --seed 7 --out reports/ladders/$$g || exit 1; done
	for g in fubar_village_patrol compound_raid fubar_lost_and_found wwii_hedgerow_hamlet; do $(PY) -m evaluation.ladder --game $$g --games 100 --search-games 2 --workers 2 --seed 7 --out reports/ladders/$$g || exit 1; done

# Retrain the shipped models (each at most 30 minutes on 2 cores) and copy them into agents/models.
# Each card records the commands that made the shipped file (a run cut short and finished with
# --resume); with a constant learning rate these commands train the same steps with the same seeds.
# Seven were re-run to their shipped files bit for bit on one machine; fubar_village_patrol-patrol's
# was not. torch's float arithmetic follows the processor's instruction set, so these commands give the
# shipped files only on the kind of processor that trained them (docs/models.md, "How each model was made"; cards
# written since record it under "platform").
# $(call copy_shipped,MODEL): copy runs/shipped-MODEL's model and card into agents/models;
# $(call finish_shipped,MODEL): first finish the run from its best evaluated checkpoint.
define copy_model
cp $(1)/model.safetensors agents/models/$(2).safetensors
cp $(1)/model.json agents/models/$(2).json
endef
define copy_shipped
$(call copy_model,runs/shipped-$(1),$(1))
endef
define finish_shipped
$(VENV)/bin/fof train --resume runs/shipped-$(1) --best
$(call copy_shipped,$(1))
endef
# $(call plan_seed,GAME,SIDE,MODEL,RUN): measure MODEL's set-up book into runs/RUN-book and write its four
# plans beside a copy of it in runs/RUN-plans-seed, the learner set-up to train on (docs/fair_play.md)
define plan_seed
$(PY) -m training.setup_book --game $(1) --side $(2) --games 3000 --workers 1 --out runs/$(4)-book/book.setups.json
mkdir -p runs/$(4)-plans-seed
cp agents/models/$(3).safetensors runs/$(4)-plans-seed/model.safetensors
cp agents/models/$(3).json runs/$(4)-plans-seed/model.json
$(PY) -m training.setup_book --game $(1) --side $(2) --model runs/$(4)-plans-seed/model.safetensors --plans 4 --from runs/$(4)-book/book.setups.json
endef
train-shipped: $(STAMP)
	$(VENV)/bin/fof train --game lost_and_found --side taliban --steps 200000 --envs 1 --opponent heuristic --imitate heuristic --imitation-games 1500 --imitation-epochs 15 --net-arch 256 256 --learning-rate 2.5e-4 --ent-coef 0.005 --n-steps 2048 --batch-size 512 --n-epochs 10 --eval-every 50000 --checkpoint-every 50000 --learner-setup heuristic --out runs/shipped-lost_and_found-taliban
	$(call finish_shipped,lost_and_found-taliban)
	@# Fine-tuned from the model just copied, against random too (its card records both runs)
	$(VENV)/bin/fof train --game lost_and_found --side taliban --init ppo --steps 150000 --envs 1 --opponent heuristic random --opponent-weights 0.7 0.3 --eval-opponent heuristic random --net-arch 256 256 --learning-rate 1e-4 --ent-coef 0.005 --n-steps 2048 --batch-size 512 --n-epochs 10 --eval-every 50000 --checkpoint-every 50000 --eval-games 100 --final-eval-games 400 --learner-setup heuristic --no-progress --out runs/laf-taliban-random
	$(call copy_model,runs/laf-taliban-random,lost_and_found-taliban)
	@# Its set-up book: the hiding points measured to suit it (agents/setup_book.py), written beside it
	$(PY) -m training.setup_book --game lost_and_found --side taliban --games 4000 --workers 2
	@# Its four best whole set-ups by those rates (plans), and the model fine-tuned on them (docs/fair_play.md)
	mkdir -p runs/plans-seed
	cp agents/models/lost_and_found-taliban.safetensors runs/plans-seed/model.safetensors
	cp agents/models/lost_and_found-taliban.json runs/plans-seed/model.json
	$(PY) -m training.setup_book --game lost_and_found --side taliban --model runs/plans-seed/model.safetensors --plans 4 --from agents/models/lost_and_found-taliban.setups.json
	$(VENV)/bin/fof train --game lost_and_found --side taliban --steps 300000 --envs 1 --opponent heuristic random --opponent-weights 0.7 0.3 --eval-opponent heuristic random --net-arch 256 256 --learning-rate 1e-4 --ent-coef 0.005 --n-steps 2048 --batch-size 512 --n-epochs 10 --eval-every 50000 --checkpoint-every 50000 --eval-games 100 --final-eval-games 400 --learner-setup ppo:path=runs/plans-seed/model.safetensors,setup=book --no-progress --init ppo --out runs/laf-taliban-plans
	$(VENV)/bin/fof train --game lost_and_found --side taliban --envs 1 --opponent heuristic random --opponent-weights 0.7 0.3 --eval-opponent heuristic random --net-arch 256 256 --n-steps 2048 --batch-size 512 --n-epochs 10 --eval-every 200000 --checkpoint-every 200000 --eval-games 200 --final-eval-games 400 --learner-setup ppo:path=runs/plans-seed/model.safetensors,setup=book --no-progress --init runs/laf-taliban-plans/model.safetensors --steps 1200000 --learning-rate 1e-4 --ent-coef 0.005 --out runs/laf-taliban-plans2
	$(call copy_model,runs/laf-taliban-plans2,lost_and_found-taliban)
	$(PY) -m training.setup_book --game lost_and_found --side taliban --from runs/plans-seed/model.setups.json
	$(VENV)/bin/fof train --game strike_force_one --side soviet --steps 600000 --envs 1 --opponent heuristic random --opponent-weights 0.7 0.3 --imitate heuristic --imitation-games 2000 --imitation-epochs 15 --net-arch 256 256 --learning-rate 3e-4 --ent-coef 0.01 --n-steps 2048 --batch-size 256 --n-epochs 4 --eval-every 50000 --checkpoint-every 50000 --out runs/shipped-strike_force_one-soviet
	$(call finish_shipped,strike_force_one-soviet)
	@# Fine-tuned from the model just copied, against random as often as the heuristic
	$(VENV)/bin/fof train --game strike_force_one --side soviet --init ppo --steps 150000 --envs 1 --opponent heuristic random --opponent-weights 0.5 0.5 --eval-opponent heuristic random --net-arch 256 256 --learning-rate 1e-4 --ent-coef 0.01 --n-steps 2048 --batch-size 256 --n-epochs 4 --eval-every 50000 --checkpoint-every 50000 --eval-games 100 --final-eval-games 400 --no-progress --out runs/sfo-soviet-random
	$(call copy_model,runs/sfo-soviet-random,strike_force_one-soviet)
	$(VENV)/bin/fof train --game fubar_village_patrol --side patrol --imitate heuristic --imitation-games 800 --opponent heuristic random --opponent-weights 0.8 0.2 --steps 300000 --eval-every 100000 --eval-games 100 --final-eval-games 400 --out runs/shipped-fubar_village_patrol-patrol
	$(call finish_shipped,fubar_village_patrol-patrol)
	$(VENV)/bin/fof train --game fubar_lost_and_found --side taliban --imitate heuristic --imitation-games 800 --opponent heuristic random --opponent-weights 0.6 0.4 --eval-opponent heuristic random --seed 1 --steps 200000 --eval-every 100000 --eval-games 100 --final-eval-games 400 --learner-setup heuristic --out runs/shipped-fubar_lost_and_found-taliban
	$(call finish_shipped,fubar_lost_and_found-taliban)
	@# Its set-up book and four plans, and the model fine-tuned on them (docs/fair_play.md)
	$(call plan_seed,fubar_lost_and_found,taliban,fubar_lost_and_found-taliban,fubar)
	$(VENV)/bin/fof train --game fubar_lost_and_found --side taliban --init ppo --steps 600000 --envs 1 --opponent heuristic random --opponent-weights 0.6 0.4 --eval-opponent heuristic random --net-arch 128 128 --learning-rate 1e-4 --ent-coef 0.005 --n-steps 2048 --batch-size 512 --n-epochs 10 --eval-every 200000 --checkpoint-every 200000 --eval-games 200 --final-eval-games 400 --learner-setup ppo:path=runs/fubar-plans-seed/model.safetensors,setup=book --no-progress --out runs/fubar-taliban-plans
	$(VENV)/bin/fof train --game fubar_lost_and_found --side taliban --init runs/fubar-taliban-plans/model.safetensors --steps 600000 --envs 1 --opponent heuristic random --opponent-weights 0.6 0.4 --eval-opponent heuristic random --net-arch 128 128 --learning-rate 5e-5 --ent-coef 0.005 --n-steps 2048 --batch-size 512 --n-epochs 10 --eval-every 200000 --checkpoint-every 200000 --eval-games 200 --final-eval-games 400 --learner-setup ppo:path=runs/fubar-plans-seed/model.safetensors,setup=book --no-progress --out runs/fubar-taliban-plans2
	$(call copy_model,runs/fubar-taliban-plans2,fubar_lost_and_found-taliban)
	$(PY) -m training.setup_book --game fubar_lost_and_found --side taliban --from runs/fubar-plans-seed/model.setups.json
	@# The shipped run (sfo-us-f) was cut by a 30-minute timeout at 1.83M steps; --stop-at pauses this one
	@# at its best evaluated point, 1.4M, however fast the machine, and --best finishes from there
	$(VENV)/bin/fof train --game strike_force_one --side us --reward shaped --imitate heuristic --imitation-games 2000 --imitation-epochs 15 --opponent heuristic random --opponent-weights 0.7 0.3 --eval-opponent heuristic random --net-arch 256 256 --learning-rate 3e-4 --ent-coef 0.01 --steps 3000000 --stop-at 1400000 --eval-every 100000 --eval-games 100 --final-eval-games 400 --out runs/shipped-strike_force_one-us
	$(call finish_shipped,strike_force_one-us)
	$(VENV)/bin/fof train --game lost_and_found --side usmc --reward shaped --imitate heuristic --imitation-games 1500 --imitation-epochs 15 --opponent heuristic random --opponent-weights 0.6 0.4 --eval-opponent heuristic random --net-arch 128 128 --learning-rate 2.5e-4 --ent-coef 0.005 --gamma 0.995 --seed 2 --steps 800000 --eval-every 100000 --eval-games 100 --final-eval-games 400 --out runs/shipped-lost_and_found-usmc
	$(call finish_shipped,lost_and_found-usmc)
	@# The shipped run was cut by a 30-minute timeout after its 100k point. The anchor's weight decays
	@# over --steps, so --steps stays 400000 and --stop-at pauses the run at that step however fast the machine;
	@# --best then finishes from the best evaluated checkpoint (ckpt_0 in the card)
	$(VENV)/bin/fof train --game compound_raid --side british --imitate heuristic --imitation-games 2000 --imitation-epochs 20 --imitation-coef 1.0 --opponent heuristic random --opponent-weights 0.9 0.1 --learning-rate 0.0001 --clip-range 0.1 --ent-coef 0.003 --eval-opponent heuristic random --steps 400000 --stop-at 100000 --eval-every 50000 --eval-games 200 --final-eval-games 400 --seed 1 --out runs/shipped-compound_raid-british
	$(call finish_shipped,compound_raid-british)
	@# In the next four --steps ends the run at the last point its shipped run evaluated before it was
	@# cut (constant learning rates, so the same policies at the same steps); --best then finishes from
	@# its best evaluated checkpoint. All but the first of the next five ship short of a bar (README,
	@# "Pretrained bots").
	$(VENV)/bin/fof train --game fubar_village_patrol --side insurgents --imitate heuristic --imitation-games 800 --gamma 0.995 --critic-warmup 50000 --opponent heuristic random --opponent-weights 0.8 0.2 --eval-opponent heuristic random --steps 900000 --eval-every 50000 --eval-games 100 --final-eval-games 400 --workers 1 --out runs/shipped-fubar_village_patrol-insurgents
	$(call finish_shipped,fubar_village_patrol-insurgents)
	$(VENV)/bin/fof train --game fubar_lost_and_found --side usmc --imitate heuristic --imitation-games 800 --opponent heuristic random --opponent-weights 0.5 0.5 --eval-opponent heuristic random --steps 300000 --eval-every 100000 --eval-games 100 --final-eval-games 400 --out runs/shipped-fubar_lost_and_found-usmc
	$(call finish_shipped,fubar_lost_and_found-usmc)
	$(VENV)/bin/fof train --game compound_raid --side militia --imitate heuristic --imitation-games 1500 --reward shaped --opponent heuristic random --opponent-weights 0.5 0.5 --eval-opponent heuristic random --steps 100000 --eval-every 100000 --eval-games 100 --final-eval-games 400 --out runs/shipped-compound_raid-militia
	$(call finish_shipped,compound_raid-militia)
	@# Then trained on the VP margin (--reward margin; the fair bar compares margins where the heuristic militia win 1%)
	$(VENV)/bin/fof train --game compound_raid --side militia --init ppo --reward margin --steps 400000 --envs 1 --opponent heuristic random --opponent-weights 0.8 0.2 --eval-opponent heuristic random --learning-rate 1e-4 --ent-coef 0.005 --gamma 0.995 --eval-every 100000 --checkpoint-every 50000 --eval-games 100 --final-eval-games 400 --no-progress --out runs/cr-militia-margin
	$(VENV)/bin/fof train --game compound_raid --side militia --init runs/cr-militia-margin/model.safetensors --reward margin --steps 200000 --envs 1 --opponent heuristic random --opponent-weights 0.5 0.5 --eval-opponent heuristic random --learning-rate 1e-4 --ent-coef 0.005 --gamma 0.995 --eval-every 100000 --checkpoint-every 50000 --eval-games 100 --final-eval-games 400 --no-progress --out runs/cr-militia-margin2
	$(call copy_model,runs/cr-militia-margin2,compound_raid-militia)
	$(VENV)/bin/fof train --game wwii_hedgerow_hamlet --side ger --imitate heuristic --imitation-games 800 --opponent heuristic random --opponent-weights 0.8 0.2 --eval-opponent heuristic random --steps 75000 --eval-every 75000 --eval-games 100 --final-eval-games 400 --out runs/shipped-wwii_hedgerow_hamlet-ger
	$(call finish_shipped,wwii_hedgerow_hamlet-ger)
	@# Then fine-tuned from it on the heuristic's mixed set-ups (--learner-setup heuristic): 56.4% -> 62.1%
	$(VENV)/bin/fof train --game wwii_hedgerow_hamlet --side ger --init ppo --learner-setup heuristic --opponent heuristic random --opponent-weights 0.8 0.2 --eval-opponent heuristic random --learning-rate 5e-5 --ent-coef 0 --steps 150000 --eval-every 50000 --checkpoint-every 50000 --eval-games 100 --final-eval-games 400 --no-progress --out runs/hh-ger-mixed
	$(call copy_model,runs/hh-ger-mixed,wwii_hedgerow_hamlet-ger)
	@# Its set-up book and four plans, and the model fine-tuned on them (docs/fair_play.md)
	$(call plan_seed,wwii_hedgerow_hamlet,ger,wwii_hedgerow_hamlet-ger,hh)
	$(VENV)/bin/fof train --game wwii_hedgerow_hamlet --side ger --init ppo --steps 600000 --envs 1 --opponent heuristic random --opponent-weights 0.8 0.2 --eval-opponent heuristic random --net-arch 128 128 --learning-rate 1e-4 --ent-coef 0.005 --n-steps 2048 --batch-size 512 --n-epochs 10 --eval-every 200000 --checkpoint-every 200000 --eval-games 200 --final-eval-games 400 --learner-setup ppo:path=runs/hh-plans-seed/model.safetensors,setup=book --no-progress --out runs/hh-ger-plans
	$(call copy_model,runs/hh-ger-plans,wwii_hedgerow_hamlet-ger)
	$(PY) -m training.setup_book --game wwii_hedgerow_hamlet --side ger --from runs/hh-plans-seed/model.setups.json
	@# Imitation and three DAgger rounds, no PPO step (--steps 0): the model is the warm start
	$(VENV)/bin/fof train --game wwii_hedgerow_hamlet --side us --imitate heuristic --imitation-games 600 --imitation-epochs 10 --dagger-rounds 3 --net-arch 256 256 --opponent heuristic random --eval-opponent heuristic random --steps 0 --eval-games 50 --final-eval-games 400 --workers 2 --out runs/shipped-wwii_hedgerow_hamlet-us
	$(call copy_shipped,wwii_hedgerow_hamlet-us)
	$(PY) -m evaluation.curves

# The value nets shipped in agents/models/values (agents/value_net.py), each trained on game results by
# the command that wrote it (its card records the command and its held-out report; docs/search.md).
train-values: $(STAMP)
	$(PY) -m training.value_net --game strike_force_one --side us --games 3000 --seed 0 --out agents/models/values/strike_force_one-us.safetensors
	$(PY) -m training.value_net --game strike_force_one --side soviet --games 3000 --seed 0 --out agents/models/values/strike_force_one-soviet.safetensors
	$(PY) -m training.value_net --game lost_and_found --side taliban --games 3000 --seed 0 --out agents/models/values/lost_and_found-taliban.safetensors
	$(PY) -m training.value_net --game lost_and_found --side usmc --games 3000 --seed 0 --out agents/models/values/lost_and_found-usmc.safetensors
	$(PY) -m training.value_net --game fubar_village_patrol --side patrol --games 2000 --seed 0 --out agents/models/values/fubar_village_patrol-patrol.safetensors
	$(PY) -m training.value_net --game fubar_village_patrol --side insurgents --games 1000 --seed 0 --out agents/models/values/fubar_village_patrol-insurgents.safetensors
	$(PY) -m training.value_net --game fubar_lost_and_found --side taliban --games 2000 --seed 0 --out agents/models/values/fubar_lost_and_found-taliban.safetensors
	$(PY) -m training.value_net --game fubar_lost_and_found --side usmc --games 1000 --seed 0 --out agents/models/values/fubar_lost_and_found-usmc.safetensors
	$(PY) -m training.value_net --game wwii_hedgerow_hamlet --side ger --games 800 --seed 0 --out agents/models/values/wwii_hedgerow_hamlet-ger.safetensors
	$(PY) -m training.value_net --game wwii_hedgerow_hamlet --side us --games 800 --seed 0 --out agents/models/values/wwii_hedgerow_hamlet-us.safetensors

clean:
	rm -rf $(VENV)

# RLlib: `ray[rllib]` pins its own gymnasium (1.2.2 for ray 2.60), so it gets its own venv,
# which `make test` never needs. Runs tests/rllib/ (PPO with RLlib's action-masking RLModule,
# the README's RLlib recipe) and the env and integration tests under that gymnasium.
.PHONY: test-rllib
RLLIB_VENV := .venv-rllib
RLLIB_PY := $(RLLIB_VENV)/bin/python
RLLIB_STAMP := $(RLLIB_VENV)/.stamp
RAY_RLLIB_PIN := ray[rllib]==2.60.0

$(RLLIB_STAMP): pyproject.toml
	@test -x $(RLLIB_PY) || $(PYTHON_BOOT) -m venv $(RLLIB_VENV)
	$(RLLIB_VENV)/bin/pip install --upgrade pip
	$(RLLIB_VENV)/bin/pip install $(TORCH_PIN)
	$(RLLIB_VENV)/bin/pip install '$(RAY_RLLIB_PIN)'
	$(RLLIB_VENV)/bin/pip install -e '.[dev]' "gymnasium==$$($(RLLIB_PY) -c 'import gymnasium; print(gymnasium.__version__)')" $(TORCH_PIN)
	touch $(RLLIB_STAMP)

test-rllib: $(RLLIB_STAMP)
	FOF_RLLIB_TESTS=1 $(RLLIB_PY) -m pytest -p no:cacheprovider tests/rllib
	$(RLLIB_PY) -m pytest -n 2 -p no:cacheprovider tests/envs tests/integrations
