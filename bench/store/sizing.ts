// Where a stored quote's bytes go: its partitions' heap (with TOAST, free-space and visibility maps) and indexes over
// their rows (pg_total_relation_size), each column's average stored size (pg_column_size, on a sample of one
// partition), and an RFQ's bytes beside. What docs/operations.md's sizing is read from.
import type { Sql } from '../../engine/store/db.js'

export interface Sizing {
  rows: number
  heapBytes: number
  indexBytes: number
  columns: { name: string; bytes: number }[]
  /** the whole row as stored in the heap: its columns, their alignment and the tuple's header */
  tupleBytes: number
  rfqs: { rows: number; bytes: number }
}

export async function quoteSizing(sql: Sql, partitions: readonly string[], rows: number): Promise<Sizing> {
  const [sizes] = await sql`
    select coalesce(sum(pg_table_size(p::regclass)), 0)::float8 as heap,
      coalesce(sum(pg_indexes_size(p::regclass)), 0)::float8 as index
    from unnest(${sql.array(partitions as string[])}::text[]) p`
  const names = (
    await sql`select attname from pg_attribute where attrelid = 'quotes'::regclass and attnum > 0
      and not attisdropped order by attnum`
  ).map(r => String(r.attname))
  const one = partitions[Math.floor(partitions.length / 2)]!
  const avgs = names.map(n => `avg(pg_column_size("${n}"))::float8 as "${n}"`).join(', ')
  // about 50,000 rows of one day (all of a small one): enough for averages to a byte
  const percent = Math.min(100, (50_000 * 100 * partitions.length) / Math.max(1, rows))
  const [col] = await sql.unsafe(
    `select ${avgs}, avg(pg_column_size(t.*))::float8 as "(tuple)" from ${one} t
     tablesample system (${percent}) repeatable (1)`,
  )
  const [rfq] = await sql`
    select (select sum(pg_total_relation_size(relid)) from pg_partition_tree('rfqs') where isleaf)::float8 as bytes,
      (select count(*) from rfqs)::float8 as rows`
  return {
    rows,
    heapBytes: sizes!.heap,
    indexBytes: sizes!.index,
    columns: names.map(name => ({ name, bytes: Number(col![name]) })),
    tupleBytes: Number(col!['(tuple)']) + 24 + 4, // + the tuple header and its line pointer in the page
    rfqs: { rows: rfq!.rows, bytes: rfq!.bytes },
  }
}

export function sizingLines(s: Sizing): string[] {
  const per = (b: number) => (b / s.rows).toFixed(0)
  return [
    `bytes per stored quote: ${per(s.heapBytes + s.indexBytes)} B`,
    `  heap (with TOAST, free-space and visibility maps): ${per(s.heapBytes)} B a quote; ` +
      `indexes (the primary key): ${per(s.indexBytes)} B a quote; ${s.rows.toLocaleString()} quotes, ` +
      `${((s.heapBytes + s.indexBytes) / 2 ** 30).toFixed(2)} GiB`,
    `  a heap tuple: ${s.tupleBytes.toFixed(0)} B (its columns, their alignment, the 24-B header, a 4-B line pointer)`,
    `  per column (avg pg_column_size): ${s.columns.map(c => `${c.name} ${c.bytes.toFixed(1)}`).join(', ')}`,
    `bytes per stored RFQ (rfqs with its indexes): ${(s.rfqs.bytes / s.rfqs.rows).toFixed(0)} B ` +
      `(${s.rfqs.rows.toLocaleString()} RFQs)`,
  ]
}
