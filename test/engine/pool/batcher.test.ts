// The batcher behind signer recovery and the quote group commit: items of one turn travel together, at most
// maxBatch per trip and `concurrency` trips at once, each item answered with its own result, a failed trip
// failing only its own items; thousands waiting are taken in order.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createBatcher } from '../../../engine/pool/batcher.js'

test('thousands of items travel in order, maxBatch per trip, concurrency trips at once, each with its own answer', async () => {
  const trips: number[][] = []
  let inFlight = 0,
    most = 0
  const b = createBatcher<number, number>(
    async items => {
      trips.push(items)
      most = Math.max(most, ++inFlight)
      await new Promise(r => setTimeout(r, 1))
      inFlight--
      return items.map(x => x * 2)
    },
    { maxBatch: 64, concurrency: 3 },
  )
  const n = 10_000
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => b.submit(i)))
  assert.deepEqual(
    answers,
    Array.from({ length: n }, (_, i) => i * 2),
  )
  assert.deepEqual(
    trips.flat(),
    Array.from({ length: n }, (_, i) => i),
    'every item once, in the order submitted',
  )
  assert.ok(trips.every(t => t.length <= 64))
  assert.equal(most, 3)
  assert.equal(b.waiting, 0)
  assert.equal(b.stats.items, n)
})

test('a failed trip fails its own items only, and the batcher goes on', async () => {
  let trip = 0
  const b = createBatcher<number, number>(
    async items => {
      if (trip++ === 0) throw new Error('trip lost')
      return items
    },
    { maxBatch: 2, concurrency: 1 },
  )
  const results = await Promise.allSettled([1, 2, 3, 4].map(x => b.submit(x)))
  assert.deepEqual(
    results.map(r => r.status),
    ['rejected', 'rejected', 'fulfilled', 'fulfilled'],
  )
  assert.equal(await b.submit(5), 5)
})

test('an item whose trip has ended is let go while others still wait behind it', async () => {
  // the queue is not drained (one trip at a time, more waiting): the first trip's items must not stay reachable
  // through it, or each would live until the queue empties (and be copied into the old generation meanwhile)
  const { setFlagsFromString } = await import('node:v8')
  const { runInNewContext } = await import('node:vm')
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  let release!: () => void
  let trips = 0
  const b = createBatcher<{ n: number }, number>(
    async items => {
      if (++trips === 2) await new Promise<void>(r => (release = r)) // the second trip holds the queue up
      return items.map(x => x.n)
    },
    { maxBatch: 2, concurrency: 1 },
  )
  let first: WeakRef<{ n: number }>
  const firstDone = (() => {
    const item = { n: 1 }
    first = new WeakRef(item)
    return b.submit(item)
  })()
  const rest = [2, 3, 4, 5, 6].map(n => b.submit({ n }))
  assert.equal(await firstDone, 1)
  while (!release) await new Promise(r => setTimeout(r, 1)) // the second trip is on its way; items 5, 6 wait
  assert.ok(b.waiting > 0, 'items still waiting behind the held trip')
  await new Promise(r => setTimeout(r, 0))
  gc()
  assert.equal(first!.deref(), undefined, "the first trip's item is no longer held")
  release()
  assert.deepEqual(await Promise.all(rest), [2, 3, 4, 5, 6])
})

test('a queue that empties starts again at the front of the same arrays: later items travel right, none held after', async () => {
  const { setFlagsFromString } = await import('node:v8')
  const { runInNewContext } = await import('node:vm')
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const trips: number[][] = []
  const b = createBatcher<{ n: number }, number>(
    async items => {
      trips.push(items.map(x => x.n))
      return items.map(x => x.n * 10)
    },
    { maxBatch: 4, concurrency: 1 },
  )
  let first: WeakRef<{ n: number }>
  const round1 = (() => {
    const item = { n: 1 }
    first = new WeakRef(item)
    return Promise.all([b.submit(item), ...[2, 3, 4, 5, 6].map(n => b.submit({ n }))])
  })()
  assert.deepEqual(await round1, [10, 20, 30, 40, 50, 60])
  assert.equal(b.waiting, 0)
  // the queue is empty: the next items are written over the cells the first ones left
  assert.deepEqual(await Promise.all([7, 8, 9].map(n => b.submit({ n }))), [70, 80, 90])
  assert.deepEqual(trips, [
    [1, 2, 3, 4],
    [5, 6],
    [7, 8, 9],
  ])
  await new Promise(r => setTimeout(r, 0))
  gc()
  assert.equal(first!.deref(), undefined, 'an item of a trip that ended is not held by the reused arrays')
})

test("an Error as one item's outcome rejects that item alone: its batch-mates resolve with theirs", async () => {
  const b = createBatcher<number, number>(async items => items.map(n => (n % 2 ? new Error(`odd ${n}`) : n * 10)), {
    maxBatch: 8,
  })
  const settled = await Promise.allSettled([1, 2, 3, 4].map(n => b.submit(n)))
  assert.deepEqual(
    settled.map(s => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message)),
    ['odd 1', 20, 'odd 3', 40],
  )
  assert.equal(b.stats.batches, 1, 'one trip carried all four')
})

test("submitTo hands each item its outcome through its callback: its result, its own Error, or its trip's failure", async () => {
  let trip = 0
  const b = createBatcher<number, number>(
    async items => {
      // not an Error, as a careless runner might throw: the callbacks still get one
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      if (++trip === 2) throw 'the trip failed'
      return items.map(x => (x === 3 ? new Error('three refused') : x * 10))
    },
    { maxBatch: 4, concurrency: 1 },
  )
  const outcomes = new Map<number, number | Error>()
  const all = new Promise<void>(resolve => {
    for (let i = 0; i < 8; i++)
      b.submitTo(i, o => {
        outcomes.set(i, o)
        if (outcomes.size === 8) resolve()
      })
  })
  await all
  assert.deepEqual(
    [0, 1, 2, 3].map(i => outcomes.get(i)),
    [0, 10, 20, new Error('three refused')],
  )
  for (const i of [4, 5, 6, 7]) {
    const o = outcomes.get(i)
    assert.ok(o instanceof Error && o.message === 'the trip failed', `item ${i}: ${String(o)}`)
  }
})

test('a callback that throws costs its batch-mates nothing: each still gets its outcome', async () => {
  const b = createBatcher<number, number>(async items => items.map(x => x + 1), { maxBatch: 8 })
  const got: number[] = []
  for (let i = 0; i < 4; i++)
    b.submitTo(i, o => {
      got.push(o as number)
      if (i === 1) throw new Error('a bug in a callback') // rethrown once all have theirs: the trip's promise rejects
    })
  await b.flush() // settles the trips (their rejection handled here, else it is the process's unhandled rejection)
  assert.deepEqual(got, [1, 2, 3, 4])
})
