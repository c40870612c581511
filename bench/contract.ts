// What the relay's schema check costs per QUOTE_SUBMIT frame on the main thread: the frame decoded and
// checked as before the contract (decode, the object check, every grammar check on the RFQ's actor) against
// as now (decode, the ajv-compiled schema, and the actor's rules only, the grammar being the schema's), in
// JSON and msgpack, with the schema alone beside them; and a JSON frame read in one pass against parsed in full.
// Run: node dist/bench/contract.js
import { pathToFileURL } from 'node:url'
import { Bench } from 'tinybench'
import { Packr } from 'msgpackr'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { decode, decodeInbound, type Encoding } from '../engine/relay/codec.js'
import { checkInbound } from '../engine/relay/contract/validate.js'
import { checkQuote } from '../actors/quoteChecks.js'
import { EXAMPLE_QUOTE, exampleSignature } from '../engine/relay/contract/examples.js'

const rfq = {
  taker: EXAMPLE_QUOTE.taker,
  tokenIn: EXAMPLE_QUOTE.tokenIn,
  tokenOut: EXAMPLE_QUOTE.tokenOut,
  allowedMakers: [],
}
const NOW = 1_900_000_000
const domain = {
  name: 'SpotRFQ',
  version: '1',
  chainId: 31337,
  verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3' as const,
}

function frames(): Record<Encoding, ArrayBuffer> {
  const msg = {
    type: 'QUOTE_SUBMIT',
    data: { rfqId: 'rfq_5f0c2a9e8b7d4c3a2f1e0d9c8b7a6f5e', quote: EXAMPLE_QUOTE, signature: exampleSignature(domain) },
  }
  const buf = (b: Uint8Array) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
  return {
    json: buf(Buffer.from(JSON.stringify(msg))),
    msgpack: buf(new Packr({ useRecords: false, mapsAsObjects: true }).pack(msg)),
  }
}

/** Before: the frame decoded, checked to be an object, and every grammar check run by the actor. */
function before(enc: Encoding, frame: ArrayBuffer): boolean {
  const msg = decode(enc, frame, enc === 'msgpack') as { type?: unknown; data?: { quote?: Record<string, unknown> } }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg) || msg.type !== 'QUOTE_SUBMIT') return false
  return checkQuote(rfq, msg.data!.quote!, NOW).ok
}

/** Now: decoded and checked against the schema by the codec; the actor runs the rules only. */
function after(enc: Encoding, frame: ArrayBuffer): boolean {
  const v = decodeInbound(enc, frame, enc === 'msgpack')
  if (!v.ok || v.type !== 'QUOTE_SUBMIT' || !v.wellFormed) return false
  return checkQuote(rfq, v.data.quote as Record<string, unknown>, NOW, true).ok
}

export async function runContractBench(timeMs = 1500): Promise<{ name: string; medianNs: number; meanNs: number }[]> {
  const f = frames()
  const parsed = decode('json', f.json, false)
  if (!before('json', f.json) || !after('json', f.json) || !after('msgpack', f.msgpack))
    throw new Error('the bench frame is refused')
  const bench = new Bench({ time: timeMs, warmup: true })
  for (const enc of ['json', 'msgpack'] as const) {
    bench.add(`${enc}: before (decode + object check + grammar on the actor)`, () => {
      before(enc, f[enc])
    })
    bench.add(`${enc}: now (decode + schema + rules on the actor)`, () => {
      after(enc, f[enc])
    })
  }
  // the relay's decode of a JSON frame, both ways (issue 29): as makers write it, read by one expression
  // (engine/relay/quoteFrame.ts), against what every other frame takes, JSON.parse and the schema
  bench.add('json: decodeInbound, read in one pass', () => {
    decodeInbound('json', f.json, false)
  })
  bench.add('json: parsed in full (text, JSON.parse, schema)', () => {
    checkInbound(decode('json', f.json, false))
  })
  bench.add('schema check alone (ajv, a decoded frame)', () => {
    checkInbound(parsed)
  })
  bench.add('grammar + rules alone (checkQuote)', () => {
    checkQuote(rfq, (parsed as { data: { quote: Record<string, unknown> } }).data.quote, NOW)
  })
  bench.add('rules alone (checkQuote, schema-checked)', () => {
    checkQuote(rfq, (parsed as { data: { quote: Record<string, unknown> } }).data.quote, NOW, true)
  })
  await bench.run()
  return bench.tasks.map(t => {
    const r = t.result as { latency?: { p50?: number; mean?: number } } | undefined
    return {
      name: t.name,
      medianNs: Math.round((r?.latency?.p50 ?? NaN) * 1e6),
      meanNs: Math.round((r?.latency?.mean ?? NaN) * 1e6),
    }
  })
}

async function main(): Promise<void> {
  parseCli(
    'contract.js',
    benchUsage(
      'contract',
      "The relay schema check's cost per QUOTE_SUBMIT frame on the main thread, before and after.",
    ),
    {},
  )
  const rows = await runContractBench()
  console.log('per QUOTE_SUBMIT frame, main thread (ns; median and mean of tinybench samples)')
  for (const r of rows)
    console.log(
      `  ${r.name.padEnd(62)} median ${String(r.medianNs).padStart(6)}   mean ${String(r.meanNs).padStart(6)}`,
    )
  const row = (s: string) => rows.find(r => r.name.startsWith(s))!
  for (const enc of ['json', 'msgpack']) {
    console.log(
      `  ${enc}: the contract adds ${row(`${enc}: now`).medianNs - row(`${enc}: before`).medianNs} ns per frame (median)`,
    )
  }
  const ratio = row('json: decodeInbound').medianNs / row('json: parsed in full').medianNs
  console.log(`  json: the one-pass read costs ${ratio.toFixed(2)} of the full parse and schema (median)`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
