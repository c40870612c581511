import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { lowerHex } from '../../../workers/values/index.js'

test('lowerHex is toLowerCase for any ASCII text, a signature sliced from a frame as the relay reads it included', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[\x20-\x7e]*$/), s => {
      assert.equal(lowerHex(s), s.toLowerCase())
    }),
    { numRuns: 500 },
  )
  const signature = `0x${'ab'.repeat(64)}1b`
  const sliced = JSON.stringify({ signature }).slice(14, 14 + signature.length) // as the relay reads it from a frame
  assert.equal(sliced, signature)
  assert.equal(lowerHex(sliced), signature)
  assert.equal(lowerHex('0xABCDEF'), '0xabcdef')
  assert.equal(lowerHex('0XAB'), '0xab')
})
