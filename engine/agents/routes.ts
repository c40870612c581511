// Agent endpoints that are not about RFQs: registration (limited per IP, 5/h and 15/day sliding by
// default), whoami with the agent's rate limits, and the agent's own activity log.
import type { EngineContext } from '../context.js'
import type { AgentAuth } from './auth.js'
import { agentOf, guarded } from './auth.js'
import { created, ok, intParam } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { MultiWindowLimiter, SlidingWindowLimiter } from '../front/limits.js'
import { recentActivity } from '../store/agents.js'
import { parseRegistration, registerAgent } from './register.js'
import { apiReply } from '../replies/api.js'

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
