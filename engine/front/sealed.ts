// Positions shown to clients as opaque tokens (relay cursors and ETags, SSE event ids). A token that carried a
// raw sequence would count every change, the private ones included, for anyone who compares two of them.
// Sealed, a token says only "the same position" or "another one", and only this process can open it: AES-128
// over one block (8 tag bytes, then the sequence) under a key drawn at start. A token of another process (a
// restart, another node of a cluster) opens to noise, which the tag tells apart from ours.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

const KEY = randomBytes(16)
const TAG = Buffer.from('rfq-seq1')

/** The sealed token of a sequence: 22 base64url characters, the same for the same sequence in this process. */
export function sealSeq(seq: number): string {
  const block = Buffer.alloc(16)
  TAG.copy(block)
  block.writeBigUInt64BE(BigInt(seq), 8)
  const c = createCipheriv('aes-128-ecb', KEY, null).setAutoPadding(false)
  return Buffer.concat([c.update(block), c.final()]).toString('base64url')
}

/** The sequence a token seals; undefined when it is not one of this process's (another process's, or made up). */
export function openSeq(token: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{22}$/.test(token)) return undefined
  const d = createDecipheriv('aes-128-ecb', KEY, null).setAutoPadding(false)
  const block = Buffer.concat([d.update(Buffer.from(token, 'base64url')), d.final()])
  if (!block.subarray(0, 8).equals(TAG)) return undefined
  const seq = block.readBigUInt64BE(8)
  return seq <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(seq) : undefined
}

/** A strong ETag naming these parts that reveals none of them (a keyed hash). */
export function sealedEtag(...parts: (string | number)[]): string {
  return `"${createHmac('sha256', KEY).update(parts.join('\n')).digest('base64url').slice(0, 22)}"`
}
