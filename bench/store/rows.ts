// The store bench's rows, made in ONE place: a day of RFQs (the engine's Rfq shape, ids from its own newRfqId) and
// their quotes (the AcceptedQuote shape the relay stores), written with COPY FROM STDIN as a stream (never a whole day
// of quotes in memory). A past day is loaded the fast way: its partition made as a table of its own in one
// transaction (COPY FREEZE: no hint-bit rewrite on first read), its primary key built once after the load, then
// attached to `quotes` (which checks its range in one pass); the day's RFQs the same way, as its `rfqs` partition.
// A day that already has its partition (today) takes its rows through the parent tables.
// Values are what a venue stores: 42-character lowercase addresses, wei amounts of 18-24 digits, 65-byte signatures.
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Sql } from '../../engine/store/db.js'
import { partitionName } from '../../engine/store/partitions.js'
import { newRfqId } from '../../engine/rfq/request.js'
import { ZERO_ADDRESS } from '../../workers/values/index.js'
import type { AcceptedQuote, Address, Rfq } from '../../actors/rfqTypes.js'

const DAY_MS = 86_400_000
const MAKERS = 50
const TAKERS = 20_000
const TOKENS = 24
const BATCH = 2000 // rows per chunk written to the COPY stream

/** A small, fast PRNG (xorshift32): the rows are arbitrary, only their shape matters. */
function prng(seed: number): () => number {
  let x = seed | 0 || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
}
const hex = (rand: () => number, chars: number) => {
  let s = ''
  while (s.length < chars)
    s += Math.floor(rand() * 2 ** 32)
      .toString(16)
      .padStart(8, '0')
  return s.slice(0, chars)
}
const pool = (n: number, seed: number) => {
  const r = prng(seed)
  return Array.from({ length: n }, (): Address => `0x${hex(r, 40)}`)
}
const makers = pool(MAKERS, 11),
  takers = pool(TAKERS, 12),
  tokens = pool(TOKENS, 13)
/** 65-byte signatures cut from one long random run at varying offsets: cheap, and as incompressible as real ones */
const SIG_SOURCE = hex(prng(14), 1 << 16)
/** an amount in wei: 1 to 100,000 tokens of 18 decimals, to the wei */
const wei = (rand: () => number) =>
  BigInt(Math.floor(rand() * 1e5) + 1) * 10n ** 18n + BigInt(Math.floor(rand() * 1e15))

export interface DayRows {
  day: string
  rfqs: number
  quotes: number
  /** a sample of the day's RFQ ids (for reads of old days) */
  sample: string[]
}

/** `n` RFQs created over `spanMs` from `start`, each already ended (EXPIRED by its expiry). */
export function rfqsOver(start: number, spanMs: number, n: number, seed: number): Rfq[] {
  const rand = prng(seed)
  return Array.from({ length: n }, (_, i) => {
    const createdAt = new Date(start + Math.floor((i * spanMs) / n))
    const a = Math.floor(rand() * TOKENS)
    return {
      id: newRfqId(createdAt.getTime()), // carries its instant: every lookup by id reads one rfqs partition
      taker: takers[Math.floor(rand() * TAKERS)]!,
      tokenIn: tokens[a]!,
      tokenOut: tokens[(a + 1 + Math.floor(rand() * (TOKENS - 1))) % TOKENS]!,
      kind: 0,
      amountIn: wei(rand),
      amountOut: null,
      expiry: Math.floor(createdAt.getTime() / 1000) + 60,
      visibility: 'public',
      allowedMakers: [],
      shareToken: null,
      createdAt,
      agentId: null,
    }
  })
}

/** The quotes `perRfq` makers gave one RFQ, as the relay accepted them. */
function quotesOf(rfq: Rfq, perRfq: number, rand: () => number): AcceptedQuote[] {
  const first = Math.floor(rand() * MAKERS)
  return Array.from({ length: perRfq }, (_, m) => {
    const at = rfq.createdAt.getTime() + 50 + Math.floor(rand() * 2000)
    const offset = Math.floor(rand() * (SIG_SOURCE.length - 130))
    return {
      rfqId: rfq.id,
      signature: `0x${SIG_SOURCE.slice(offset, offset + 128)}${rand() < 0.5 ? '1b' : '1c'}`,
      receivedAtMs: at,
      quote: {
        maker: makers[(first + m) % MAKERS]!,
        taker: rfq.taker,
        tokenIn: rfq.tokenIn,
        tokenOut: rfq.tokenOut,
        amountIn: String(rfq.amountIn),
        amountOut: String(wei(rand)),
        expiry: rfq.expiry,
        nonce: String(at * 1000 + m),
        deadline: rfq.expiry,
      },
    }
  })
}

const RFQ_COPY =
  'rfqs (id, taker, token_in, token_out, kind, amount_in, amount_out, expiry, visibility, allowed_makers, ' +
  'status, created_at, ended_at, ended_by, created_day)'
const rfqLine = (r: Rfq) =>
  `${r.id}\t${r.taker}\t${r.tokenIn}\t${r.tokenOut}\t${r.kind}\t${r.amountIn ?? '\\N'}\t${r.amountOut ?? '\\N'}\t` +
  `${r.expiry}\t${r.visibility}\t{}\tEXPIRED\t${r.createdAt.toISOString()}\t` +
  `${new Date(r.expiry * 1000).toISOString()}\texpiry\t${r.createdAt.toISOString().slice(0, 10)}\n`

// the layout of migration 103: the id, maker and signature as bytes (COPY's text form of bytea: \\x + hex), the
// taker and pair left to the RFQ's row, each quote numbered in its RFQ's arrival order
const QUOTE_COLS =
  '(rfq_day, arrival, taker_open, rfq_id, maker, amount_in, amount_out, expiry, nonce, deadline, signature, received_at)'
const quoteLine = (day: string, a: AcceptedQuote, arrival: number) => {
  const q = a.quote
  return (
    `${day}\t${arrival}\t${q.taker === ZERO_ADDRESS ? 't' : 'f'}\t\\\\x${a.rfqId.slice(4)}\t\\\\x${q.maker.slice(2)}\t` +
    `${q.amountIn}\t${q.amountOut}\t${q.expiry}\t${q.nonce}\t${q.deadline}\t\\\\x${a.signature.slice(2)}\t` +
    `${new Date(a.receivedAtMs).toISOString()}\n`
  )
}

async function* chunks<T>(items: readonly T[], line: (x: T) => string): AsyncGenerator<string> {
  for (let i = 0; i < items.length; i += BATCH) {
    let s = ''
    for (const x of items.slice(i, i + BATCH)) s += line(x)
    yield s
  }
}

async function* quoteChunks(day: string, rfqs: readonly Rfq[], perRfq: number, seed: number): AsyncGenerator<string> {
  const rand = prng(seed)
  let s = '',
    n = 0
  for (const r of rfqs) {
    for (const [i, q] of quotesOf(r, perRfq, rand).entries()) s += quoteLine(day, q, i + 1)
    if ((n += perRfq) >= BATCH) {
      yield s
      s = ''
      n = 0
    }
  }
  if (s) yield s
}

async function copyIn(sql: Sql, target: string, source: AsyncGenerator<string>): Promise<void> {
  const sink = await sql.unsafe(`copy ${target} from stdin`).writable()
  await pipeline(Readable.from(source), sink)
}

/**
 * One past day (UTC, `daysAgo` before today) of `quotes` quotes over quotes/`perRfq` RFQs: the RFQs and the quotes
 * each into a partition of their own, loaded before their indexes are built, then attached.
 */
export async function loadPastDay(sql: Sql, daysAgo: number, quotes: number, perRfq: number): Promise<DayRows> {
  const dayStart = Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS
  const day = new Date(dayStart).toISOString().slice(0, 10),
    next = new Date(dayStart + DAY_MS).toISOString().slice(0, 10)
  const rfqs = rfqsOver(dayStart, DAY_MS, Math.ceil(quotes / perRfq), daysAgo)
  const range = `for values from ('${day}') to ('${next}')`
  // the day's RFQs into a table of their own, attached as its rfqs partition: the parent's indexes are built on attach
  const rfqPart = partitionName('rfqs', day)
  await sql.begin(async tx => {
    await tx.unsafe('set local maintenance_work_mem = 1048576') // 1 GB (kB): each index's sort in memory
    await tx.unsafe(`create table ${rfqPart} (like rfqs including defaults including constraints)`)
    const sink = await tx.unsafe(`copy ${RFQ_COPY.replace(/^rfqs/, rfqPart)} from stdin with (freeze)`).writable()
    await pipeline(Readable.from(chunks(rfqs, rfqLine)), sink)
    await tx.unsafe(`alter table rfqs attach partition ${rfqPart} ${range}`)
  })
  await sql.unsafe(`analyze ${rfqPart}`)
  const name = partitionName('quotes', day)
  await sql.begin(async tx => {
    await tx.unsafe('set local maintenance_work_mem = 1048576') // 1 GB (kB): the key's sort in memory
    await tx.unsafe(`create table ${name} (like quotes including defaults including constraints)`)
    const sink = await tx.unsafe(`copy ${name} ${QUOTE_COLS} from stdin with (freeze)`).writable()
    await pipeline(Readable.from(quoteChunks(day, rfqs, perRfq, daysAgo + 1000)), sink)
    await tx.unsafe(`alter table ${name} add primary key (rfq_id, maker, rfq_day)`)
    await tx.unsafe(`alter table quotes attach partition ${name} ${range}`)
  })
  await sql.unsafe(`analyze ${name}`)
  const step = Math.max(1, Math.floor(rfqs.length / 100))
  return {
    day,
    rfqs: rfqs.length,
    quotes: rfqs.length * perRfq,
    sample: rfqs.filter((_, i) => i % step === 0).map(r => r.id),
  }
}

/** Ended RFQs of today with their quotes, through the parent tables (today's partition exists: the engine's). */
export async function loadToday(sql: Sql, rfqCount: number, perRfq: number): Promise<DayRows> {
  const dayStart = Math.floor(Date.now() / DAY_MS) * DAY_MS
  const day = new Date(dayStart).toISOString().slice(0, 10)
  // created since midnight, and stored ended: the engine's book does not take them back as live
  const rfqs = rfqsOver(dayStart, Math.max(1000, Date.now() - dayStart), rfqCount, 7)
  await copyIn(sql, RFQ_COPY, chunks(rfqs, rfqLine))
  await copyIn(sql, `quotes ${QUOTE_COLS}`, quoteChunks(day, rfqs, perRfq, 99))
  await sql.unsafe('analyze rfqs')
  return { day, rfqs: rfqs.length, quotes: rfqs.length * perRfq, sample: rfqs.map(r => r.id) }
}
