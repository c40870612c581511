// The protocol registry: which factories (and, for the stable kind, which pools) the route finder
// reads. Postgres is the truth; the JSON file named by SOR_PROTOCOLS_FILE is upserted into it on
// start and on every sync, so an operator may also insert rows by hand.
import { existsSync, readFileSync } from 'node:fs'
import { z } from 'zod'
import type { Sql } from '../store/db.js'
import { listProtocols, upsertProtocol, type Protocol } from '../store/sor.js'
import { isAddress } from '../../workers/values/index.js'

const address = z
  .string()
  .refine(isAddress, 'must be a 0x address')
  .transform(s => s.toLowerCase() as `0x${string}`)

export const protocolEntry = z
  .object({
    slug: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be lowercase letters, digits, . _ - (max 64)'),
    name: z.string().min(1).max(128),
    poolType: z.enum(['v2', 'v3', 'stable']),
    factoryAddress: address,
    feePpm: z.number().int().min(0).max(999_999).optional(),
    startBlock: z.number().int().min(0).default(0),
    pools: z.array(address).default([]),
  })
  .strict()

export class ProtocolsFileError extends Error {
  override name = 'ProtocolsFileError'
}

/** The entries of a protocols file; [] when the file does not exist. Throws ProtocolsFileError naming the bad entry. */
export function readProtocolsFile(file: string): Omit<Protocol, 'lastScannedBlock'>[] {
  if (!existsSync(file)) return []
  let doc: unknown
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'))
  } catch (e) {
    throw new ProtocolsFileError(`${file}: not JSON (${(e as Error).message})`)
  }
  // an array of entries, or {protocols: [...]} (room for a note beside them)
  const parsed = Array.isArray(doc)
    ? z.array(protocolEntry).safeParse(doc)
    : z.looseObject({ protocols: z.array(protocolEntry) }).safeParse(doc)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new ProtocolsFileError(`${file}: ${issue.path.join('.')}: ${issue.message}`)
  }
  const entries = Array.isArray(parsed.data) ? parsed.data : parsed.data.protocols
  const slugs = new Set<string>()
  for (const e of entries) {
    if (slugs.has(e.slug)) throw new ProtocolsFileError(`${file}: slug ${e.slug} appears twice`)
    slugs.add(e.slug)
    if (e.poolType !== 'stable' && e.pools.length)
      throw new ProtocolsFileError(`${file}: ${e.slug}: pools is for the stable kind only`)
  }
  return entries
}

export interface SyncReport {
  file: string | null
  fromFile: number
  protocols: Protocol[]
}

/** Upserts the file's entries, then reads every protocol back from the database. */
export async function syncProtocols(sql: Sql, file: string | undefined): Promise<SyncReport> {
  const entries = file ? readProtocolsFile(file) : []
  for (const e of entries) await upsertProtocol(sql, e)
  return { file: file ?? null, fromFile: entries.length, protocols: await listProtocols(sql) }
}

/** The spec's Protocol resource. */
export function protocolView(p: Protocol) {
  return { slug: p.slug, name: p.name, poolType: p.poolType, factoryAddress: p.factoryAddress }
}
