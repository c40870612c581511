// A batch posted to a thread is built on packedBlanks: it must be a dense array to V8's serializer (written element by
// element; a holey one is written key by key), of the size asked, blank, and a fresh array each time.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { serialize } from 'node:v8'
import { packedBlanks } from '../../../workers/values/packedBlanks.js'

/** the tag V8's serializer writes after its two header bytes: 'A' for a dense array, 'a' for a sparse one */
const arrayTag = (a: unknown[]) => String.fromCharCode(serialize(a)[2]!)

test('packedBlanks: dense to the serializer where new Array(n) is not, blank, and never shared', () => {
  const holey = new Array<string>(4)
  holey.fill('')
  assert.equal(arrayTag(holey), 'a') // what the batches were before: a filled `new Array(n)` is still sparse to it
  const a: (string | number)[] = packedBlanks(40)
  assert.equal(a.length, 40)
  assert.equal(a.filter(x => x !== '').length, 0)
  a[0] = 'written'
  a[39] = 7
  assert.equal(arrayTag(a), 'A')
  const b = packedBlanks(3) // smaller after larger, then larger again: each its own array, blank
  assert.deepEqual(b, ['', '', ''])
  assert.equal(arrayTag(b), 'A')
  const c = packedBlanks(64)
  assert.equal(c.length, 64)
  assert.equal(c.filter(x => x !== '').length, 0)
  assert.equal(arrayTag(c), 'A')
})
