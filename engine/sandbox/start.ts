// `make sandbox`: a whole venue on this machine. anvil (chain 31337) with SpotRFQ, test tokens,
// Uniswap V2/V3 pools and a StableSwap pool; the engine wired to it (RPC_URL, SPOT_RFQ_ADDRESS,
// token registry, route-finder protocols); a maker quoting every RFQ. The test suite starts the
// same thing in-process, so what a newcomer runs is what the end-to-end test proves.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from 'pino'
import { startAnvil, type Anvil } from '../devchain/anvil.js'
import { loadConfig } from '../config.js'
import { startEngine, type Engine } from '../app.js'
import { writeTokenList } from '../tokens/writeList.js'
import type { MakerClient } from '../../sdk/maker.js'
import { deployVenue, SANDBOX_TOKENS, type Venue } from './venue.js'
import { startSandboxMaker } from './maker.js'

export interface Sandbox {
  venue: Venue
  anvil: Anvil
  engine: Engine
  urls: { api: string; terminal: string; relay: string; relayWs: string; rpc: string }
  maker: MakerClient
  files: { addresses: string; protocols: string; tokens: string }
  /** reloads pool state from the chain (the route finder quotes what it last loaded) */
  refreshPools(): Promise<void>
  stop(): Promise<void>
}

export interface SandboxOptions {
  dir: string
  rpcPort?: number
  /** environment for the engine (ports, DATABASE_URL, LOG_LEVEL...) */
  env?: Record<string, string | undefined>
  log: Logger
  refreshEveryMs?: number
}

export async function startSandbox({
  dir,
  rpcPort = 0,
  env = process.env,
  log,
  refreshEveryMs = 15_000,
}: SandboxOptions): Promise<Sandbox> {
  mkdirSync(dir, { recursive: true })
  const anvil = await startAnvil({ chainId: 31337, port: rpcPort, args: ['--gas-limit', '1000000000'] })
  let engine: Engine | undefined
  let maker: MakerClient | undefined
  try {
    log.info({ rpc: anvil.rpcUrl }, 'anvil started; deploying the venue')
    const venue = await deployVenue(anvil.rpcUrl, { log: m => log.info(m) })
    const files = {
      addresses: join(dir, 'addresses.json'),
      protocols: join(dir, 'protocols.json'),
      tokens: join(dir, 'tokens.tokenlist.json'),
    }
    writeFileSync(files.addresses, JSON.stringify(venue, null, 2))
    // the venue's own tokens are the registry's list: one entry per symbol, each with pools on this chain
    writeTokenList(files.tokens, {
      name: 'RFQ engine sandbox',
      chainId: 31337,
      tokens: SANDBOX_TOKENS.map(t => ({
        address: venue.tokens[t.symbol]!.address,
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
      })),
    })
    writeFileSync(
      files.protocols,
      JSON.stringify(
        [
          { slug: 'uniswap-v2', name: 'Uniswap V2', poolType: 'v2', factoryAddress: venue.uniswapV2.factory },
          { slug: 'uniswap-v3', name: 'Uniswap V3', poolType: 'v3', factoryAddress: venue.uniswapV3.factory },
          {
            slug: 'stableswap',
            name: 'StableSwap',
            poolType: 'stable',
            factoryAddress: '0x0000000000000000000000000000000000000000',
            pools: Object.values(venue.stable.pools),
          },
        ],
        null,
        2,
      ),
    )

    const config = loadConfig({
      ...env,
      CHAIN_ID: '31337',
      RPC_URL: anvil.rpcUrl,
      SPOT_RFQ_ADDRESS: venue.spotRfq,
      SOR_PROTOCOLS_FILE: files.protocols,
      TOKENS_FILE: files.tokens,
    })
    engine = await startEngine(config, { log })

    const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST
    const urls = {
      api: `http://${host}:${engine.ports.api}`,
      terminal: `http://${host}:${engine.ports.terminal}`,
      relay: `http://${host}:${engine.ports.relay}`,
      relayWs: `ws://${host}:${engine.ports.relay}`,
      rpc: anvil.rpcUrl,
    }
    const post = async (path: string) => {
      const r = await fetch(`${urls.api}${path}`, { method: 'POST' })
      if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`)
      return r.json()
    }
    await post('/api/v1/sor/pools/scan')
    const refreshPools = async () => {
      await post('/api/v1/sor/pool-state/refresh')
    }
    await refreshPools()

    maker = await startSandboxMaker(venue, urls.relayWs, venue.accounts.maker.privateKey, 5n, (rfqId, ok, detail) =>
      log.info({ rfqId, ok, detail }, 'sandbox maker quote'),
    )
    const timer = setInterval(() => {
      refreshPools().catch((err: unknown) => log.warn({ err }, 'pool refresh failed'))
    }, refreshEveryMs)
    timer.unref()

    const running = { engine, maker }
    return {
      venue,
      anvil,
      engine,
      urls,
      maker,
      files,
      refreshPools,
      async stop() {
        clearInterval(timer)
        await running.maker.close().catch((err: unknown) => log.warn({ err }, 'sandbox maker did not close cleanly'))
        await running.engine.stop()
        await anvil.stop()
      },
    }
  } catch (e) {
    // undoing a failed start: its own error is the one to report, what the undoing meets is logged
    await maker?.close().catch((err: unknown) => log.warn({ err }, 'sandbox maker did not close cleanly'))
    await engine?.stop().catch((err: unknown) => log.warn({ err }, 'engine did not stop cleanly'))
    await anvil.stop()
    throw e
  }
}
