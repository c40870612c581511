// Whether PostgreSQL answers, known without asking it on every request: a ping each second (bounded
// by a timeout, so a hung server reads as down), read by health endpoints that must stay cheap (the
// relay's /health is a load balancer's probe and the relay bench's reference).
import type { Sql } from './db.js'

export interface DbMonitor {
  readonly up: boolean
  stop(): void
}

export function monitorDatabase(sql: Sql, { intervalMs = 1000, timeoutMs = 2000 } = {}): DbMonitor {
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
      up = true
    } catch {
      up = false
    } finally {
      clearTimeout(timer)
      running = false
    }
  }
  const timer = setInterval(ping, intervalMs)
  timer.unref()
  return {
    get up() {
      return up
    },
    stop: () => clearInterval(timer),
  }
}
