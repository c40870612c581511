// The shipped recording (fixtures/deribit/options-sample.jsonl) and the facts the tests read off it.
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'

export const SAMPLE = join(repoRoot, 'fixtures/deribit/options-sample.jsonl')
/** the recording's first trade; the rest are offsets from it */
export const T = 1734688800000
export const at = (offsetMs: number) => new Date(T + offsetMs).toISOString()
export const NEWEST = T + 240_000

export interface Got {
  status: number
  body: any
  headers: Headers
}

export async function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Got> {
  const res = await fetch(base + path, { headers })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers }
}

export const close = (a: number | null, b: number, eps = 1e-9) => a !== null && Math.abs(a - b) <= eps
