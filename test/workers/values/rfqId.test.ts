// RFQ ids carry their creation's instant (workers/values/rfqId.ts): the store derives an RFQ's day partition from
// its id alone. The day is the UTC day of that instant to the millisecond, a legacy id's is 'unknown', and the
// random part keeps its 128 bits.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { randomBytes } from 'node:crypto'
import { rfqDayOf, rfqIdAt, rfqIdTime } from '../../../workers/values/index.js'
import { newRfqId } from '../../../engine/rfq/request.js'

test("an id's time and day are its creation's, to the millisecond, across midnight UTC", () => {
  const midnight = Date.UTC(2026, 10, 27)
  const hex = 'ab'.repeat(16)
  assert.equal(rfqDayOf(rfqIdAt(midnight - 1, hex)), '2026-11-26') // 23:59:59.999
  assert.equal(rfqDayOf(rfqIdAt(midnight, hex)), '2026-11-27')
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), at => {
      const id = rfqIdAt(at, hex)
      return rfqIdTime(id) === at && rfqDayOf(id) === new Date(at).toISOString().slice(0, 10)
    }),
  )
})

test('a legacy id (no time) reads as an unknown day; nothing else passes for a timed id', () => {
  for (const id of ['rfq_' + randomBytes(16).toString('hex'), 'rfq_late', 'rfq_' + 'A'.repeat(44), '', 'x'])
    assert.deepEqual([rfqDayOf(id), rfqIdTime(id)], ['unknown', undefined], id)
})

test('an id whose time is past year 9999 names no day: it reads as unknown, and none is made', () => {
  const zeros = '0'.repeat(32)
  assert.equal(rfqDayOf(rfqIdAt(253_402_300_799_999, zeros)), '9999-12-31')
  for (const time of ['e677d21fdc00', 'ffffffffffff'])
    assert.deepEqual([rfqDayOf(`rfq_${time}${zeros}`), rfqIdTime(`rfq_${time}${zeros}`)], ['unknown', undefined], time)
  assert.throws(() => rfqIdAt(253_402_300_800_000, zeros))
})

test('new ids keep 128 random bits: two made in the same millisecond differ', () => {
  const at = Date.now()
  const ids = new Set(Array.from({ length: 1000 }, () => newRfqId(at)))
  assert.equal(ids.size, 1000)
  for (const id of ids) assert.match(id, /^rfq_[0-9a-f]{44}$/)
  assert.throws(() => rfqIdAt(at, 'short'))
})
