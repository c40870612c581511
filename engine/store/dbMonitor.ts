// Whether PostgreSQL answers, known without asking it on every request: a ping each second (bounded
// by a timeout, so a hung server reads as down), read by health endpoints that must stay cheap (the
// relay's /health is a load balancer's probe and the relay bench's reference) and by the paths that fall back to this
// node's own state while the database is down (the agent API's limits).
//
// The API's /health asks the database live, through `probe`, so its answer is also the monitor's: one source for "is
// it up" (a probe that saw the database back, while the monitor still held an outage from its last ping, left the
// agent limits answering from this node's windows for up to a second after /health said 200). Probes overlap (the
// ping each second, any /health), so a probe's outcome counts only when none started later has counted already: a
// ping that failed while the server restarted never overrules a probe that has seen it back.
import type { Sql } from './db.js'

export interface DbMonitor {
  readonly up: boolean
  /** asks the database now (bounded by the timeout): true when it answered; the monitor's state follows */
  probe(): Promise<boolean>
  stop(): void
}

/** `log`: told once when the database stops answering (with why) and once when it is back, not at every ping. */
export function monitorDatabase(
  sql: Sql,
  {
    intervalMs = 1000,
    timeoutMs = 2000,
    log,
  }: {
    intervalMs?: number
    timeoutMs?: number
    log?: { warn(o: object, m: string): void; info(o: object, m: string): void }
  } = {},
): DbMonitor {
  let up = true
  let started = 0 // probes started
  let counted = 0 // the latest-started probe whose outcome counted
  const probe = async (): Promise<boolean> => {
    const n = ++started
    let timer: NodeJS.Timeout | undefined
    let err: unknown
    try {
      await Promise.race([
        sql`select 1`,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('ping timed out')), timeoutMs)
        }),
      ])
    } catch (e) {
      err = e ?? new Error('ping failed')
    } finally {
      clearTimeout(timer)
    }
    const answered = err === undefined
    if (n < counted) return answered // a later probe has spoken
    counted = n
    if (answered && !up) log?.info({}, 'database answers again')
    if (!answered && up) log?.warn({ err }, 'database does not answer: health reads degraded until it does')
    up = answered
    return answered
  }
  let pinging = false // one ping at a time: a hung server must not pile them up
  const ping = async () => {
    if (pinging) return
    pinging = true
    await probe()
    pinging = false
  }
  const timer = setInterval(() => void ping(), intervalMs) // probe catches its own errors: it cannot reject
  timer.unref()
  return {
    get up() {
      return up
    },
    probe,
    stop: () => clearInterval(timer),
  }
}
