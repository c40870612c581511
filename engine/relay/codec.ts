// Relay frames: JSON text by default, msgpack binary for clients that ask (`?encoding=msgpack` or
// the `msgpack` subprotocol). Plain maps, no msgpackr records, so any msgpack decoder reads them.
import { Packr } from 'msgpackr'
import { RelayErrors } from '../../actors/errors.js'
import { describeValue } from '../../workers/values/index.js'
import { checkInbound, type Inbound } from './contract/validate.js'
import { readQuoteSubmit } from './quoteFrame.js'

export type Encoding = 'json' | 'msgpack'

export interface RelayMessage {
  type: string
  data: unknown
}

// int64AsType 'string': a 64-bit integer from a client decodes to a string, never a bigint (which no
// JSON path can serialise); no records or structures, so any msgpack decoder reads our frames.
const packr = new Packr({ useRecords: false, mapsAsObjects: true, int64AsType: 'string' })

export function encode(enc: Encoding, msg: RelayMessage): string | Uint8Array {
  return enc === 'json' ? JSON.stringify(msg) : packr.pack(msg)
}

/** The frame as a value; throws with a short reason a client can read. */
export function decode(enc: Encoding, frame: ArrayBuffer, isBinary: boolean): unknown {
  const bytes = Buffer.from(frame)
  if (enc === 'msgpack' && isBinary) return packr.unpack(bytes)
  return JSON.parse(bytes.toString('utf8'))
}

/**
 * A frame's bytes a character each, for quoteFrame.ts: straight from the ArrayBuffer, where a Buffer made over it
 * first was ~100 bytes a frame (issue 29). WHATWG's 'latin1' is windows-1252, which reads bytes 0x80-0x9f as other
 * characters than Latin-1; the fast read takes printable ASCII only, so a frame holding any such byte is refused by
 * it either way and parsed in full (as UTF-8) below.
 */
const latin1 = new TextDecoder('latin1')

/**
 * A client's frame, decoded and checked against its message's schema (the AsyncAPI contract). A QUOTE_SUBMIT text
 * frame as makers write it is read in one pass (quoteFrame.ts) to the same verdict; any other frame is parsed.
 */
export function decodeInbound(enc: Encoding, frame: ArrayBuffer, isBinary: boolean): Inbound {
  const data = readQuoteFrame(enc, frame, isBinary)
  return data ? { ok: true, type: 'QUOTE_SUBMIT', data, wellFormed: true } : parseInbound(enc, frame, isBinary)
}

/**
 * The data of a QUOTE_SUBMIT text frame as makers write it, read in one pass (quoteFrame.ts), every field well formed
 * (`READ_WELL_FORMED` is what the schema would add); undefined for any other frame, which `parseInbound` takes.
 */
export function readQuoteFrame(
  enc: Encoding,
  frame: ArrayBuffer,
  isBinary: boolean,
): Record<string, unknown> | undefined {
  return !isBinary || enc === 'json' ? readQuoteSubmit(latin1.decode(frame)) : undefined
}

/** the schema's verdict on a frame `readQuoteFrame` read: one object for all, where decodeInbound makes one a frame */
export const READ_WELL_FORMED: { readonly wellFormed: true } = Object.freeze({ wellFormed: true })

/** `decodeInbound` for a frame `readQuoteFrame` did not read: parsed in full, then checked against its schema */
export function parseInbound(enc: Encoding, frame: ArrayBuffer, isBinary: boolean): Inbound {
  let msg: unknown
  try {
    msg = decode(enc, frame, isBinary)
  } catch (e) {
    const detail = e instanceof Error ? describeValue(e.message, 120) : 'unreadable frame'
    return { ok: false, error: RelayErrors.parseError(detail) }
  }
  return checkInbound(msg)
}

/** Encodes one message at most once per encoding, and only when someone will receive it. */
export function lazyFrames(msg: RelayMessage): (enc: Encoding) => string | Uint8Array {
  const cache: Partial<Record<Encoding, string | Uint8Array>> = {}
  return enc => (cache[enc] ??= encode(enc, msg))
}
