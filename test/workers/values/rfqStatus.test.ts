// The one lifetime rule (workers/values/rfqStatus.ts): open is OPEN or QUOTED; live is open and before its own expiry
// by Node's clock. The store's SQL compares `expiry > toUnixSeconds(nowMs)`: the same rule, to the millisecond.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  RFQ_STATUSES,
  OPEN_STATUSES,
  hasExpired,
  isLive,
  isOpen,
  toUnixSeconds,
} from '../../../workers/values/index.js'

test('open is OPEN or QUOTED; every other status is how an RFQ ended', () => {
  assert.deepEqual(RFQ_STATUSES.filter(isOpen), [...OPEN_STATUSES])
  assert.deepEqual(
    RFQ_STATUSES.filter(s => !isOpen(s)),
    ['FILLED', 'CANCELLED', 'EXPIRED'],
  )
  assert.equal(isOpen('ENDED'), false)
})

test("an RFQ has expired from its expiry second on, by Node's clock", () => {
  assert.equal(hasExpired(100, 99_999), false)
  assert.equal(hasExpired(100, 100_000), true)
  assert.equal(isLive('QUOTED', 100, 99_999), true)
  assert.equal(isLive('FILLED', 100, 0), false)
})

test('the SQL form (expiry > unix seconds of now) is the same rule at every millisecond', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 2 ** 40 }),
      fc.integer({ min: 0, max: 2 ** 40 }),
      (expiry, nowMs) => expiry > toUnixSeconds(nowMs) === !hasExpired(expiry, nowMs),
    ),
  )
})
