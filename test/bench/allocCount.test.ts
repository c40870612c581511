// The relay bench counts the main thread's allocation from V8's record of its collections (bench/lib/allocCount.ts):
// the count must match what a stretch of code is known to allocate, across many collections.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { countAllocation } from '../../bench/lib/allocCount.js'

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
