// The per-wallet cap on active RFQs. The book counts live RFQs; creations still on their way into
// the book are counted here, so a burst of creates cannot all pass the check before any lands.
import type { RfqDirectory } from '../../actors/rfqTypes.js'
import { Errors } from '../front/errors.js'

export interface ActiveCap {
  /** reserves a slot of a creator (an agent id) or throws 429 `Too many active RFQs` with activeCount; release once created (or failed) */
  reserve(creator: string): () => void
}

export function activeCap(book: Pick<RfqDirectory, 'activeCount'>, max: number): ActiveCap {
  const pending = new Map<string, number>()
  return {
    reserve(taker) {   // `taker`: the creator key the book counts by
      const inFlight = pending.get(taker) ?? 0
      const activeCount = book.activeCount(taker) + inFlight
      if (activeCount >= max) throw Errors.tooManyRequests('Too many active RFQs', 1, { activeCount })
      pending.set(taker, inFlight + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        const n = (pending.get(taker) ?? 1) - 1
        if (n > 0) pending.set(taker, n)
        else pending.delete(taker)
      }
    },
  }
}
