// The relay bench's observer reads every QUOTE_BROADCAST only for its `${rfqId}:${maker}`, the key of its send time.
// Parsing each cost the load generator ~4 µs a quote (docs/benchmarks.md 0.14.9) on the cores it shares with the
// relay it measures, so the key is read off the bytes where the relay lays them out (engine/relay/
// quoteBroadcastBytes.ts: the spec's field order, no whitespace), and a frame laid out otherwise is parsed.

const ID_AT = Buffer.byteLength('{"type":"QUOTE_BROADCAST","data":{"rfqId":"'),
  MAKER_MARK = Buffer.from('","quote":{"maker":"'),
  ADDRESS_LENGTH = 42

/** the key where the frame is laid out as the relay writes it, else undefined */
export function keyFromLayout(raw: Buffer): string | undefined {
  const idEnd = raw.indexOf(0x22, ID_AT)
  const makerAt = idEnd + MAKER_MARK.length
  if (idEnd <= ID_AT || MAKER_MARK.compare(raw, idEnd, makerAt) !== 0 || raw[makerAt + ADDRESS_LENGTH] !== 0x22)
    return undefined
  return `${raw.toString('latin1', ID_AT, idEnd)}:${raw.toString('latin1', makerAt, makerAt + ADDRESS_LENGTH)}`
}

/** A QUOTE_BROADCAST's `${rfqId}:${maker}`. */
export function broadcastKey(raw: Buffer): string {
  const key = keyFromLayout(raw)
  if (key !== undefined) return key
  const m = JSON.parse(raw.toString()) as { data: { rfqId: string; quote: { maker: string } } }
  return `${m.data.rfqId}:${m.data.quote.maker}`
}
