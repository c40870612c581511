// A port of Uniswap/v3-core contracts/libraries/TickBitmap.sol (the read side). Ticks are int24, so JS numbers
// hold them exactly; `/` and `%` keep Solidity's truncation towards zero via Math.trunc and JS's signed %.
import { MAX_UINT256 } from './evm.js'
import { leastSignificantBit, mostSignificantBit } from './bitMath.js'

/** The loaded words of a pool's tickBitmap: wordPos as a decimal string -> the 256-bit word. */
export type TickBitmapWords = Record<string, bigint>

export interface NextTick {
  next: number
  initialized: boolean
}

/** TickBitmap.position: the word (int16) and bit (uint8) of a compressed tick. */
export function position(tick: number): { wordPos: number; bitPos: number } {
  return { wordPos: tick >> 8, bitPos: tick & 0xff } // uint8(tick % 256) of a negative tick is its two's-complement low byte
}

/** The compressed tick (tick / tickSpacing, rounded towards negative infinity) as nextInitializedTickWithinOneWord computes it. */
export function compress(tick: number, tickSpacing: number): number {
  let compressed = Math.trunc(tick / tickSpacing)
  if (tick < 0 && tick % tickSpacing !== 0) compressed-- // round towards negative infinity
  return compressed
}

/** The word nextInitializedTickWithinOneWord will read for this search: a swap loop checks it against the loaded range. */
export function wordToRead(tick: number, tickSpacing: number, lte: boolean): number {
  const compressed = compress(tick, tickSpacing)
  return position(lte ? compressed : compressed + 1).wordPos
}

/**
 * TickBitmap.nextInitializedTickWithinOneWord: the next initialized tick in the same word as the current tick,
 * to the left (lte) or right; if none, the word's last tick in that direction, not initialized.
 */
export function nextInitializedTickWithinOneWord(
  self: TickBitmapWords,
  tick: number,
  tickSpacing: number,
  lte: boolean,
): NextTick {
  const compressed = compress(tick, tickSpacing)

  if (lte) {
    const { wordPos, bitPos } = position(compressed)
    // all the 1s at or to the right of the current bitPos
    const mask = (1n << BigInt(bitPos)) - 1n + (1n << BigInt(bitPos))
    const masked = (self[wordPos] ?? 0n) & mask

    // if there are no initialized ticks to the right of or at the current tick, return rightmost in the word
    const initialized = masked !== 0n
    // overflow/underflow is possible, but prevented externally by limiting both tickSpacing and tick
    const next = initialized
      ? (compressed - (bitPos - mostSignificantBit(masked))) * tickSpacing
      : (compressed - bitPos) * tickSpacing
    return { next, initialized }
  } else {
    // start from the word of the next tick, since the current tick state doesn't matter
    const { wordPos, bitPos } = position(compressed + 1)
    // all the 1s at or to the left of the bitPos
    const mask = ~((1n << BigInt(bitPos)) - 1n) & MAX_UINT256
    const masked = (self[wordPos] ?? 0n) & mask

    // if there are no initialized ticks to the left of the current tick, return leftmost in the word
    const initialized = masked !== 0n
    // overflow/underflow is possible, but prevented externally by limiting both tickSpacing and tick
    const next = initialized
      ? (compressed + 1 + (leastSignificantBit(masked) - bitPos)) * tickSpacing
      : (compressed + 1 + (255 - bitPos)) * tickSpacing
    return { next, initialized }
  }
}

/** The word positions that hold every tick a pool of this spacing can initialise (MIN_TICK..MAX_TICK). */
export function fullWordRange(tickSpacing: number): [number, number] {
  return [position(compress(-887272, tickSpacing)).wordPos, position(compress(887272, tickSpacing)).wordPos]
}
