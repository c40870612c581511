# Two commands on a fresh machine: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
NODE_MODULES_STAMP := node_modules/.installed

.PHONY: all install build run test bench ingest sandbox clean docs loadtest

all: build

# npm install follows the lock file; the stamp makes it run again only when the lock changes.
$(NODE_MODULES_STAMP): package.json package-lock.json
	@command -v node >/dev/null || { echo "Node.js 20+ is required"; exit 1; }
	npm install --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP)

build: $(NODE_MODULES_STAMP)
	npx tsc -p tsconfig.json

run: build
	node dist/engine/main.js

test: build
	node dist/test/run.js

bench: build
	node dist/bench/all.js

# the options-data ingestion as its own process (INGEST_SOURCE=deribit|replay|synthetic)
ingest: build
	node dist/engine/ingest/main.js

# a whole venue on this machine: anvil, SpotRFQ, tokens, AMM pools, the engine and a maker bot
sandbox: build
	node dist/engine/sandbox/main.js

clean:
	rm -rf dist .data

# regenerate docs/endpoints.md from the route tables (test/docs/truth.test.ts holds them equal)
docs: build
	node dist/engine/openapi/endpointsMarkdown.js

# load-test a running deployment's relay (see docs/benchmarks.md), e.g.
#   make loadtest ARGS="--relay ws://HOST:8080 --api http://HOST:3000 --key rfq_live_... --rate 2000 --seconds 30"
loadtest: build
	node dist/bench/loadtest.js $(ARGS)
