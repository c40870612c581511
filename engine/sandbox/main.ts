// `make sandbox`: start the local venue and print what a newcomer needs to try it. One sandbox per
// directory (a lock the OS releases when we die); anvil dies with us on every exit path (its guard,
// engine/devchain/anvil.ts); a start that cannot happen is one line (a bad variable: exit 2; a port in
// use or a sandbox already running: exit 1), with the stack only under DEBUG=1.
import { rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { stopStale } from '../store/embedded.js'
import { createLogger } from '../log.js'
import { loadConfig, ConfigError } from '../config.js'
import { repoRoot } from '../paths.js'
import { startSandbox } from './start.js'
import { sandboxBanner } from './banner.js'
import { parseCli } from '../ops/cli.js'
import { acquireInstanceLock, AlreadyRunning } from '../ops/instanceLock.js'
import { PortInUse } from '../front/uws.js'

const { values } = parseCli(
  'sandbox',
  `Usage: node dist/engine/sandbox/main.js [--dir DIR]   (or: make sandbox)

Starts a whole venue on this machine: anvil (port SANDBOX_RPC_PORT, default 8545), the SpotRFQ contract,
five test tokens, Uniswap V2/V3 and stable-swap pools with liquidity, funded accounts, the engine wired to
all of it, and a maker bot; then prints the walk-through (docs/sandbox.md). One sandbox per directory: a
second one exits with one line naming the first. Ctrl-C stops everything, the chain included.

Options:
  --dir DIR   where the sandbox keeps its state (default .data/sandbox); cli.js takes the same --dir`,
  {
    dir: { type: 'string' },
  },
)

async function main(): Promise<void> {
  const config = loadConfig()
  const dir = resolve(values.dir ?? join(repoRoot, '.data/sandbox'))
  // one sandbox per directory: a second one must not kill the first one's chain or database
  const lock = await acquireInstanceLock('sandbox', dir)
  const log = createLogger(config.LOG_LEVEL, 'sandbox', config.LOG_FORMAT)
  // The chain is new every run (same deterministic addresses), so its database must be too: old fills
  // would show in the league and the pool scan would resume past the new chain's blocks.
  const env = { ...process.env }
  if (!env.DATABASE_URL) {
    const dataDir = join(dir, 'db')
    await stopStale(join(dataDir, 'pg'))
    rmSync(dataDir, { recursive: true, force: true })
    env.DATA_DIR = dataDir
  }
  const sandbox = await startSandbox({ dir, rpcPort: config.SANDBOX_RPC_PORT, log, env })
  const { urls, venue } = sandbox
  lock.setPorts(
    Object.fromEntries(
      Object.entries({ api: urls.api, terminal: urls.terminal, relay: urls.relay, rpc: urls.rpc }).map(([k, u]) => [
        k,
        Number(new URL(u).port),
      ]),
    ),
  )
  writeFileSync(
    join(dir, 'sandbox.json'),
    JSON.stringify(
      { urls, chainId: venue.chainId, spotRfq: venue.spotRfq, accounts: venue.accounts, tokens: venue.tokens },
      null,
      2,
    ),
  )
  let stopping = false
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      if (stopping) return
      stopping = true
      sandbox
        .stop()
        .then(() => lock.release())
        .then(
          () => process.exit(0),
          (err: unknown) => {
            log.error({ err }, 'sandbox stop failed')
            process.exit(1)
          },
        )
    })
  }
  // last: whoever waits for the banner may signal at once, and the handlers must already be there
  process.stdout.write(sandboxBanner(sandbox, values.dir))
}

main().catch((err: unknown) => {
  const known = err instanceof ConfigError || err instanceof AlreadyRunning || err instanceof PortInUse
  console.error(
    known ? err.message : `sandbox failed to start: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
  )
  if (process.env.DEBUG === '1' && err instanceof Error) console.error(err.stack)
  process.exit(err instanceof ConfigError ? 2 : 1)
})
