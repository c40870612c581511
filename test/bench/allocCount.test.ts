// The relay bench reads the main thread's heap from V8's record of its collections (bench/lib/allocCount.ts): the
// bytes allocated must match what a stretch of code is known to allocate, across many collections; the bytes promoted
// must follow what outlives the young generation, and nothing when nothing does; the line says it per quote.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { countAllocation, countHeap, gcLine, heapCountOf, type GcRecord } from '../../bench/lib/allocCount.js'

test('the allocation count matches what was allocated, across many scavenges', () => {
  const source = Buffer.alloc(10_000, 120) // its bytes live off the heap: only the strings below count
  let kept = ''
  const stop = countAllocation()
  for (let i = 0; i < 20_000; i++) {
    const s = source.toString('latin1') // a new flat string on the heap: 10,000 bytes and its header
    if (i % 1000 === 0) kept += s[i % 10] // each string dies young
  }
  const bytes = stop()
  const strings = 20_000 * 10_000
  assert.ok(kept.length === 20)
  assert.ok(bytes >= strings, `counted ${bytes} B, allocated at least ${strings} B`)
  assert.ok(bytes <= strings * 1.1, `counted ${bytes} B, allocated about ${strings} B`)
})

test('what dies young is scavenged and not promoted; what is kept is promoted', () => {
  const source = Buffer.alloc(1_000, 120)
  let stop = countHeap()
  for (let i = 0; i < 100_000; i++) source.toString('latin1') // 100 MB that dies at once
  const young = stop()
  assert.ok(young.scavenges >= 5, `${young.scavenges} scavenges over 100 MB`)
  assert.ok(young.scavengeUs > 0)
  assert.ok(young.promoted < 5e6, `promoted ${young.promoted} B of strings that all died young`)

  const kept: string[] = []
  stop = countHeap()
  for (let i = 0; i < 100_000; i++) kept.push(source.toString('latin1')) // 100 MB that stays
  const old = stop()
  assert.equal(kept.length, 100_000)
  assert.ok(old.promoted >= 60e6, `promoted ${old.promoted} B of 100 MB kept`)
  assert.ok(old.promoted <= old.allocated * 1.1, `promoted ${old.promoted} B, allocated ${old.allocated} B`)
})

/** one collection's record as GCProfiler gives it, with the used sizes that matter here */
function record(gcType: string, cost: number, before: Sizes, after: Sizes): GcRecord {
  const heap = (s: Sizes) => ({
    heapStatistics: { usedHeapSize: s.newSpace + s.old + s.large + s.newLarge },
    heapSpaceStatistics: [
      { spaceName: 'new_space', spaceUsedSize: s.newSpace },
      { spaceName: 'old_space', spaceUsedSize: s.old },
      { spaceName: 'large_object_space', spaceUsedSize: s.large },
      { spaceName: 'new_large_object_space', spaceUsedSize: s.newLarge },
    ],
  })
  return { gcType, cost, beforeGC: heap(before), afterGC: heap(after) }
}
type Sizes = { newSpace: number; old: number; large: number; newLarge: number }
/** a heap's used bytes by space: new, old, large objects, young large objects */
const sizes = (newSpace: number, old: number, large: number, newLarge: number): Sizes => ({
  newSpace,
  old,
  large,
  newLarge,
})

test('promotion is what the spaces outside the young generation gained at each scavenge, never below zero', () => {
  const count = heapCountOf(
    1_000,
    [
      // a scavenge: 8,000 young, 600 of it promoted to old space and a 400-byte young large object moved to large
      record('Scavenge', 1_500, sizes(8_000, 1_000, 0, 400), sizes(900, 1_600, 400, 0)),
      // the sweeper freed old space during this one: no negative promotion
      record('Scavenge', 2_500, sizes(7_000, 2_000, 400, 0), sizes(500, 1_800, 400, 0)),
      record('IncrementalMarking', 300, sizes(0, 2_700, 400, 0), sizes(0, 2_700, 400, 0)),
      record('MarkSweepCompact', 9_000, sizes(100, 2_700, 400, 0), sizes(0, 1_000, 0, 0)),
    ],
    1_500,
  )
  assert.deepEqual(count, {
    // (9,400 - 1,000) + (9,400 - 2,900) + (3,100 - 2,700) + (3,200 - 3,100) + (1,500 - 1,000)
    allocated: 8_400 + 6_500 + 400 + 100 + 500,
    promoted: 1_000,
    scavenges: 2,
    scavengeUs: 4_000,
    majors: 1,
    majorUs: 9_300,
  })
  assert.equal(
    gcLine(count, 200),
    'main-thread GC per accepted quote: promoted 5.0 B, scavenges 20 µs, mark-compacts 47 µs ' +
      '(2 scavenges, 1 mark-compacts in the throughput phase)',
  )
})
