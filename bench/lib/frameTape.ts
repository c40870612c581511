// The relay bench's pre-signed quotes, held as one buffer of frames instead of an object and two strings each. The
// bench signs every quote before it measures (200,000+ of them), and held as strings they were a 400 MB heap in
// the load generator whose major GCs ran during the paced windows: a 17 ms step on the generator's own event loop
// and two busy marking threads on the engine's two cores, in the latency the bench reports. Bytes in a Buffer are
// never marked. A frame is sent as a text frame straight from its bytes; its key is made when it is sent.
import type { PresignedQuote } from './presign.js'

export interface Frames {
  readonly length: number
  /** entry i's frame: a view of the tape's bytes, not a copy */
  frame(i: number): Buffer
  /** `${rfqId}:${maker}`, as the broadcast of entry i is keyed back to its send time */
  key(i: number): string
}

export class FrameTape implements Frames {
  private readonly bytes: Buffer
  private readonly ends: Uint32Array
  /** the entry's rfqId and maker, as indexes into `ids` and `makers` (strings shared by many entries) */
  private readonly rfq: Uint32Array
  private readonly maker: Uint32Array
  private readonly ids: string[] = []
  private readonly makers: string[] = []

  constructor(quotes: readonly PresignedQuote[]) {
    let size = 0
    for (const q of quotes) size += Buffer.byteLength(q.frame)
    this.bytes = Buffer.allocUnsafeSlow(size)
    this.ends = new Uint32Array(quotes.length)
    this.rfq = new Uint32Array(quotes.length)
    this.maker = new Uint32Array(quotes.length)
    const idIndex = new Map<string, number>(),
      makerIndex = new Map<string, number>()
    const indexOf = (m: Map<string, number>, list: string[], s: string) => {
      let i = m.get(s)
      if (i === undefined) m.set(s, (i = list.push(s) - 1))
      return i
    }
    let at = 0
    quotes.forEach((q, i) => {
      at += this.bytes.write(q.frame, at)
      this.ends[i] = at
      this.rfq[i] = indexOf(idIndex, this.ids, q.rfqId)
      this.maker[i] = indexOf(makerIndex, this.makers, q.maker)
    })
  }

  get length(): number {
    return this.ends.length
  }

  frame(i: number): Buffer {
    return this.bytes.subarray(i ? this.ends[i - 1] : 0, this.ends[i])
  }

  key(i: number): string {
    return `${this.ids[this.rfq[i]!]}:${this.makers[this.maker[i]!]}`
  }

  /** entries [from, to) as a tape of their own, over the same bytes */
  range(from: number, to: number): Frames {
    const end = Math.min(to, this.length)
    return {
      length: Math.max(0, end - from),
      frame: i => this.frame(from + i),
      key: i => this.key(from + i),
    }
  }
}
