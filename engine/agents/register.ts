// POST /api/v1/agent/register: the spec's checks in the spec's order. parseRegistration is the
// surface's parse step (400s with the spec's texts); registerAgent the domain step, answering an
// outcome with a code (the route maps it). The owner proves control by an EIP-191 signature over
// registrationMessage(); the API key is made here, returned once, and only its hash is kept.
import type { Sql } from '../store/db.js'
import { insertAgent, type Agent, type Role } from '../store/agents.js'
import { Errors } from '../front/errors.js'
import { parseSignature } from '../../workers/sig/parseQuote.js'
import { personalMessageDigest } from '../../workers/sig/eip191.js'
import { recoverAddress } from '../../workers/sig/recover.js'
import { registrationMessage, SIGNATURE_WINDOW_SECS } from './message.js'
import { generateApiKey, hashApiKey, newAgentId } from './keys.js'
import { isAddress, isPlainObject, toUnixSeconds } from '../../workers/values/index.js'

export const ROLES: readonly Role[] = ['taker', 'maker', 'monitor']
export const MAX_AGENTS_PER_OWNER = 10

export const RegisterErrors = {
  name: 'name is required (max 64 chars)',
  ownerWallet: 'ownerWallet must be a valid 0x address',
  agentWallet: 'agentWallet must be a valid 0x address',
  roles: 'roles must be a non-empty array of: taker, maker, monitor',
  signature: 'signature is required',
  timestamp: 'timestamp is required (unix seconds)',
  expired: `Signature expired. Timestamp must be within ${SIGNATURE_WINDOW_SECS}s of current time.`,
  mismatch: 'Signature does not match ownerWallet.',
  maxAgents: `Maximum ${MAX_AGENTS_PER_OWNER} agents per owner wallet`,
  replayed: 'Signature already used',
  walletTaken: 'agentWallet is already registered to another owner',
} as const

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

export type RegisterOutcome =
  | { ok: true; agent: Registered }
  | { ok: false; code: 'SIGNATURE_INVALID'; reason: string }
  | { ok: false; code: 'SIGNATURE_MISMATCH'; expected: string; recovered: string }
  | { ok: false; code: 'SIGNATURE_REPLAYED' }
  | { ok: false; code: 'MAX_AGENTS' }
  | { ok: false; code: 'AGENT_WALLET_TAKEN' }

/** The surface's parse step, in the spec's order, each failure with its exact text (a 400 reply). */
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
  if (!outcome.ok) {
    if (outcome.reason === 'wallet_taken') return { ok: false, code: 'AGENT_WALLET_TAKEN' }
    return outcome.reason === 'replayed' ? { ok: false, code: 'SIGNATURE_REPLAYED' } : { ok: false, code: 'MAX_AGENTS' }
  }
  return { ok: true, agent: { ...outcome.agent, apiKey } }
}

/** An integer of seconds, as a JSON number or a string of digits. */
function unixSeconds(x: unknown): number | null {
  if (typeof x === 'number') return Number.isSafeInteger(x) && x > 0 ? x : null
  if (typeof x === 'string' && /^\d{1,15}$/.test(x)) return Number(x)
  return null
}
