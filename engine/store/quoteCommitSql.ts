// The group commit's two statements as fixed texts with numbered parameters, made once for each count of days a
// batch spans and sent with `sql.unsafe(text, params, { prepare: true })`.
//
// Why not postgres.js's tagged templates and fragments, as everywhere else: they rebuilt the whole statement for every
// commit (a Query, a promise never settled, for each of its six fragments, and the text joined again piece by piece),
// and that work stayed in the heap long after the commit: of each scavenge on the relay, much of what survived was the
// commit path's (in isolation, ~2.0 KB a quote survived a scavenge with the fragments against ~0.8 KB with a fixed
// text; bench/relay.js's paced scavenges copied 1.6-3.3 MB each). The texts below are what the fragments rendered, so
// the statements, their plans and their prepared names on each connection stay one per count of days.
//
// Parameters: $1-$11 the batch's columns (COLUMNS in quotes.ts, in that order: hex without its 0x, the time in ms
// since the epoch; `epoch + ms * 1 ms` is exact, the product an integer far below 2^53 µs), $12 each quote's RFQ key
// as hex (rfqKey.ts `rfqKeyHex`, the store's `rfq_key`), then, for the checked statement, the batch's size, then the
// days of its RFQs (rfqKey.ts: the planner prunes partitions by a list of parameters, not by an array). No days (an
// RFQ id made before ids carried their day): no day filter, every partition.
import { openText } from './rfqOpen.js'

/** the columns' parameters, by name, as numbered in the texts */
const R = `select * from unnest($1::text[], $2::text[], $3::bool[], $4::numeric[], $5::numeric[], $6::int8[],
        $7::numeric[], $8::int8[], $9::text[], $10::int8[], $11::int4[], $12::text[]) with ordinality
        as r (rfq_id, maker, taker_open, amount_in, amount_out, expiry, nonce, deadline, signature, received_ms, arrival,
          key, ord)`

/** `created_day in ($first::date, ...)` for `days` days, or `true` for none */
function daysText(first: number, days: number): string {
  if (days === 0) return 'true'
  return `created_day in (${Array.from({ length: days }, (_, i) => `$${first + i}::date`).join(', ')})`
}

/**
 * The batch as typed rows (`r`), its RFQs locked in id order (`locked`) and those still open in the store (`open`);
 * `withKey`: each open RFQ's key too, as the store makes it (the checked statement's test of what it inserted).
 */
function batchCtes(days: string, withKey = false): string {
  return `r as (${R}),
    locked as materialized (
      select id, created_day as day, status from rfqs where id = any($1::text[]) and ${days} order by id for update),
    open as (select id, day, status${withKey ? ', rfq_key(id) as key' : ''} from locked where ${openText('locked')})`
}

/** Each quote of an open RFQ into its RFQ's day partition, under the key the writer sent; hex made bytes by the server. */
const INSERT = `insert into quotes (expiry, deadline, received_at, rfq_day, arrival, taker_open, rfq_id, maker, amount_in,
        amount_out, nonce, signature)
      select r.expiry, r.deadline, timestamptz 'epoch' + r.received_ms * interval '1 ms', open.day, r.arrival,
        r.taker_open, decode(r.key, 'hex'), decode(r.maker, 'hex'), r.amount_in, r.amount_out, r.nonce,
        decode(r.signature, 'hex')
      from r join open on open.id = r.rfq_id`

/** quotes.ts's plain statement: parameters $1-$12, then the days */
function plainText(days: number): string {
  const d = daysText(13, days)
  return `with ${batchCtes(d)},
    ins as (${INSERT}),
    quoted as (
      update rfqs set status = 'QUOTED' from open
      where open.status = 'OPEN' and rfqs.id = open.id and rfqs.created_day = open.day and ${d})
    select r.ord, true as closed from r left join open on open.id = r.rfq_id where open.id is null`
}

/** quotes.ts's checked statement: parameters $1-$12, the batch's size ($13), then the days */
function checkedText(days: number): string {
  const d = daysText(14, days)
  return `with ${batchCtes(d, true)},
    ins as (${INSERT} on conflict (rfq_id, maker, rfq_day) do nothing returning rfq_id, rfq_day, maker),
    quoted as (
      update rfqs set status = 'QUOTED' from open
      where open.status = 'OPEN' and rfqs.id = open.id and rfqs.created_day = open.day and ${d}
        and open.key in (select ins.rfq_id from ins))
    select r.ord, open.id is null as closed from r left join open on open.id = r.rfq_id
    where (select count(*) from ins) < $13::int8 and not exists (
      select 1 from ins where ins.rfq_id = decode(r.key, 'hex') and ins.maker = decode(r.maker, 'hex'))`
}

const made = { plain: new Map<number, string>(), checked: new Map<number, string>() }

/** The statement's text for a batch whose RFQs span `days` days (0: a legacy id among them), made once. */
export function commitText(kind: 'plain' | 'checked', days: number): string {
  const texts = made[kind]
  let text = texts.get(days)
  if (text === undefined) texts.set(days, (text = kind === 'plain' ? plainText(days) : checkedText(days)))
  return text
}
