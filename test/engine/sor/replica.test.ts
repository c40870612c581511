// A route thread's copy of the route graph (engine/sor/replica.ts) follows the engine's versions: a snapshot
// in parts (any order) rebuilds it, deltas apply in order, a gap asks for the whole graph, deltas that arrive
// during a snapshot wait for it, and a search waits until the copy is as new as it asked.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Replica } from '../../../engine/sor/replica.js'
import type { DeltaMessage, PoolEntry, SnapshotMessage } from '../../../engine/sor/graphMessages.js'
import { poolAddress, token, v2 } from '../../workers/sor/search/fixtures.js'

const [A, B, C] = [token(1), token(2), token(3)]
const entry = (n: number, reserve: bigint): PoolEntry => ({
  state: v2(poolAddress(n), n % 2 ? A : B, C, reserve, reserve),
  meta: { protocol: 'p', poolType: 'v2', fee: 3000 },
})
const snapshot = (version: number, part: number, parts: number, pools: PoolEntry[]): SnapshotMessage => ({
  type: 'snapshot',
  graph: 'g',
  version,
  part,
  parts,
  pools,
})
const delta = (from: number, set: PoolEntry[]): DeltaMessage => ({ type: 'delta', graph: 'g', from, to: from + 1, set })
const reserveOf = (r: Replica, n: number) =>
  (r.graph.state(poolAddress(n)) as { reserve0: bigint } | undefined)?.reserve0

test('a snapshot in parts, in any order, then deltas in order', () => {
  let asked = 0
  const r = new Replica(() => {
    asked++
  })
  r.receive(snapshot(3, 1, 2, [entry(2, 20n)]))
  assert.equal(r.version, -1, 'half a snapshot is no copy')
  r.receive(snapshot(3, 0, 2, [entry(1, 10n)]))
  assert.equal(r.version, 3)
  assert.equal(r.graph.poolCount, 2)
  r.receive(delta(3, [entry(1, 11n)]))
  r.receive(delta(4, [entry(3, 30n)]))
  assert.deepEqual([r.version, reserveOf(r, 1), reserveOf(r, 3), asked], [5, 11n, 30n, 0])
  r.receive(delta(4, [entry(1, 99n)])) // already applied: ignored
  assert.equal(reserveOf(r, 1), 11n)
})

test('a gap asks for the whole graph; what came meanwhile is applied after it', () => {
  let asked = 0
  const r = new Replica(() => {
    asked++
  })
  r.receive(snapshot(1, 0, 1, [entry(1, 10n)]))
  r.receive(delta(2, [entry(1, 12n)])) // 1 -> 2 was missed
  assert.deepEqual([r.version, asked, reserveOf(r, 1)], [1, 1, 10n])
  r.receive(snapshot(2, 0, 1, [entry(1, 11n)])) // the engine answers with version 2; the kept 2 -> 3 follows it
  assert.deepEqual([r.version, reserveOf(r, 1)], [3, 12n])
})

test('deltas during a snapshot wait for it; an older snapshot never replaces a newer copy', () => {
  const r = new Replica(() => {})
  r.receive(snapshot(5, 0, 2, [entry(1, 10n)]))
  r.receive(delta(5, [entry(2, 21n)]))
  r.receive(snapshot(5, 1, 2, [entry(2, 20n)]))
  assert.deepEqual([r.version, reserveOf(r, 2)], [6, 21n])
  r.receive(snapshot(4, 0, 1, [entry(9, 1n)]))
  assert.deepEqual([r.version, r.graph.has(poolAddress(9))], [6, false])
})

test('a search waits until the copy reaches the version it asked for', async () => {
  const r = new Replica(() => {})
  let reached = false
  const waiting = r.until(2).then(() => {
    reached = true
  })
  r.receive(snapshot(1, 0, 1, [entry(1, 10n)]))
  await new Promise(setImmediate)
  assert.equal(reached, false)
  r.receive(delta(1, [entry(1, 11n)]))
  await waiting
  assert.equal(reached, true)
  await r.until(1) // already there: at once
})
