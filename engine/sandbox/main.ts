// `make sandbox`: start the local venue and print what a newcomer needs to try it.
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stopStale } from '../store/embedded.js'
import { createLogger } from '../log.js'
import { repoRoot } from '../paths.js'
import { startSandbox } from './start.js'
import { parseCli } from '../ops/cli.js'
import { acquireInstanceLock, AlreadyRunning } from '../ops/instanceLock.js'

parseCli('sandbox', `Usage: node dist/engine/sandbox/main.js   (or: make sandbox)

Starts a whole venue on this machine: anvil (port SANDBOX_RPC_PORT, default 8545), the SpotRFQ contract,
five test tokens, Uniswap V2/V3 and stable-swap pools with liquidity, funded accounts, the engine wired to
all of it, and a maker bot; then prints the walk-through (docs/sandbox.md). One sandbox per checkout: a
second one exits with one line naming the first. Ctrl-C stops everything.`, {})

const dir = join(repoRoot, '.data/sandbox')
// one sandbox per checkout: a second one must not kill the first one's chain or database
const lock = await acquireInstanceLock('sandbox', dir).catch(e => {
  if (e instanceof AlreadyRunning) { console.error(e.message); process.exit(1) }
  throw e
})
const log = createLogger(process.env.LOG_LEVEL ?? 'info', 'sandbox')
// The chain is new every run (same deterministic addresses), so its database must be too: old fills
// would show in the league and the pool scan would resume past the new chain's blocks.
const env = { ...process.env }
if (!env.DATABASE_URL) {
  const dataDir = join(dir, 'db')
  await stopStale(join(dataDir, 'pg'))
  rmSync(dataDir, { recursive: true, force: true })
  env.DATA_DIR = dataDir
}
const sandbox = await startSandbox({ dir, rpcPort: Number(process.env.SANDBOX_RPC_PORT ?? 8545), log, env })
const { urls, venue } = sandbox
lock.setPorts(Object.fromEntries(Object.entries({ api: urls.api, terminal: urls.terminal, relay: urls.relay, rpc: urls.rpc }).map(([k, u]) => [k, Number(new URL(u).port)])))
writeFileSync(join(dir, 'sandbox.json'), JSON.stringify({ urls, chainId: venue.chainId, spotRfq: venue.spotRfq, accounts: venue.accounts, tokens: venue.tokens }, null, 2))

const a = venue.accounts
process.stdout.write(`
Sandbox is up (chain 31337). Addresses: ${sandbox.files.addresses}

  api       ${urls.api}         (RFQs, agents, fills, route finder, league; /api/v1/openapi.json)
  terminal  ${urls.terminal}    (options market data)
  relay     ${urls.relayWs}     (WebSocket; REST on ${urls.relay})
  chain     ${urls.rpc}         (anvil, chain id 31337)
  SpotRFQ   ${venue.spotRfq}

Tokens: ${Object.entries(venue.tokens).map(([s, t]) => `${s} ${t.address} (${t.decimals} dp)`).join('\n        ')}

Accounts (anvil's public development keys; never use them elsewhere):
  maker  ${a.maker.address}  (the sandbox maker bot quotes with it)
  taker  ${a.taker.address}  key ${a.taker.privateKey}
  owner  ${a.agentOwner.address}  key ${a.agentOwner.privateKey}

Try it (in another terminal, from this folder):
  1. Register an agent (the owner signs; the agent's wallet is the taker):
       export KEY=$(node dist/engine/sandbox/cli.js register)
  2. Ask for a price on 1 WETH -> USDC:
       curl -s -X POST ${urls.api}/api/v1/agent/rfqs -H "Authorization: Bearer $KEY" \\
         -H 'content-type: application/json' -d '{"tokenIn":"WETH","tokenOut":"USDC","amountIn":"1000000000000000000"}'
  3. Watch the maker's quote arrive:  curl -s ${urls.relay}/quotes?rfqId=<rfqId>
  4. Fill the best quote on chain as the taker and record the fill:
       node dist/engine/sandbox/cli.js fill <rfqId>
  5. See it benchmarked and ranked:
       curl -s '${urls.api}/api/v1/rfq/performance?rfqId=<rfqId>'
       curl -s '${urls.api}/api/v1/league?role=taker'
       curl -s '${urls.api}/api/v1/league/activity?address=${a.taker.address}&role=taker'

Ctrl-C stops everything.
`)

let stopping = false
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return
    stopping = true
    sandbox.stop().then(() => process.exit(0), err => { log.error({ err }, 'sandbox stop failed'); process.exit(1) })
  })
}
