// Every lookup of the `rfqs` table by id names the RFQ's day partition (migration 101): the day comes from the id
// itself (workers/values/rfqId.ts), so the planner keeps one partition, at planning or, for a generic plan of a
// prepared statement, at the executor's start. An id made before ids carried their time has no day: its lookup
// probes every partition's primary key index instead (one probe each), and is found all the same.
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
