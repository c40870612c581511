// Query parameters of the options endpoints, validated once here with the texts the 400s carry.
import { Errors } from '../front/errors.js'
import { parseExpiryDay } from '../../workers/options/deribit/instrumentName.js'
import { LIQ_CLASS, type LiqClass } from '../store/options.js'

export const TAPE_PAGE = { default: 50, max: 500 } as const
const UNDERLYING = /^[A-Za-z0-9_]{1,32}$/

/** Names every required parameter that is absent or empty, in the order given. */
export function requireParams(q: URLSearchParams, names: string[]): void {
  const missing = names.filter(n => !q.get(n)?.trim())
  if (missing.length) throw Errors.badRequest(`Missing required params: ${missing.join(', ')}`)
}

/** Case-insensitive: stored upper-case. */
export function underlyingParam(q: URLSearchParams): string | null {
  const raw = q.get('underlying')?.trim()
  if (!raw) return null
  if (!UNDERLYING.test(raw)) throw Errors.badRequest('Invalid underlying')
  return raw.toUpperCase()
}

export function expiryParam(q: URLSearchParams): string {
  const e = parseExpiryDay((q.get('expiry') ?? '').trim())
  if (!e) throw Errors.badRequest('Invalid expiry (YYYYMMDD)')
  return e.day
}

/** Above the maximum, limit is clamped to 500; anything but a positive integer is a 400. */
export function limitParam(q: URLSearchParams): number {
  const raw = q.get('limit')
  if (raw === null || raw === '') return TAPE_PAGE.default
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw Errors.badRequest(`Invalid limit (an integer from 1, max ${TAPE_PAGE.max})`)
  return Math.min(Number(raw), TAPE_PAGE.max)
}

export function offsetParam(q: URLSearchParams): number {
  const raw = q.get('offset')
  if (raw === null || raw === '') return 0
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    throw Errors.badRequest('Invalid offset (an integer >= 0)')
  return Number(raw)
}

export function liquidityParam(q: URLSearchParams): LiqClass | null {
  const raw = q.get('liquidityGuess') ?? 'all'
  if (raw === 'all') return null
  if (raw === 'rfq' || raw === 'clob' || raw === 'unknown') return LIQ_CLASS[raw]
  throw Errors.badRequest('Invalid liquidityGuess (all, rfq, clob or unknown)')
}

export function venueParam(q: URLSearchParams): 'VENUE_A' | 'VENUE_B' | null {
  const raw = q.get('venue') ?? 'all'
  if (raw === 'all') return null
  if (raw === 'VENUE_A' || raw === 'VENUE_B') return raw
  throw Errors.badRequest('Invalid venue (all, VENUE_A or VENUE_B)')
}

export function strikeParam(q: URLSearchParams): number {
  const raw = (q.get('strike') ?? '').trim()
  const n = Number(raw)
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(n) || n <= 0)
    throw Errors.badRequest('Invalid strike (a positive number)')
  return n
}

export function isCallParam(q: URLSearchParams): boolean {
  const raw = (q.get('isCall') ?? '').trim()
  if (raw === 'true') return true
  if (raw === 'false') return false
  throw Errors.badRequest('Invalid isCall (true or false)')
}
