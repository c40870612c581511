// What an operator sees of the partitioned tables (issue 30, point 5): per table family, its partitions, rows, bytes
// and its oldest day. Read from the catalog, never by counting: at 5,000 quotes/s a count(*) would read hundreds of
// millions of rows, so rows are PostgreSQL's own estimate (pg_class.reltuples, kept by autovacuum's ANALYZE; exact
// right after one on a quiet table), and bytes are each partition's table, indexes and TOAST.
import type { Sql } from './db.js'

export interface PartitionStats {
  table: string
  /** the daily partitions and the default one */
  partitions: number
  /** estimated (pg_class.reltuples); a partition never analyzed counts 0 */
  rows: number
  bytes: number
  /** the first day of the oldest daily partition (UTC, YYYY-MM-DD); undefined with none */
  oldestDay: string | undefined
}

/** `tables`: the partitioned tables (partitions.ts's DAILY, which passes them) */
export async function readPartitionStats(sql: Sql, tables: readonly string[]): Promise<PartitionStats[]> {
  const out: PartitionStats[] = []
  for (const table of tables) {
    const parts = await sql<{ name: string; rows: number; bytes: string }[]>`
      select c.relname as name, greatest(c.reltuples, 0)::float8 as rows, pg_total_relation_size(c.oid)::int8 as bytes
      from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
      where p.relname = ${table}`
    const days = parts.map(p => /_p(\d{4})(\d{2})(\d{2})$/.exec(p.name)).filter(m => m !== null)
    const oldest = days.map(m => `${m[1]}-${m[2]}-${m[3]}`).sort()[0]
    out.push({
      table,
      partitions: parts.length,
      rows: parts.reduce((n, p) => n + p.rows, 0),
      bytes: parts.reduce((n, p) => n + Number(p.bytes), 0),
      oldestDay: oldest,
    })
  }
  return out
}
