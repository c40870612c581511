// The lifetime rule (workers/values/rfqStatus.ts) as SQL, for every query of the `rfqs` table: open is OPEN or QUOTED,
// live is open and before its own expiry by Node's clock (the caller's `nowMs`; PostgreSQL's now() never judges it).
// The statuses go in as literals, not parameters: the partial indexes (migrations 010, 094, 095, 097) are used only
// when a query's condition names the very values of their predicate.
import { OPEN_STATUSES, toUnixSeconds } from '../../workers/values/index.js'
import type { Tx } from './db.js'

const IN_OPEN = `in (${OPEN_STATUSES.map(s => `'${s}'`).join(', ')})`

/** `status in ('OPEN', 'QUOTED')`; `table`: the alias the query gives `rfqs` */
export function openSql(sql: Tx, table?: string) {
  return sql.unsafe(openText(table))
}

/** openSql's condition as text, for a statement written whole (quoteCommitSql.ts) */
export function openText(table?: string): string {
  return `${table ? `${table}.` : ''}status ${IN_OPEN}`
}

/** Open and before its own expiry at `nowMs`: what is live. */
export function liveSql(sql: Tx, nowMs: number, table?: string) {
  return sql`${openSql(sql, table)} and ${sql.unsafe(table ? `${table}.expiry` : 'expiry')} > ${toUnixSeconds(nowMs)}`
}

/** Open, but its expiry has passed at `nowMs`: expired, though no end is stored yet. */
export function expiredUnstoredSql(sql: Tx, nowMs: number) {
  return sql`${openSql(sql)} and expiry <= ${toUnixSeconds(nowMs)}`
}
