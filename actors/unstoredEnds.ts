// UnstoredEnds: RFQ ends the store could not take when they happened (the database was down). The RFQ has
// already ended for every reader of this node; this actor keeps its end and offers every end it holds to the
// store again, in one write, until the store takes them: the stored status heals without a restart. The store
// writes only rows still open, so an end another node (or the TTL cleanup) stored first is taken as done, and
// several nodes healing the same end after an outage store it once.
import type { ActorRef, ActorSystem, Behavior } from './mailbox.js'

/** An RFQ that ended EXPIRED by the engine's doing (the venue could not serve its end) at `at`. */
export interface UnstoredEnd {
  rfqId: string
  at: Date
}

export interface UnstoredEndsDeps {
  /** stores the ends of the RFQs still open in the store (a no-op for the others); throws while it is down */
  storeEnds(ends: readonly UnstoredEnd[]): Promise<void>
  /** the pause before an offer, and between two offers while the store refuses them */
  retryMs: number
}

type Msg =
  | { type: 'Ended'; end: UnstoredEnd }
  | { type: 'Offer' }
  | { type: 'Offered'; ends: UnstoredEnd[]; error: Error | null }
  | { type: 'Flush'; replyTo: (stored: boolean) => void }

interface State {
  ends: Map<string, UnstoredEnd>
  /** an offer is due (its timer is set) or in flight: a stream of new ends never postpones it */
  pending: boolean
  inFlight: boolean
  healed: number
  flushes: ((stored: boolean) => void)[]
}

export class UnstoredEnds {
  private readonly ref: ActorRef<Msg>
  private readonly state: State = { ends: new Map(), pending: false, inFlight: false, healed: 0, flushes: [] }

  constructor(
    system: ActorSystem,
    private readonly deps: UnstoredEndsDeps,
  ) {
    this.ref = system.spawn('rfq-unstored-ends', behavior(deps), this.state)
  }

  /** An end the store refused: kept, and offered again until the store takes it. */
  add(end: UnstoredEnd): void {
    if (!this.ref.stopped) this.ref.tell({ type: 'Ended', end })
  }

  /**
   * One more offer now: true once nothing is left unstored. At shutdown the actors have stopped by the time it is
   * called, so it writes what the stopped actor held itself (what it still cannot store, the next start's TTL
   * cleanup stores).
   */
  async flush(timeoutMs: number): Promise<boolean> {
    if (!this.ref.stopped) {
      return this.ref.ask<boolean>(replyTo => ({ type: 'Flush', replyTo }), timeoutMs).catch(() => false) // no answer in time: not flushed
    }
    const ends = [...this.state.ends.values()]
    if (!ends.length) return true
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), timeoutMs)
    })
    try {
      await Promise.race([this.deps.storeEnds(ends), late])
    } catch {
      return false
    } finally {
      clearTimeout(timer)
    } // the caller says what stays unstored
    this.state.ends.clear()
    this.state.healed += ends.length
    return true
  }

  /** ends waiting for the store */
  get waiting(): number {
    return this.state.ends.size
  }
  /** ends stored after the store first refused them */
  get healed(): number {
    return this.state.healed
  }
}

function behavior(deps: UnstoredEndsDeps): Behavior<State, Msg> {
  return {
    receive(s, msg, ctx) {
      const later = (ms: number) => {
        s.pending = true
        ctx.setTimer('offer', ms, { type: 'Offer' })
      }
      switch (msg.type) {
        case 'Ended':
          s.ends.set(msg.end.rfqId, msg.end)
          if (!s.pending) later(deps.retryMs)
          return s
        case 'Flush':
          if (!s.ends.size) {
            msg.replyTo(true)
            return s
          }
          s.flushes.push(msg.replyTo)
          if (!s.inFlight) later(0) // at once; an offer in flight answers it when it lands
          return s
        case 'Offer': {
          if (s.inFlight) return s
          if (!s.ends.size) {
            s.pending = false
            return s
          }
          const ends = [...s.ends.values()]
          s.inFlight = true
          ctx.pipeToSelf(deps.storeEnds(ends), r => ({ type: 'Offered', ends, error: r instanceof Error ? r : null }))
          return s
        }
        case 'Offered':
          s.pending = s.inFlight = false
          if (!msg.error) {
            // an end replaced while the write was in flight stays for the next offer
            for (const e of msg.ends)
              if (s.ends.get(e.rfqId) === e) {
                s.ends.delete(e.rfqId)
                s.healed++
              }
          }
          for (const reply of s.flushes.splice(0)) reply(s.ends.size === 0)
          if (s.ends.size) later(msg.error ? deps.retryMs : 0)
          return s
      }
    },
  }
}
