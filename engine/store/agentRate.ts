// The agent API's sliding limits, arbitrated by PostgreSQL so that they hold exactly across every node of a
// venue (a spread of requests over three nodes meets one limit, not three). One row per agent holds the times
// of the requests it was granted in the last hour, by the database's clock. A grant is one statement: INSERT
// .. ON CONFLICT DO UPDATE .. WHERE locks the agent's row and checks both windows against its latest version,
// so concurrent requests at any nodes are granted one after another and never past a limit. A refusal is
// not recorded (a client that keeps knocking is not locked out for longer), as in engine/front/limits.ts.
import type { Tx } from './db.js'

export interface AgentRateLimits {
  perMinute: number
  perHour: number
}
export interface RateVerdict {
  ok: boolean
  retryAfterSec: number
}

const MINUTE_MS = 60_000
const HOUR_MS = 3_600_000

export async function hitAgentRate(sql: Tx, agentId: string, limits: AgentRateLimits): Promise<RateVerdict> {
  const granted = await sql`
    insert into agent_rate_windows as w (agent_id, hits) values (${agentId}, array[(extract(epoch from now()) * 1000)::bigint])
    on conflict (agent_id) do update
      set hits = array(select t from unnest(w.hits) t where t > excluded.hits[1] - ${HOUR_MS} order by t) || excluded.hits[1]
      where (select count(*) from unnest(w.hits) t where t > excluded.hits[1] - ${MINUTE_MS}) < ${limits.perMinute}
        and (select count(*) from unnest(w.hits) t where t > excluded.hits[1] - ${HOUR_MS}) < ${limits.perHour}
    returning 1`
  if (granted.length) return { ok: true, retryAfterSec: 0 }
  // refused: when the oldest hit that fills each full window leaves it
  const [r] =
    await sql`select hits::text[] as hits, (extract(epoch from now()) * 1000)::bigint::text as now from agent_rate_windows where agent_id = ${agentId}`
  const now = Number(r!.now)
  const hits = (r!.hits as string[]).map(Number).sort((a, b) => a - b)
  const waits = [
    [MINUTE_MS, limits.perMinute],
    [HOUR_MS, limits.perHour],
  ].map(([windowMs, limit]) => {
    const live = hits.filter(t => t > now - windowMs!)
    return live.length >= limit! ? live[0]! + windowMs! - now : 0
  })
  return { ok: false, retryAfterSec: Math.max(...waits) / 1000 }
}
