// POST /api/v1/agent/register: the spec's checks in the spec's order, each with its exact text.
// The owner proves control by an EIP-191 signature over registrationMessage(); the API key is
// made here, returned once, and only its hash is kept.
import type { Sql } from '../store/db.js'
import { insertAgent, type Agent, type Role } from '../store/agents.js'
import { Errors } from '../front/errors.js'
import { parseSignature } from '../../workers/sig/parseQuote.js'
import { personalMessageDigest } from '../../workers/sig/eip191.js'
import { recoverAddress } from '../../workers/sig/recover.js'
import { registrationMessage, SIGNATURE_WINDOW_SECS } from './message.js'
import { generateApiKey, hashApiKey, newAgentId } from './keys.js'
import { isAddress } from '../../workers/values/index.js'

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

export interface Registered extends Agent { apiKey: string }

export async function registerAgent(sql: Sql, body: unknown, nowSec = Math.floor(Date.now() / 1000)): Promise<Registered> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw Errors.invalidJson()
  const b = body as Record<string, unknown>
  const name = b.name
  // control characters would let a name forge the message's other lines
  if (typeof name !== 'string' || !name.trim() || name.length > 64 || /[\u0000-\u001f\u007f]/.test(name)) throw Errors.badRequest(RegisterErrors.name)
  if (!isAddress(b.ownerWallet)) throw Errors.badRequest(RegisterErrors.ownerWallet)
  if (!isAddress(b.agentWallet)) throw Errors.badRequest(RegisterErrors.agentWallet)
  const roles = b.roles
  if (!Array.isArray(roles) || !roles.length || !roles.every(r => ROLES.includes(r as Role)) || new Set(roles).size !== roles.length) {
    throw Errors.badRequest(RegisterErrors.roles)
  }
  if (typeof b.signature !== 'string' || !b.signature) throw Errors.badRequest(RegisterErrors.signature)
  const timestamp = unixSeconds(b.timestamp)
  if (timestamp === null) throw Errors.badRequest(RegisterErrors.timestamp)
  if (Math.abs(nowSec - timestamp) > SIGNATURE_WINDOW_SECS) throw Errors.badRequest(RegisterErrors.expired)

  const ownerWallet = b.ownerWallet.toLowerCase() as `0x${string}`
  const agentWallet = b.agentWallet.toLowerCase() as `0x${string}`
  const message = registrationMessage({ name, ownerWallet, agentWallet, roles: roles as string[], timestamp })
  const sig = parseSignature(b.signature)
  if (!sig.ok) throw Errors.badRequest(`Signature verification failed: signature ${sig.reason}`)
  const digest = personalMessageDigest(message)
  const recovered = recoverAddress(digest, sig.signature)
  if (!recovered) throw Errors.badRequest('Signature verification failed: no signer recovers from this signature')
  if (recovered !== ownerWallet) throw Errors.forbidden(RegisterErrors.mismatch, { expected: ownerWallet, recovered })

  const apiKey = generateApiKey()
  const outcome = await insertAgent(sql, {
    id: newAgentId(), name, ownerWallet, agentWallet, roles: roles as Role[], keyHash: hashApiKey(apiKey),
    messageDigest: Buffer.from(digest).toString('hex'),
  }, MAX_AGENTS_PER_OWNER)
  if (!outcome.ok) {
    if (outcome.reason === 'wallet_taken') throw Errors.conflict(RegisterErrors.walletTaken, { code: 'AGENT_WALLET_TAKEN' })
    throw Errors.conflict(outcome.reason === 'replayed' ? RegisterErrors.replayed : RegisterErrors.maxAgents)
  }
  return { ...outcome.agent, apiKey }
}

/** An integer of seconds, as a JSON number or a string of digits. */
function unixSeconds(x: unknown): number | null {
  if (typeof x === 'number') return Number.isSafeInteger(x) && x > 0 ? x : null
  if (typeof x === 'string' && /^\d{1,15}$/.test(x)) return Number(x)
  return null
}

