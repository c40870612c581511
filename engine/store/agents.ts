// The agents table group: registration (with the per-owner cap and the spent-signature record in
// one transaction), lookup by key hash, and the activity log.
import type { Sql } from './db.js'
import type { Tx } from './db.js'
import type { Outcome, Refused } from '../../workers/outcome.js'

export type Role = 'taker' | 'maker' | 'monitor'

export interface Agent {
  id: string
  name: string
  ownerWallet: `0x${string}`
  agentWallet: `0x${string}`
  roles: Role[]
  createdAt: Date
}

export interface NewAgent extends Omit<Agent, 'createdAt'> {
  keyHash: string
  messageDigest: string
}

/** The house's one result type, with registration's own codes (engine/agents/register.ts passes them on). */
export type InsertOutcome = Outcome<
  { agent: Agent },
  Refused<'SIGNATURE_REPLAYED' | 'MAX_AGENTS' | 'AGENT_WALLET_TAKEN'>
>

/**
 * Inserts the agent unless the owner already has `maxPerOwner` agents or the signed message was
 * used before. A per-owner advisory lock makes the count and the insert one step under concurrency.
 */
export async function insertAgent(sql: Sql, a: NewAgent, maxPerOwner: number): Promise<InsertOutcome> {
  return sql.begin(async tx => {
    await tx`select pg_advisory_xact_lock(hashtext('agent-owner:' || ${a.ownerWallet}))`
    const [spent] = await tx`select 1 from agent_registrations where message_digest = ${a.messageDigest}`
    if (spent) return { ok: false, code: 'SIGNATURE_REPLAYED' } as const
    const [{ n }] =
      (await tx`select count(*)::int as n from agents where owner_wallet = ${a.ownerWallet}`) as unknown as [
        { n: number },
      ]
    if (n >= maxPerOwner) return { ok: false, code: 'MAX_AGENTS' } as const
    // the agent wallet is its first owner's: another owner's claim is refused (the key decides races)
    await tx`insert into agent_wallet_owners (agent_wallet, owner_wallet) values (${a.agentWallet}, ${a.ownerWallet}) on conflict (agent_wallet) do nothing`
    const [claim] = await tx`select owner_wallet from agent_wallet_owners where agent_wallet = ${a.agentWallet}`
    if (claim!.owner_wallet !== a.ownerWallet) return { ok: false, code: 'AGENT_WALLET_TAKEN' } as const
    const [r] = await tx`
      insert into agents (id, name, owner_wallet, agent_wallet, roles, key_hash)
      values (${a.id}, ${a.name}, ${a.ownerWallet}, ${a.agentWallet}, ${a.roles}, ${a.keyHash})
      returning created_at`
    await tx`insert into agent_registrations (message_digest, agent_id) values (${a.messageDigest}, ${a.id})`
    return {
      ok: true,
      agent: {
        id: a.id,
        name: a.name,
        ownerWallet: a.ownerWallet,
        agentWallet: a.agentWallet,
        roles: a.roles,
        createdAt: r!.created_at,
      },
    } as const
  })
}

export async function agentByKeyHash(sql: Tx, keyHash: string): Promise<Agent | undefined> {
  const [r] =
    await sql`select id, name, owner_wallet, agent_wallet, roles, created_at from agents where key_hash = ${keyHash}`
  return r ? toAgent(r) : undefined
}

/** Agents owned by, or acting as, a wallet (for the profile). */
export async function agentsOfWallet(sql: Tx, wallet: string): Promise<Agent[]> {
  const rows = await sql`
    select id, name, owner_wallet, agent_wallet, roles, created_at from agents
    where owner_wallet = ${wallet} or agent_wallet = ${wallet} order by created_at, id`
  return rows.map(toAgent)
}

export async function logActivity(
  sql: Tx,
  e: { agentId: string; action: string; rfqId?: string | null; detail?: Record<string, unknown> },
): Promise<void> {
  await sql`insert into agent_activity (agent_id, action, rfq_id, detail) values (${e.agentId}, ${e.action}, ${e.rfqId ?? null}, ${sql.json((e.detail ?? {}) as never)})`
}

export async function recentActivity(
  sql: Tx,
  agentId: string,
  limit = 50,
): Promise<{ action: string; rfqId: string | null; detail: unknown; at: Date }[]> {
  const rows =
    await sql`select action, rfq_id, detail, at from agent_activity where agent_id = ${agentId} order by id desc limit ${limit}`
  return rows.map(r => ({ action: r.action, rfqId: r.rfq_id, detail: r.detail, at: r.at }))
}

function toAgent(r: Record<string, unknown>): Agent {
  return {
    id: r.id as string,
    name: r.name as string,
    ownerWallet: r.owner_wallet as `0x${string}`,
    agentWallet: r.agent_wallet as `0x${string}`,
    roles: r.roles as Role[],
    createdAt: r.created_at as Date,
  }
}
