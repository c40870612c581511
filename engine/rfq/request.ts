// What a taker asks for when it creates an RFQ, and the RFQ's unguessable names (its id and a private RFQ's share
// token), which the RFQ service (service.ts) gives it.
import { randomBytes } from 'node:crypto'
import type { Address, RfqKind, Visibility } from '../../actors/rfqTypes.js'
import { rfqIdAt } from '../../workers/values/index.js'

/** What a taker asks for (parsed by its surface: tokens resolved, amounts and TTL in range). */
export interface RfqRequest {
  tokenIn: Address
  tokenOut: Address
  kind: RfqKind
  amountIn: bigint | null
  amountOut: bigint | null
  ttlSeconds: number
  visibility: Visibility
  allowedMakers: Address[]
}

/** Unguessable (128 random bits), and carrying `atMs`, the RFQ's creation (workers/values/rfqId.ts). */
export function newRfqId(atMs: number): string {
  return rfqIdAt(atMs, randomBytes(16).toString('hex'))
}

/** A private RFQ's share token: 192 random bits, URL-safe. */
export function newShareToken(): string {
  return randomBytes(24).toString('base64url')
}
