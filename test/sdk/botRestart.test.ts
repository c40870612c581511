// The example maker bot outlives a relay restart: a real engine process is stopped (SIGTERM, as a deploy
// would) and started again on the same ports; the bot process is still running during the outage, logs
// reconnecting and reconnected, and quotes an RFQ created after the restart. With a cap, it gives up and
// exits non-zero with one line.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDatabase } from '../helpers/db.js'
import { freePorts } from '../../engine/store/embedded.js'
import { repoRoot } from '../../engine/paths.js'
import { spawnEngine } from '../faults/process.js'
import { newAgent, post } from '../api/agentKit.js'
import { waitFor } from '../relay/helpers.js'

function startBot(args: string[]): { child: ChildProcess; out: () => string; exited: Promise<number> } {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env
  const child = spawn(process.execPath, [join(repoRoot, 'dist/examples/maker-bot.js'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', d => {
    out += d
  })
  child.stderr.on('data', d => {
    out += d
  })
  return { child, out: () => out, exited: new Promise(r => child.once('exit', c => r(c ?? 1))) }
}

test(
  'the maker bot keeps running through an engine restart and quotes a new RFQ after it',
  { timeout: 90_000 },
  async () => {
    const db = await testDatabase('b')
    const dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
    const [api, terminal, relay] = (await freePorts(3)).map(String) // distinct, all three held until known
    const ports = {
      API_PORT: api!,
      TERMINAL_PORT: terminal!,
      RELAY_PORT: relay!,
    }
    const env = { ...ports, DATA_DIR: dataDir, DATABASE_URL: db.url, PUBLIC_RATE_LIMIT_PER_MIN: '100000' }
    let engine = await spawnEngine(env)
    const bot = startBot([
      '--relay',
      engine.relayWs,
      '--key',
      `0x${randomBytes(32).toString('hex')}`,
      '--reconnect-initial-ms',
      '200',
    ])
    try {
      await waitFor(
        () => bot.out(),
        o => o.includes('quoting'),
        15_000,
      )
      assert.equal(await engine.term(), 0) // the relay goes away
      await waitFor(
        () => bot.out(),
        o => o.includes('reconnecting: attempt'),
        10_000,
      )
      await new Promise(r => setTimeout(r, 1500))
      assert.equal(bot.child.exitCode, null, 'the bot is still running during the outage')
      engine = await spawnEngine(env) // back, on the same ports
      await waitFor(
        () => bot.out(),
        o => o.includes('reconnected after'),
        30_000,
      )
      const agent = await newAgent(engine.api, ['taker'])
      const rfqId = (
        await post(
          engine.api,
          '/api/v1/agent/rfqs',
          { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000000', ttlSeconds: 300 },
          agent.headers,
        )
      ).body.rfqId
      const quotes = await waitFor(
        async () => ((await (await fetch(`${engine.relay}/quotes?rfqId=${rfqId}`)).json()) as { count: number }).count,
        n => n === 1,
        15_000,
      )
      assert.equal(quotes, 1, 'the bot quoted the RFQ created after the restart')
      // the bot logs on its own broadcast, which may reach it a moment after the quote is visible over REST
      await waitFor(
        () => bot.out(),
        o => o.includes(`${rfqId} quoted`),
        5_000,
      )
    } finally {
      bot.child.kill('SIGTERM')
      await bot.exited
      engine.child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
      await db.drop()
    }
  },
)

test(
  'with a reconnect cap, the bot gives up and exits non-zero with one line saying so',
  { timeout: 30_000 },
  async () => {
    const db = await testDatabase('b')
    const dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
    const engine = await spawnEngine({ DATA_DIR: dataDir, DATABASE_URL: db.url })
    const bot = startBot([
      '--relay',
      engine.relayWs,
      '--key',
      `0x${randomBytes(32).toString('hex')}`,
      '--reconnect-initial-ms',
      '50',
      '--max-reconnects',
      '3',
    ])
    try {
      await waitFor(
        () => bot.out(),
        o => o.includes('quoting'),
        15_000,
      )
      await engine.term()
      assert.equal(await bot.exited, 1)
      assert.match(bot.out(), /maker-bot: gave up after 3 reconnect attempts to ws:\/\/127\.0\.0\.1:\d+/)
    } finally {
      bot.child.kill('SIGKILL')
      rmSync(dataDir, { recursive: true, force: true })
      await db.drop()
    }
  },
)
