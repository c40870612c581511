// The worker pool and the batcher in front of it: many items travel per task, results come back
// to the right callers, and the pool runs the real task files from workers/.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { privateKeyToAccount } from 'viem/accounts'
import { createBatcher } from '../../../engine/pool/batcher.js'
import { quoteCells } from '../../../workers/sig/signedQuoteCells.js'
import { createWorkerPool } from '../../../engine/pool/workerPool.js'
import { domain, quoteTypes, makeQuote, toJson, MAKER_KEY } from '../../workers/sig/fixtures.js'

test('items submitted together travel in batches no larger than maxBatch, each answer to its caller', async () => {
  const batches: number[][] = []
  const b = createBatcher<number, number>(
    async items => {
      batches.push(items)
      await new Promise(r => setTimeout(r, 5))
      return items.map(x => x * 2)
    },
    { maxBatch: 64, concurrency: 2 },
  )
  const results = await Promise.all(Array.from({ length: 300 }, (_, i) => b.submit(i)))
  assert.deepEqual(
    results,
    Array.from({ length: 300 }, (_, i) => i * 2),
  )
  assert.ok(batches.every(x => x.length <= 64))
  assert.ok(batches.length <= 6, `300 items in ${batches.length} batches`)
  assert.deepEqual(
    batches.flat(),
    Array.from({ length: 300 }, (_, i) => i),
  )
})

test('a failed batch rejects every item in it, and later batches still run', async () => {
  let calls = 0
  const b = createBatcher<number, number>(
    async items => {
      if (calls++ === 0) throw new Error('task failed')
      return items
    },
    { maxBatch: 8 },
  )
  const first = await Promise.allSettled([1, 2, 3].map(x => b.submit(x)))
  assert.ok(first.every(r => r.status === 'rejected'))
  assert.equal(await b.submit(5), 5)
})

test('the Piscina pool runs the signature task from workers/ on a thread, in batches', async () => {
  const pool = createWorkerPool(1)
  try {
    const account = privateKeyToAccount(MAKER_KEY)
    const items = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const q = makeQuote(account.address.toLowerCase() as `0x${string}`, { nonce: BigInt(i) })
        const signature = await account.signTypedData({
          domain: { ...domain, chainId: BigInt(domain.chainId) } as any,
          types: quoteTypes,
          primaryType: 'Quote',
          message: q as any,
        })
        return { quote: toJson(q), signature }
      }),
    )
    items[3] = { ...items[3]!, signature: items[4]!.signature } // a mismatched pair recovers someone else
    const batcher = createBatcher<(typeof items)[number], string | null>(
      batch => pool.run('sig/verifyQuotes', { domain, cells: quoteCells(batch) }),
      { maxBatch: 64 },
    )
    const out = await Promise.all(items.map(i => batcher.submit(i)))
    out.forEach((signer, i) =>
      i === 3
        ? assert.notEqual(signer, account.address.toLowerCase())
        : assert.equal(signer, account.address.toLowerCase()),
    )
  } finally {
    await pool.close()
  }
})
