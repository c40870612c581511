// Every lookup of the `rfqs` table by id names the RFQ's day partition (migration 101): the day comes from the id
// itself (workers/values/rfqId.ts), so the planner keeps one partition, at planning or, for a generic plan of a
// prepared statement, at the executor's start. An id made before ids carried their time has no day: its lookup
// probes every partition's primary key index instead (one probe each), and is found all the same.
import { createHash } from 'node:crypto'
import { rfqDayOf } from '../../workers/values/index.js'
import type { Tx } from './db.js'

const col = (table: string | undefined, name: string) => (table ? `${table}.${name}` : name)

/** `id = $id and created_day = $day` (the day from the id); only `id = $id` for a legacy id. */
export function rfqIdSql(sql: Tx, id: string, table?: string) {
  const day = rfqDayOf(id)
  return day === 'unknown'
    ? sql`${sql.unsafe(col(table, 'id'))} = ${id}`
    : sql`${sql.unsafe(col(table, 'id'))} = ${id} and ${sql.unsafe(col(table, 'created_day'))} = ${day}::date`
}

/**
 * The days of a list of RFQ ids, each once; none when one of them is a legacy id, whose day is unknown (then no day
 * filter: every partition).
 */
export function rfqDays(ids: readonly string[]): string[] {
  const days = new Set(ids.map(rfqDayOf))
  return days.has('unknown') ? [] : [...days]
}

/**
 * The days of a list of RFQ ids as `created_day in ($d1, ...)`: a list of parameters, which the planner prunes by
 * (an array parameter it would not); `true` when one of them is a legacy id (rfqDays). `column`: the day's column
 * when it is not rfqs' own (`rfq_day` of quotes).
 */
export function rfqDaysSql(sql: Tx, ids: readonly string[], table?: string, column = 'created_day') {
  const days = rfqDays(ids)
  if (!days.length) return sql`true`
  return sql`${sql.unsafe(col(table, column))} in ${sql(days)}`
}

const ENGINE_ID = /^rfq_(?:[0-9a-f]{2})+$/
/**
 * An RFQ id's key as the quotes hold it, as hex: the store's `rfq_key` (migration 103), made by the group commit's
 * writer for each quote it sends, so the server need not run `rfq_key`'s regular expression for each RFQ of a commit
 * (~1 µs of its CPU a quote, issue 29). An engine's id is `rfq_` + hex and its key that hex; any other id's key is
 * 0xff and its md5 (of the id's UTF-8, as the server's `md5(text)`). test/engine/store/quoteWriter.test.ts holds the
 * two equal on every kind of id.
 */
export function rfqKeyHex(id: string): string {
  return ENGINE_ID.test(id) ? id.slice(4) : `ff${createHash('md5').update(id, 'utf8').digest('hex')}`
}
