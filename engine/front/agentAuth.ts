// The agent guard: `Authorization: Bearer rfq_live_...` -> the agent, then its sliding limits
// (per agent, venue-wide), then the role. Agents are cached by key hash; keys are never revoked here.
import type { Guard, Handler, Req } from './request.js'
import type { Sql } from '../store/db.js'
import { agentByKeyHash, type Agent, type Role } from '../store/agents.js'
import { Errors } from './errors.js'
import { MultiWindowLimiter, SlidingWindowLimiter } from './limits.js'
import type { LimitRegistry } from './sharedLimits.js'
import { hashApiKey, isWellFormedKey } from '../agents/keys.js'
import { bearerToken } from './bearer.js'
import { hitAgentRate } from '../store/agentRate.js'
import { isUnavailable } from '../store/unavailable.js'

export const AuthErrors = {
  missing: 'Missing API key (Authorization: Bearer <API_KEY>)',
  malformed: 'Invalid API key format',
  unknown: 'Invalid API key',
  role: (role: Role) => `Forbidden: agent lacks the ${role} role`,
  rate: 'Agent rate limit exceeded',
} as const

export interface AgentAuth {
  /** the guard for agent routes; with a role, a missing role answers 403 */
  requireAgent(role?: Role): Guard
  /** the agent behind a request's key, or undefined when it carries no Authorization header */
  optionalAgent(req: Req): Promise<Agent | undefined>
  readonly limits: { perMinute: number; perHour: number }
  sweep(): void
}

export function agentOf(req: Req): Agent {
  const a = req.locals.agent as Agent | undefined
  if (!a) throw new Error('agentOf: route is not behind requireAgent')
  return a
}

export function createAgentAuth(
  sql: Sql,
  limits: { perMinute: number; perHour: number; failuresPerMinute?: number },
  registry: LimitRegistry,
  databaseUp: () => boolean = () => true,
): AgentAuth {
  const byHash = new Map<string, Agent>()
  // The per-agent limits are the spec's numbers for an account, so they hold exactly for the venue: PostgreSQL
  // grants each request (engine/store/agentRate.ts). This node's own windows (shared with its peers, give or take
  // a batch) record the grants too and answer alone only while the database does not.
  const local = new MultiWindowLimiter([
    registry.register('agent.minute', new SlidingWindowLimiter(limits.perMinute, 60_000)),
    registry.register('agent.hour', new SlidingWindowLimiter(limits.perHour, 3_600_000)),
  ])
  const rate = async (agentId: string) => {
    if (!databaseUp()) return local.hit(agentId)
    let v
    try {
      v = await hitAgentRate(sql, agentId, limits)
    } catch (e) {
      if (!isUnavailable(e)) throw e
      return local.hit(agentId)
    }
    if (v.ok) local.record(agentId)
    return v
  }
  // An unknown key costs a database lookup: an address that keeps presenting bad keys is refused
  // before the lookup, for a minute, once it has failed this many times.
  const failures = registry.register('auth.failures', new SlidingWindowLimiter(limits.failuresPerMinute ?? 20, 60_000))
  const failed = (ip: string, text: string) => {
    failures.hit(ip)
    return Errors.unauthorized(text)
  }

  async function authenticate(header: string | undefined, ip: string): Promise<{ agent: Agent; keyHash: string }> {
    const blocked = failures.peek(ip)
    if (!blocked.ok) throw Errors.authFailures(blocked.retryAfterSec)
    if (!header) throw Errors.unauthorized(AuthErrors.missing)
    const key = bearerToken(header)
    if (key === undefined || !isWellFormedKey(key)) throw failed(ip, AuthErrors.malformed)
    const keyHash = hashApiKey(key)
    let agent = byHash.get(keyHash)
    if (!agent) {
      agent = await agentByKeyHash(sql, keyHash)
      if (!agent) throw failed(ip, AuthErrors.unknown)
      byHash.set(keyHash, agent)
    }
    const v = await rate(agent.id)
    if (!v.ok) throw Errors.tooManyRequests(AuthErrors.rate, v.retryAfterSec)
    return { agent, keyHash }
  }

  return {
    limits,
    requireAgent: role => async req => {
      const { agent } = await authenticate(req.headers.authorization, req.ip)
      if (role && !agent.roles.includes(role)) throw Errors.forbidden(AuthErrors.role(role))
      req.locals.agent = agent
    },
    async optionalAgent(req) {
      if (req.headers.authorization === undefined) return undefined
      return (await authenticate(req.headers.authorization, req.ip)).agent
    },
    sweep: () => {
      local.sweep()
      failures.sweep()
    },
  }
}

/** Runs guards then the handler: routes here are mounted one by one, each with its own guard. */
export function guarded(guard: Guard, handler: Handler): Handler {
  return async req => {
    const stop = await guard(req)
    if (stop) return stop
    return handler(req)
  }
}
