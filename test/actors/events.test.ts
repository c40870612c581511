// The event bus: a subscriber that throws is a bug the bus reports, and never costs the others their event.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EventBus } from '../../actors/events.js'

type E = { type: 'a' | 'b'; n: number }

test('a subscriber that throws is told to onError with its event; the subscribers after it still get the event', () => {
  const told: [unknown, E][] = []
  const bus = new EventBus<E>((err, event) => told.push([err, event]))
  const got: number[] = []
  const boom = new Error('boom')
  bus.subscribe(e => got.push(e.n))
  bus.subscribe(() => {
    throw boom
  })
  bus.subscribe(e => got.push(e.n * 10))
  bus.publish({ type: 'a', n: 1 })
  bus.publish({ type: 'b', n: 2 })
  assert.deepEqual(got, [1, 10, 2, 20])
  assert.deepEqual(told, [
    [boom, { type: 'a', n: 1 }],
    [boom, { type: 'b', n: 2 }],
  ])
})

test('without onError a throwing subscriber still cannot break the publisher', () => {
  const bus = new EventBus<E>()
  let after = 0
  bus.subscribe(() => {
    throw new Error('boom')
  })
  bus.subscribe(() => {
    after++
  })
  assert.doesNotThrow(() => bus.publish({ type: 'a', n: 1 }))
  assert.equal(after, 1)
})
