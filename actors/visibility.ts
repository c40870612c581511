// The one visibility rule. Every surface that shows an RFQ or its quotes (API REST lists, detail, agent
// listing, REST quotes; relay REST; the SSE feed) asks `canSee`; WebSocket broadcasts follow the same
// rule through share-token topics. A private RFQ and its quotes are seen by
//   - holders of its share token (REST: ?shareToken= or X-Share-Token; relay: as its protocol says),
//   - its taker: the agent that created it (REST: Authorization: Bearer <that agent's key>).
// Everyone else gets exactly what an unknown id gets, before and after the RFQ ends.
import type { Visibility } from './rfqTypes.js'

/** What the rule needs to know about an RFQ. */
export interface RfqAccess {
  visibility: Visibility
  /** sha256 of the share token; null when unknown (then only its taker sees it) */
  shareTokenHash: string | null
  /** the agent that created it; null when it was not created through the agent API */
  agentId: string | null
}

/** Who is asking: the share tokens they presented (hashed) and the agent their key proves. */
export interface Viewer {
  shareTokenHashes: readonly string[]
  agentId: string | null
}

export const ANONYMOUS: Viewer = { shareTokenHashes: [], agentId: null }

export function canSee(rfq: RfqAccess, viewer: Viewer): boolean {
  if (rfq.visibility === 'public') return true
  if (viewer.agentId !== null && rfq.agentId === viewer.agentId) return true
  return rfq.shareTokenHash !== null && viewer.shareTokenHashes.includes(rfq.shareTokenHash)
}

/**
 * Who may change an RFQ (cancel, fill): the agent that created it. An RFQ made without the agent API
 * (no agent id) falls back to its taker wallet. A wallet alone is never proof for an agent-made RFQ:
 * wallets can be claimed, agent keys cannot.
 */
export function ownsRfq(
  agent: { id: string; agentWallet: string },
  rfq: { agentId: string | null; taker: string },
): boolean {
  return rfq.agentId !== null ? agent.id === rfq.agentId : agent.agentWallet === rfq.taker
}
