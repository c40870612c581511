// TickBitmap.nextInitializedTickWithinOneWord against a slow reference: a linear scan of a sorted tick list.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  compress,
  nextInitializedTickWithinOneWord,
  position,
  type TickBitmapWords,
} from '../../../../workers/sor/v3/tickBitmap.js'

function bitmapOf(ticks: number[], tickSpacing: number): TickBitmapWords {
  const words: TickBitmapWords = {}
  for (const t of ticks) {
    const { wordPos, bitPos } = position(t / tickSpacing)
    words[wordPos] = (words[wordPos] ?? 0n) | (1n << BigInt(bitPos))
  }
  return words
}

/** The definition: the nearest initialized tick in the search direction, not leaving the word searched. */
function reference(
  ticks: number[],
  tick: number,
  tickSpacing: number,
  lte: boolean,
): { next: number; initialized: boolean } {
  const c = compress(tick, tickSpacing)
  if (lte) {
    const wordStart = (c >> 8) * 256
    for (let k = c; k >= wordStart; k--)
      if (ticks.includes(k * tickSpacing)) return { next: k * tickSpacing, initialized: true }
    return { next: wordStart * tickSpacing, initialized: false }
  }
  const wordEnd = ((c + 1) >> 8) * 256 + 255
  for (let k = c + 1; k <= wordEnd; k++)
    if (ticks.includes(k * tickSpacing)) return { next: k * tickSpacing, initialized: true }
  return { next: wordEnd * tickSpacing, initialized: false }
}

test('spec: lte = false returns the tick to the right when at an initialized tick', () => {
  const ticks = [-200, -55, -4, 70, 78, 84, 139, 240, 535]
  const bitmap = bitmapOf(ticks, 1)
  assert.deepEqual(nextInitializedTickWithinOneWord(bitmap, 78, 1, false), { next: 84, initialized: true })
  assert.deepEqual(nextInitializedTickWithinOneWord(bitmap, -55, 1, false), { next: -4, initialized: true })
  assert.deepEqual(nextInitializedTickWithinOneWord(bitmap, 255, 1, false), { next: 511, initialized: false })
  assert.deepEqual(nextInitializedTickWithinOneWord(bitmap, 78, 1, true), { next: 78, initialized: true })
  assert.deepEqual(nextInitializedTickWithinOneWord(bitmap, -257, 1, true), { next: -512, initialized: false })
})

test('property: equals the linear-scan reference, every spacing and direction', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(1, 10, 60, 200),
      fc.uniqueArray(fc.integer({ min: -1500, max: 1500 }), { maxLength: 40 }),
      fc.integer({ min: -1600, max: 1600 }),
      fc.boolean(),
      (tickSpacing, compressedTicks, compressedStart, lte) => {
        const ticks = compressedTicks.map(c => c * tickSpacing)
        const tick = compressedStart * tickSpacing + (compressedStart % 3) // also ticks between multiples of the spacing
        assert.deepEqual(
          nextInitializedTickWithinOneWord(bitmapOf(ticks, tickSpacing), tick, tickSpacing, lte),
          reference(ticks, tick, tickSpacing, lte),
        )
      },
    ),
    { seed: 4, numRuns: 400 },
  )
})
