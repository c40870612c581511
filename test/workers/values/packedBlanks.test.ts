// A batch posted to a thread is built on packedBlanks: it must be a dense array to V8's serializer (written element by
// element; a holey one is written key by key), of the size asked, blank, and a fresh array each time.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { serialize } from 'node:v8'
import { LentBlanks, packedBlanks } from '../../../workers/values/packedBlanks.js'

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

test('LentBlanks: an array given back is blanked and lent again for its size, still dense; past its limits, let go', () => {
  const lent = new LentBlanks(10, 2)
  const a = lent.take(4)
  assert.ok(a.length === 4 && a.filter(c => c !== '').length === 0)
  a[0] = '0xmaker'
  a[3] = 1234
  lent.give(a)
  assert.deepEqual(a, ['', '', '', ''], 'blank while it waits: it holds none of its batch')
  assert.equal(lent.take(4), a, 'the same array again for the same size')
  assert.notEqual(lent.take(4), a, 'not twice while it is out')
  const b = lent.take(3)
  assert.equal(b.length, 3, 'each size its own')
  b[1] = 'x'
  assert.equal(arrayTag(b), 'A')
  // at most two kept a size: a third given back is let go
  const [x, y, z] = [lent.take(5), lent.take(5), lent.take(5)]
  for (const c of [x, y, z]) lent.give(c)
  const again = [lent.take(5), lent.take(5)]
  assert.ok(again.includes(x) && again.includes(y), 'the two kept are lent again')
  const fresh = lent.take(5)
  assert.ok(fresh !== x && fresh !== y && fresh !== z, 'the third was not kept')
  // larger than the largest kept: a new array every time
  const big = lent.take(11)
  lent.give(big)
  assert.notEqual(lent.take(11), big)
})
