// Every message between the nodes, sealed: a 64-byte Ed25519 signature, then the signed msgpack
// [version, channel, origin, epoch, seq, body]. A receiver opens it before anything else: size, a key CLUSTER_PEERS
// lists (the one its subject names), the signature, the shape, the origin and channel its subject names. What fails
// is a reason to count, and never reaches a decoder, a sequence or the book. Only then does the (epoch, seq) order
// (sequences.ts) tell a replay from a gap.
import { sign, verify, type KeyObject } from 'node:crypto'
import { Packr } from 'msgpackr'
import type { Channel } from './subjects.js'
import type { Peer } from './nodeKeys.js'

const packr = new Packr({ useRecords: false })
const VERSION = 1
const SIGNATURE_BYTES = 64

/** Past this a message is dropped unopened (half of nats-server's default max_payload): a node's batches stay below
 * it (link.ts splits them; 500 quote events are ~150 kB). */
export const MAX_MESSAGE_BYTES = 512 * 1024
/** events a batch may carry */
export const MAX_BATCH = 500

/** Why a message was dropped, as `cluster_messages_dropped_total{reason}` counts it. */
export const DROP_REASONS = [
  'oversized',
  'unknown_node',
  'bad_signature',
  'malformed',
  'wrong_origin',
  'replayed',
  'bad_event',
] as const
export type DropReason = (typeof DROP_REASONS)[number]

export interface Opened {
  origin: string
  /** the sender's run (epoch.ts): a larger one is a restart */
  epoch: number
  /** its position in the sender's sequence of this channel, from 1 */
  seq: number
  body: unknown
}

/** The body each channel carries: a batch of events, a heartbeat (the last events seq sent), a batch of limit hits. */
const BODY: Record<Channel, (b: unknown) => boolean> = {
  events: b => Array.isArray(b) && b.length <= MAX_BATCH,
  nodes: b => Number.isSafeInteger(b) && (b as number) >= 0,
  limits: b => Array.isArray(b),
}

export function seal(
  key: KeyObject,
  channel: Channel,
  origin: string,
  epoch: number,
  seq: number,
  body: unknown,
): Buffer {
  const payload = packr.pack([VERSION, channel, origin, epoch, seq, body])
  return Buffer.concat([sign(null, payload, key), payload])
}

/**
 * A node's batch of events as messages no peer drops for their size, numbered from `seq`: the batch whole, or
 * halved until each part fits (500 private RFQs with 100 allowed makers each are ~2.5 MB). An event too large on
 * its own still goes, alone: its peers drop it and catch up from the store at the gap.
 */
export function sealEvents(key: KeyObject, origin: string, epoch: number, seq: number, events: unknown[]): Buffer[] {
  const whole = seal(key, 'events', origin, epoch, seq, events)
  if (whole.length <= MAX_MESSAGE_BYTES || events.length < 2) return [whole]
  const first = sealEvents(key, origin, epoch, seq, events.slice(0, events.length >> 1))
  return [...first, ...sealEvents(key, origin, epoch, seq + first.length, events.slice(events.length >> 1))]
}

/** The message, or why it is dropped. `from`: the peer its subject names (undefined: a key CLUSTER_PEERS lacks). */
export function open(from: Peer | undefined, channel: Channel, bytes: Uint8Array): Opened | DropReason {
  if (bytes.length > MAX_MESSAGE_BYTES) return 'oversized'
  if (!from) return 'unknown_node'
  if (bytes.length <= SIGNATURE_BYTES) return 'bad_signature'
  const payload = bytes.subarray(SIGNATURE_BYTES)
  if (!verify(null, payload, from.verifyKey, bytes.subarray(0, SIGNATURE_BYTES))) return 'bad_signature'
  let m: unknown
  try {
    m = packr.unpack(payload)
  } catch {
    return 'malformed'
  }
  if (!Array.isArray(m) || m.length !== 6 || m[0] !== VERSION) return 'malformed'
  const [, ch, origin, epoch, seq, body] = m as [number, unknown, unknown, number, number, unknown]
  // signed by the key the subject names, but saying it is another node, or another channel
  if (ch !== channel || origin !== from.id) return 'wrong_origin'
  const numbered = Number.isSafeInteger(epoch) && epoch >= 0 && Number.isSafeInteger(seq) && seq >= 1
  if (!numbered || !BODY[channel](body)) return 'malformed'
  return { origin: from.id, epoch, seq, body }
}
