// Agent registration, the domain step: the owner proves control by an EIP-191 signature over
// registrationMessage(); the API key is made here, returned once, and only its hash is kept. It answers
// an outcome with a code; the surface (engine/routes/agents.ts) parses the body first, in the spec's order,
// and maps the outcome (engine/replies/api.ts).
import type { Sql } from '../store/db.js'
import { insertAgent, type Agent, type Role } from '../store/agents.js'
import { parseSignature } from '../../workers/sig/parseQuote.js'
import { personalMessageDigest } from '../../workers/sig/eip191.js'
import { recoverAddress } from '../../workers/sig/recover.js'
import { registrationMessage } from './message.js'
import { generateApiKey, hashApiKey, newAgentId } from './keys.js'
import type { Outcome, Refused } from '../../workers/outcome.js'

export const ROLES: readonly Role[] = ['taker', 'maker', 'monitor']
export const MAX_AGENTS_PER_OWNER = 10

export interface Registered extends Agent {
  apiKey: string
}

/** A registration as the wire gave it, checked for shape (parseRegistration) but not yet proven. */
export interface Registration {
  name: string
  ownerWallet: `0x${string}`
  agentWallet: `0x${string}`
  roles: Role[]
  timestamp: number
  signature: string
}

export type RegisterRefusal =
  | (Refused<'SIGNATURE_INVALID'> & { reason: string })
  | (Refused<'SIGNATURE_MISMATCH'> & { expected: string; recovered: string })
  | Refused<'SIGNATURE_REPLAYED'>
  | Refused<'MAX_AGENTS'>
  | Refused<'AGENT_WALLET_TAKEN'>

export type RegisterOutcome = Outcome<{ agent: Registered }, RegisterRefusal>

/** The domain step: the owner's signature proves the registration; the key is made here, only its hash kept. */
export async function registerAgent(sql: Sql, r: Registration): Promise<RegisterOutcome> {
  const message = registrationMessage({
    name: r.name,
    ownerWallet: r.ownerWallet,
    agentWallet: r.agentWallet,
    roles: r.roles,
    timestamp: r.timestamp,
  })
  const sig = parseSignature(r.signature)
  if (!sig.ok) return { ok: false, code: 'SIGNATURE_INVALID', reason: `signature ${sig.reason}` }
  const digest = personalMessageDigest(message)
  const recovered = recoverAddress(digest, sig.signature)
  if (!recovered) return { ok: false, code: 'SIGNATURE_INVALID', reason: 'no signer recovers from this signature' }
  if (recovered !== r.ownerWallet) return { ok: false, code: 'SIGNATURE_MISMATCH', expected: r.ownerWallet, recovered }

  const apiKey = generateApiKey()
  const outcome = await insertAgent(
    sql,
    {
      id: newAgentId(),
      name: r.name,
      ownerWallet: r.ownerWallet,
      agentWallet: r.agentWallet,
      roles: r.roles,
      keyHash: hashApiKey(apiKey),
      messageDigest: Buffer.from(digest).toString('hex'),
    },
    MAX_AGENTS_PER_OWNER,
  )
  if (!outcome.ok) return outcome
  return { ok: true, agent: { ...outcome.agent, apiKey } }
}
