// The relay's TTL cleanup (RFQ_TTL_SECS). An RFQ is live until its own expiry, and its actor stores its end
// then; the TTL never ends one earlier. What this cleanup ends is what no actor did: an RFQ still open in the
// store more than RFQ_TTL_SECS past its own expiry (the engine was stopped or crashed when it expired, or the
// database was down and the node that held it is gone). It is stored EXPIRED by the engine, at its expiry, and
// judges no maker. Every node sweeps; the store's conditional update makes a second sweep of the same row a
// no-op. The first sweep runs at start, so RFQs that expired while the engine was down are ended at once.
import type { EngineContext } from '../context.js'
import { sweepEnded } from '../store/rfqs.js'

export interface TtlCleanup {
  readonly ended: number
  stop(): void
}

export function startTtlCleanup(ctx: EngineContext): TtlCleanup {
  const ttlSecs = ctx.config.RFQ_TTL_SECS
  let ended = 0
  let running = false
  const sweep = async () => {
    if (running || !ctx.databaseUp()) return
    running = true
    try {
      const n = await sweepEnded(ctx.sql, ttlSecs)
      ended += n
      if (n) ctx.log.info({ rfqs: n, ttlSecs }, 'TTL cleanup: RFQs open past their expiry stored EXPIRED by the engine')
    } catch (err) {
      ctx.log.warn({ err }, 'TTL cleanup failed; it runs again at the next sweep')
    } finally {
      running = false
    }
  }
  void sweep()
  // often enough that a stale row is ended soon after it qualifies, never more than once a second
  const timer = setInterval(() => void sweep(), Math.min(ttlSecs, 10) * 1000)
  timer.unref()
  return {
    get ended() {
      return ended
    },
    stop: () => clearInterval(timer),
  }
}
