// Agent endpoints that are not about RFQs: registration (limited per IP, 5/h and 15/day sliding by
// default), whoami with the agent's rate limits, and the agent's own activity log.
import type { EngineContext } from '../context.js'
import type { AgentAuth } from '../front/agentAuth.js'
import { agentOf, guarded } from '../front/agentAuth.js'
import { created, ok, intParam } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { MultiWindowLimiter, SlidingWindowLimiter } from '../front/limits.js'
import { recentActivity } from '../store/agents.js'
import { registerAgent, ROLES, type Registration } from '../agents/register.js'
import type { Role } from '../store/agents.js'
import { SIGNATURE_WINDOW_SECS } from '../agents/message.js'
import { apiReply, RegisterErrors } from '../replies/api.js'
import { isAddress, isPlainObject, toUnixSeconds } from '../../workers/values/index.js'

export function agentRoutes({ surfaces, sql, config, limits }: EngineContext, auth: AgentAuth): { sweep(): void } {
  const registrations = new MultiWindowLimiter([
    limits.register('agent.registration.hour', new SlidingWindowLimiter(config.AGENT_REGISTRATION_PER_HOUR, 3_600_000)),
    limits.register('agent.registration.day', new SlidingWindowLimiter(config.AGENT_REGISTRATION_PER_DAY, 86_400_000)),
  ])

  surfaces.api.post('/api/v1/agent/register', async req => {
    // every attempt counts: the limit is there to slow down key farming and signature guessing alike
    const v = registrations.hit(req.ip)
    if (!v.ok) {
      const secs = Math.max(1, Math.ceil(v.retryAfterSec))
      throw Errors.tooManyRequests(`Registration rate limit exceeded. Try again in ${secs}s.`, secs)
    }
    const outcome = await registerAgent(sql, parseRegistration(req.body))
    if (!outcome.ok) throw apiReply(outcome)
    const a = outcome.agent
    return created({
      agentId: a.id,
      name: a.name,
      ownerWallet: a.ownerWallet,
      agentWallet: a.agentWallet,
      roles: a.roles,
      apiKey: a.apiKey,
      createdAt: a.createdAt.toISOString(),
    })
  })

  surfaces.api.get(
    '/api/v1/agent/auth',
    guarded(auth.requireAgent(), req => {
      const a = agentOf(req)
      return ok({
        authenticated: true,
        agentId: a.id,
        name: a.name,
        ownerWallet: a.ownerWallet,
        agentWallet: a.agentWallet,
        roles: a.roles,
        createdAt: a.createdAt.toISOString(),
        rateLimit: { perMinute: auth.limits.perMinute, perHour: auth.limits.perHour },
      })
    }),
  )

  surfaces.api.get(
    '/api/v1/agent/activity',
    guarded(auth.requireAgent(), async req => {
      const limit = intParam(req.query, 'limit', 50, 1, 100)
      if (limit === null) throw Errors.badRequest('limit must be an integer from 1 to 100')
      const items = await recentActivity(sql, agentOf(req).id, limit)
      return ok({ items: items.map(i => ({ ...i, at: i.at.toISOString() })) })
    }),
  )

  return { sweep: () => registrations.sweep() }
}

/** POST /api/v1/agent/register's parse step, in the spec's order, each failure with its exact text (a 400 reply). */
export function parseRegistration(body: unknown, nowSec = toUnixSeconds(Date.now())): Registration {
  if (!isPlainObject(body)) throw Errors.invalidJson()
  const b = body
  const name = b.name
  // control characters would let a name forge the message's other lines
  if (typeof name !== 'string' || !name.trim() || name.length > 64 || /[\u0000-\u001f\u007f]/.test(name))
    throw Errors.badRequest(RegisterErrors.name)
  if (!isAddress(b.ownerWallet)) throw Errors.badRequest(RegisterErrors.ownerWallet)
  if (!isAddress(b.agentWallet)) throw Errors.badRequest(RegisterErrors.agentWallet)
  const roles = b.roles
  if (
    !Array.isArray(roles) ||
    !roles.length ||
    !roles.every(r => ROLES.includes(r as Role)) ||
    new Set(roles).size !== roles.length
  ) {
    throw Errors.badRequest(RegisterErrors.roles)
  }
  if (typeof b.signature !== 'string' || !b.signature) throw Errors.badRequest(RegisterErrors.signature)
  const timestamp = unixSeconds(b.timestamp)
  if (timestamp === null) throw Errors.badRequest(RegisterErrors.timestamp)
  if (Math.abs(nowSec - timestamp) > SIGNATURE_WINDOW_SECS) throw Errors.badRequest(RegisterErrors.expired)
  return {
    name,
    ownerWallet: b.ownerWallet.toLowerCase() as `0x${string}`,
    agentWallet: b.agentWallet.toLowerCase() as `0x${string}`,
    roles: roles as Role[],
    timestamp,
    signature: b.signature,
  }
}

/** An integer of seconds, as a JSON number or a string of digits. */
function unixSeconds(x: unknown): number | null {
  if (typeof x === 'number') return Number.isSafeInteger(x) && x > 0 ? x : null
  if (typeof x === 'string' && /^\d{1,15}$/.test(x)) return Number(x)
  return null
}
