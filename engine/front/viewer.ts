// Who a REST request is, for the visibility rule: the share tokens it presents (`?shareToken=` or the
// `X-Share-Token` header) and the agent its `Authorization: Bearer` key proves. A bad key is a 401, as on
// every agent path; no key is simply anonymous.
import type { Req } from './request.js'
import type { AgentAuth } from './agentAuth.js'
import { hashShareToken } from '../../actors/book.js'
import type { Viewer } from '../../actors/visibility.js'

export async function viewerOf(req: Req, auth: Pick<AgentAuth, 'optionalAgent'>): Promise<Viewer> {
  const tokens = [req.query.get('shareToken'), req.headers['x-share-token']].filter(
    (t): t is string => typeof t === 'string' && t.length > 0 && t.length <= 256,
  )
  const agent = await auth.optionalAgent(req)
  return { shareTokenHashes: tokens.map(hashShareToken), agentId: agent?.id ?? null }
}

/** The relay's REST has no agent keys: its viewers are share-token holders only. */
export function tokenViewer(token: string | null): Viewer {
  return { shareTokenHashes: token ? [hashShareToken(token)] : [], agentId: null }
}
