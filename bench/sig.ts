// Signer recovery, measured three ways: viem (the reference), the native path on one thread, and
// batches of 64 through a real 2-thread Piscina pool. Run: node dist/bench/sig.js
// measureRecoveryCeiling() is exported for the relay bench: it is the per-core ceiling a relay can reach.
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { pathToFileURL } from 'node:url'
import { Bench } from 'tinybench'
import { Piscina } from 'piscina'
import { recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { domainSeparator } from '../workers/sig/quoteHash.js'
import { recoverQuoteSigner } from '../workers/sig/recoverQuoteSigner.js'
import { recoveryLibrary } from '../workers/sig/recover.js'
import { quoteTypes } from '../sdk/sign.js'
import type { Domain, QuoteJson, QuoteMessage } from '../workers/sig/types.js'
import type { SignedQuote } from '../workers/sig/signedQuoteCells.js'
import { quoteCells } from '../workers/sig/signedQuoteCells.js'

const BATCH = 64
const BATCHES_IN_FLIGHT = 8

const domain: Domain = {
  name: 'SpotRFQ',
  version: '1',
  chainId: 31337,
  verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
}
// the SDK's field order (the spec's): the incumbent library signs and recovers over the same types a maker uses
const types = quoteTypes

interface Fixture {
  message: QuoteMessage
  item: SignedQuote
}

/** BATCH distinct quotes from one maker, signed by viem. */
async function signedQuotes(): Promise<Fixture[]> {
  const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
  const out: Fixture[] = []
  for (let i = 0; i < BATCH; i++) {
    const message: QuoteMessage = {
      maker: account.address.toLowerCase() as `0x${string}`,
      taker: '0x0000000000000000000000000000000000000000',
      tokenIn: '0x1111111111111111111111111111111111111111',
      tokenOut: '0x2222222222222222222222222222222222222222',
      amountIn: 10n ** 18n,
      amountOut: 2_500_000_000n + BigInt(i),
      expiry: 1_900_000_000n,
      nonce: BigInt(i),
      deadline: 1_900_000_060n,
    }
    const signature = await account.signTypedData({
      domain: { ...domain, chainId: BigInt(domain.chainId) },
      types,
      primaryType: 'Quote',
      message,
    })
    const quote: QuoteJson = {
      maker: message.maker,
      taker: message.taker,
      tokenIn: message.tokenIn,
      tokenOut: message.tokenOut,
      amountIn: message.amountIn.toString(),
      amountOut: message.amountOut.toString(),
      expiry: Number(message.expiry),
      nonce: message.nonce.toString(),
      deadline: Number(message.deadline),
    }
    out.push({ message, item: { quote, signature } })
  }
  return out
}

/** Single-thread native recoveries per second (parse + hash + recover of a wire quote). */
export async function measureRecoveryCeiling({ timeMs = 1000 }: { timeMs?: number } = {}): Promise<number> {
  const fixtures = await signedQuotes()
  const sep = domainSeparator(domain)
  let i = 0
  const bench = new Bench({ time: timeMs })
  bench.add('native', () => {
    const f = fixtures[i++ % BATCH]!
    if (recoverQuoteSigner(sep, f.item.quote, f.item.signature) === null) throw new Error('recovery failed')
  })
  await bench.run()
  return throughputOf(bench, 'native')
}

async function main(): Promise<void> {
  const fixtures = await signedQuotes()
  const sep = domainSeparator(domain)
  const pool = new Piscina({
    filename: new URL('../workers/sig/verifyQuotes.task.js', import.meta.url).href,
    minThreads: 2,
    maxThreads: 2,
  })
  const batch = { domain, cells: quoteCells(fixtures.map(f => f.item)) } // as the relay sends a batch
  let i = 0
  const bench = new Bench({ time: 2000, warmup: true })
  bench
    .add('viem recoverTypedDataAddress', async () => {
      const f = fixtures[i++ % BATCH]!
      await recoverTypedDataAddress({
        domain: { ...domain, chainId: BigInt(domain.chainId) },
        types,
        primaryType: 'Quote',
        message: f.message,
        signature: f.item.signature as `0x${string}`,
      })
    })
    .add('native (secp256k1 + hash-wasm)', () => {
      const f = fixtures[i++ % BATCH]!
      recoverQuoteSigner(sep, f.item.quote, f.item.signature)
    })
    .add(`piscina 2 threads, ${BATCHES_IN_FLIGHT} x ${BATCH}-quote batches`, async () => {
      const results = await Promise.all(
        Array.from({ length: BATCHES_IN_FLIGHT }, () => pool.run(batch) as Promise<(string | null)[]>),
      )
      if (results.some(r => r.some(s => s === null))) throw new Error('recovery failed on the pool')
    })
  try {
    await bench.run()
  } finally {
    await pool.destroy()
  }
  const viem = throughputOf(bench, 'viem recoverTypedDataAddress')
  const native = throughputOf(bench, 'native (secp256k1 + hash-wasm)')
  const pooled =
    throughputOf(bench, `piscina 2 threads, ${BATCHES_IN_FLIGHT} x ${BATCH}-quote batches`) * BATCHES_IN_FLIGHT * BATCH
  console.table([
    {
      path: 'viem recoverTypedDataAddress, 1 thread',
      'recoveries/s': Math.round(viem),
      'us/recovery': +(1e6 / viem).toFixed(1),
    },
    {
      path: `native (${recoveryLibrary}) + hash-wasm, 1 thread`,
      'recoveries/s': Math.round(native),
      'us/recovery': +(1e6 / native).toFixed(1),
    },
    {
      path: `piscina 2 threads, batches of ${BATCH}`,
      'recoveries/s': Math.round(pooled),
      'us/recovery': +(1e6 / pooled).toFixed(1),
    },
  ])
}

function throughputOf(bench: Bench, name: string): number {
  const result = bench.getTask(name)?.result
  if (!result || !('throughput' in result))
    throw new Error(`bench task "${name}" did not complete: ${JSON.stringify(result)}`)
  return 1000 / result.period // runs / total time: the mean of per-sample rates would overweight fast samples
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  parseCli(
    'sig.js',
    benchUsage('sig', 'EIP-712 quote signer recovery: viem, native secp256k1, and the Piscina pool in batches.'),
    {},
  )
  await main()
}
