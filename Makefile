# Two commands on a fresh machine: `make run` and `make test`. Everything else is a step of those.
# `make help` lists every target.
SHELL := /bin/bash
NODE_MODULES_STAMP := node_modules/.installed
LINT_MODULES_STAMP := lint/node_modules/.installed

.PHONY: all help install build run test lint lint-rules format bench loadtest ingest sandbox cluster archive docs clean

all: build

help: ## list every target with one line each
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## (.*)/  make \1\t\2/' | expand -t 20

# npm ci installs exactly the lock file (never rewriting it); the stamp makes it run again only when it changes.
$(NODE_MODULES_STAMP): package.json package-lock.json
	@command -v node >/dev/null || { echo "Node.js 20+ is required"; exit 1; }
	npm ci --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP) ## install the npm dependencies from the lock file (npm ci)

build: $(NODE_MODULES_STAMP) ## compile TypeScript to dist/ (tsc), the web console to dist/web/ (esbuild), signer recovery on libsecp256k1
	npx tsc -p tsconfig.json
	npx tsc -p web/tsconfig.json
	node dist/engine/console/build.js
	@bash engine/ops/native-build.sh

run: build ## start every surface (embedded PostgreSQL unless DATABASE_URL is set)
	node dist/engine/main.js

test: build ## run every test against real PostgreSQL, anvil, nats-server, Chromium and WebSockets
	@bash engine/ops/test-servers.sh
	node dist/test/run.js

# The linter has its own lock file in lint/: typescript-eslint loads TypeScript's JavaScript API, which ends at 6.0
# (its peer range), while the build compiles with TypeScript 7. Same stamp rule as the engine's node_modules.
$(LINT_MODULES_STAMP): lint/package.json lint/package-lock.json
	npm ci --prefix lint --no-audit --no-fund
	@touch $(LINT_MODULES_STAMP)

# The fast step CI runs before the heavy suites: the rules, then the formatter's check. lint-rules alone checks
# code before the tree is formatted.
lint-rules: $(NODE_MODULES_STAMP) $(LINT_MODULES_STAMP) ## the type-aware rules alone (typescript-eslint: promises, switches, any, ...)
	lint/node_modules/.bin/eslint -c lint/eslint.config.js --max-warnings 0 .

lint: lint-rules ## lint-rules, then prettier's check (120 columns, the house's style)
	npx prettier --check --log-level warn '**/*.{ts,tsx}'

format: $(NODE_MODULES_STAMP) ## format every TypeScript file in place (prettier, 120 columns, the house's style)
	npx prettier --write --log-level warn '**/*.{ts,tsx}'

bench: build ## run every bench (node dist/bench/all.js [name ...])
	node dist/bench/all.js

# e.g. make loadtest ARGS="--relay ws://HOST:8080 --api http://HOST:3000 --key rfq_live_... --rate 2000 --seconds 30"
loadtest: build ## load-test a running deployment's relay (ARGS="--help" for its options)
	node dist/bench/loadtest.js $(ARGS)

ingest: build ## run the options-data ingestion (INGEST_SOURCE=deribit|replay|synthetic)
	node dist/engine/ingest/main.js

sandbox: build ## a whole venue on this machine: anvil, SpotRFQ, tokens, AMM pools, the engine, a maker bot
	node dist/engine/sandbox/main.js

cluster: build ## a cluster on this machine: nats-server, PostgreSQL and 3 engine nodes (ARGS="--help" for its options)
	node dist/engine/devcluster/devCluster.js $(ARGS)

# e.g. make archive ARGS="list", ARGS="restore quotes_p20260101" (docs/operations.md#quote-archives)
archive: build ## list quote archives, export a day's partition, or restore one into a side table (ARGS="--help")
	node dist/engine/store/archive/cli.js $(ARGS)

docs: build ## regenerate docs/endpoints.md from the route tables, and the console's size in the docs from the build's
	node dist/engine/openapi/endpointsMarkdown.js
	node dist/engine/console/sizeDocs.js

clean: ## remove dist/ and .data/
	rm -rf dist .data
