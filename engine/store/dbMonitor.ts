// Whether PostgreSQL answers, known without asking it on every request: a ping each second (bounded
// by a timeout, so a hung server reads as down), read by health endpoints that must stay cheap (the
// relay's /health is a load balancer's probe and the relay bench's reference).
import type { Sql } from './db.js'

export interface DbMonitor {
  readonly up: boolean
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
  let running = false
  const ping = async () => {
    if (running) return
    running = true
    let timer: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        sql`select 1`,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('ping timed out')), timeoutMs)
        }),
      ])
      if (!up) log?.info({}, 'database answers again')
      up = true
    } catch (err) {
      if (up) log?.warn({ err }, 'database does not answer: health reads degraded until it does')
      up = false
    } finally {
      clearTimeout(timer)
      running = false
    }
  }
  const timer = setInterval(() => void ping(), intervalMs) // ping catches its own errors: it cannot reject
  timer.unref()
  return {
    get up() {
      return up
    },
    stop: () => clearInterval(timer),
  }
}
