// The contract proved in a second language: examples/python-maker (Debian's python3 with websockets, ecdsa and
// pycryptodome) reads GET /asyncapi.json, hashes EIP-712 from it alone, and quotes a real engine's RFQ until its
// quote is broadcast, with a verifyingContract and chain of this test's choosing (nothing it could have guessed).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { privateKeyToAccount } from 'viem/accounts'
import { repoRoot } from '../../engine/paths.js'
import { startTestEngine } from '../helpers/engine.js'
import { Client, createRfq, waitFor } from '../relay/helpers.js'
import { tempTokenList } from '../helpers/tokenList.js'

const PACKAGES = 'python3-websockets python3-ecdsa python3-pycryptodome'

/** PYTHON3_BIN, else Debian's /usr/bin/python3 (the python3 on PATH may be another build without Debian's modules). */
function findPython(): string {
  const py = process.env.PYTHON3_BIN || '/usr/bin/python3'
  if (!existsSync(py))
    throw new Error(`no Debian python3 at ${py}: apt-get install python3 ${PACKAGES} (or set PYTHON3_BIN)`)
  const r = spawnSync(py, ['-c', 'import websockets, ecdsa; from Cryptodome.Hash import keccak'], { encoding: 'utf8' })
  if (r.status !== 0)
    throw new Error(`${py} lacks the maker's modules: apt-get install ${PACKAGES} (or set PYTHON3_BIN)`)
  return py
}

test(
  'the Python maker quotes a real engine from the AsyncAPI document until its quote is broadcast',
  { timeout: 120_000 },
  async () => {
    const python = findPython()
    const t = await startTestEngine({
      RATE_LIMIT_PER_MIN: '100000',
      SPOT_RFQ_ADDRESS: `0x${randomBytes(20).toString('hex')}`,
      CHAIN_ID: '999',
      // no list ships for chain 999: the engine refuses to start without one (docs/tokens.md)
      TOKENS_FILE: tempTokenList(999, [
        { address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 },
        { address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC', name: 'USD Coin', decimals: 6 },
      ]),
    })
    const key = `0x${randomBytes(32).toString('hex')}` as const
    const address = privateKeyToAccount(key).address.toLowerCase()
    const { NODE_TEST_CONTEXT: _, ...env } = process.env
    const child = spawn(python, [join(repoRoot, 'examples/python-maker/maker.py')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...env,
        PYTHONDONTWRITEBYTECODE: '1',
        RELAY_URL: t.relayWs,
        MAKER_PRIVATE_KEY: key,
        PRICE_NUM: '2500',
        PRICE_DEN: '1000000000000',
        SPREAD_BPS: '10',
      },
    })
    let out = ''
    child.stdout.on('data', d => {
      out += d
    })
    child.stderr.on('data', d => {
      out += d
    })
    try {
      await waitFor(
        () => out,
        o => o.includes('quoting under') || child.exitCode !== null,
        30_000,
      )
      assert.match(out, new RegExp(`maker ${address} quoting under SpotRFQ on chain 999`), out)
      const watcher = await Client.open(t.relayWs)
      const exactIn = await createRfq(t)
      const exactOut = await createRfq(t, { kind: 1, amountIn: null, amountOut: 5_000_000n })
      for (const rfq of [exactIn, exactOut]) {
        const b = await watcher.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id, 20_000)
        assert.equal(b.data.quote.maker, address)
        await waitFor(
          () => out,
          o => o.includes(`${rfq.id} quoted ${b.data.quote.amountOut}`),
          10_000,
        )
      }
      const quoteOf = (id: string) => watcher.of('QUOTE_BROADCAST').find(f => f.data.rfqId === id)!.data.quote
      assert.equal(quoteOf(exactIn.id).amountOut, String((10n ** 18n * 2500n * 9990n) / (10n ** 12n * 10_000n)))
      assert.equal(
        quoteOf(exactOut.id).amountIn,
        String((5_000_000n * 10n ** 12n * 10_010n + 2500n * 10_000n - 1n) / (2500n * 10_000n)),
      )
      assert.doesNotMatch(out, /refused|fault/)
      await watcher.close()
    } finally {
      child.kill('SIGTERM')
      await t.stop()
    }
  },
)

test("without Debian's modules it fails with one line naming the packages to install", () => {
  // -S: no site directories, so none of Debian's dist-packages: the interpreter of a machine that lacks them
  const r = spawnSync(findPython(), ['-S', join(repoRoot, 'examples/python-maker/maker.py')], {
    encoding: 'utf8',
    env: { ...process.env, MAKER_PRIVATE_KEY: '0x01' },
  })
  assert.equal(r.status, 2, r.stdout + r.stderr)
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
  assert.match(
    r.stderr,
    /^python-maker: \w+ is missing: apt-get install python3-websockets python3-ecdsa python3-pycryptodome/,
  )
})
