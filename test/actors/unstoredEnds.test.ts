// UnstoredEnds keeps the ends a refusing store could not take and offers them again until it takes them: a stream of
// new ends never postpones the next offer, and every end is stored once the store answers.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ActorSystem } from '../../actors/mailbox.js'
import { UnstoredEnds, type UnstoredEnd } from '../../actors/unstoredEnds.js'

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

test('ends offered while the store refuses are stored once it answers, each once, with no offer postponed by new ends', async () => {
  let down = true
  const offers: string[][] = [],
    stored = new Map<string, Date>()
  const ends = new UnstoredEnds(new ActorSystem(), {
    retryMs: 20,
    storeEnds: async (batch: readonly UnstoredEnd[]) => {
      offers.push(batch.map(e => e.rfqId))
      if (down) throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' })
      for (const e of batch) if (!stored.has(e.rfqId)) stored.set(e.rfqId, e.at)
    },
  })
  for (let i = 0; i < 30; i++) {
    ends.add({ rfqId: `rfq_${i}`, at: new Date(i * 1000) })
    await sleep(5)
  } // one every 5 ms
  assert.ok(offers.length >= 2, `offered while ends kept coming (a new end never resets the pause): ${offers.length}`)
  assert.equal(ends.waiting, 30)
  down = false
  for (let i = 0; i < 100 && ends.waiting > 0; i++) await sleep(10)
  assert.equal(ends.waiting, 0)
  assert.equal(ends.healed, 30)
  assert.deepEqual([...stored.keys()].sort(), Array.from({ length: 30 }, (_, i) => `rfq_${i}`).sort())
  assert.equal(stored.get('rfq_7')!.getTime(), 7000, 'each end keeps its own time')
  const offersBefore = offers.length
  await sleep(100)
  assert.equal(offers.length, offersBefore, 'nothing left: no more offers')
})

test('flush at shutdown, after the actors stopped, writes what is left; it answers false while the store refuses', async () => {
  let down = true
  const system = new ActorSystem()
  const written: string[] = []
  const ends = new UnstoredEnds(system, {
    retryMs: 60_000,
    storeEnds: async batch => {
      if (down) throw new Error('down')
      written.push(...batch.map(e => e.rfqId))
    },
  })
  ends.add({ rfqId: 'rfq_a', at: new Date() })
  await sleep(10)
  await system.drain(100) // the engine's stop drains and stops every actor first
  assert.equal(await ends.flush(1000), false)
  down = false
  assert.equal(await ends.flush(1000), true)
  assert.deepEqual(written, ['rfq_a'])
  assert.equal(ends.waiting, 0)
})
