// The two lanes of worker threads (engine/pool/lanes.ts): a route search past its deadline is stopped, its thread
// really freed (not abandoned: it stops counting) and the next search behind it runs; and a quote batch never
// waits behind a route search, since the lanes share no thread. Both hold for the route lane in a process of its
// own (SOR_LANE=process, the default) and in the engine's process (thread).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { createLanes } from '../../../engine/pool/lanes.js'
import { createBatcher } from '../../../engine/pool/batcher.js'
import { quoteCells } from '../../../workers/sig/signedQuoteCells.js'
import { repoRoot } from '../../../engine/paths.js'
import { spinCounter, threadsSched } from './laneProbe.js'
import { domain, quoteTypes, makeQuote, toJson, MAKER_KEY } from '../../workers/sig/fixtures.js'

const SPIN = pathToFileURL(join(repoRoot, 'dist/test/engine/pool/spin.task.js')).href
const config = { POOL_THREADS: 1, POOL_TASKS_PER_THREAD: 4, SOR_THREADS: 1, SOR_THREAD_NICE: 10 }
const settle = () => new Promise(r => setTimeout(r, 150))
const LANES = ['process', 'thread'] as const

for (const lane of LANES)
  test(`${lane} lane: a route search past its deadline is stopped and its thread freed: the search queued behind it on the one thread runs`, async () => {
    const lanes = createLanes({ ...config, SOR_LANE: lane })
    try {
      const { counter, read } = spinCounter(lane)
      const deadline = new AbortController()
      const stuck = lanes.route.run(SPIN, { ms: 120_000, counter }, { signal: deadline.signal })
      const behind = lanes.route.run<{ ms: number }, string>(SPIN, { ms: 1 })
      // its deadline counts from when it runs: a route process (idle priority) may take a while to start on a busy machine
      while (read() === 0) await new Promise(r => setTimeout(r, 5))
      setTimeout(() => deadline.abort(), 300)
      await assert.rejects(stuck, (e: Error) => e.name === 'AbortError')
      assert.equal(
        await behind,
        'done',
        'one route thread, and the search behind the stuck one ran: its thread was freed',
      )
      const at = read()
      assert.ok(at > 0, 'the stuck search had been running')
      await settle()
      assert.equal(read(), at, 'and it runs no more: the thread was stopped, not abandoned')
    } finally {
      await Promise.all([lanes.sig.close(), lanes.route.close()])
    }
  })

for (const lane of LANES)
  test(`${lane} lane: a quote batch is verified while a route search holds the route thread: the lanes share no thread`, async () => {
    const lanes = createLanes({ ...config, SOR_LANE: lane })
    const stop = new AbortController()
    try {
      const { counter, read } = spinCounter(lane)
      const search = lanes.route
        .run(SPIN, { ms: 120_000, counter }, { signal: stop.signal })
        .catch((e: unknown) => (e as Error).name)
      while (read() === 0) await new Promise(r => setTimeout(r, 5)) // the search holds its thread
      const account = privateKeyToAccount(MAKER_KEY)
      const items = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const q = makeQuote(account.address.toLowerCase() as `0x${string}`, { nonce: BigInt(i) })
          const signature = await account.signTypedData({
            domain: { ...domain, chainId: BigInt(domain.chainId) },
            types: quoteTypes,
            primaryType: 'Quote',
            message: q,
          })
          return { quote: toJson(q), signature }
        }),
      )
      const batcher = createBatcher<(typeof items)[number], string | null>(
        batch => lanes.sig.run('sig/verifyQuotes', { domain, cells: quoteCells(batch) }),
        { maxBatch: 64 },
      )
      const signers = await Promise.all(items.map(i => batcher.submit(i)))
      assert.deepEqual(new Set(signers), new Set([account.address.toLowerCase()]))
      const at = read()
      await settle()
      assert.ok(read() > at, 'the route search was still running when the batch was verified')
      stop.abort()
      assert.equal(await search, 'AbortError')
    } finally {
      await Promise.all([lanes.sig.close(), lanes.route.close()])
    }
  })

test('thread lane: route threads run under SCHED_IDLE at their niceness, so a waking relay thread preempts a search at once', async () => {
  for (const policy of ['idle', 'normal'] as const) {
    const lanes = createLanes({ ...config, SOR_THREAD_POLICY: policy, SOR_LANE: 'thread' })
    try {
      await lanes.route.run(SPIN, { ms: 1 }) // the route thread has started and set its priority
      // a route thread an earlier lane terminated may stay in /proc a moment after its lane closed (seen once under
      // the whole suite's load): what counts is one thread at the lane's niceness once it is gone
      const atNice = () => threadsSched().filter(t => t.nice === config.SOR_THREAD_NICE)
      for (const until = Date.now() + 5000; atNice().length > 1 && Date.now() < until;)
        await new Promise(r => setTimeout(r, 20))
      const route = atNice()
      assert.equal(route.length, 1, 'one thread at the route lane niceness')
      assert.equal(route[0]!.policy, policy === 'idle' ? 5 : 0, `SOR_THREAD_POLICY=${policy}`)
      assert.ok(
        threadsSched().every(t => t.nice === config.SOR_THREAD_NICE || t.policy === 0),
        'no other thread changed',
      )
    } finally {
      await Promise.all([lanes.sig.close(), lanes.route.close()])
    }
  }
})
