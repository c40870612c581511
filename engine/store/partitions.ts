// Daily partitions, made ahead of need: at the engine's start and then hourly, under an advisory lock so the nodes of
// a cluster make each once. A day is a range [day, day + 1) of the partition key (an RFQ's creation day, UTC; a
// quote's RFQ's; an activity entry's time): bounds written as UTC midnights, which a date key reads as its day.
// A day whose rows already sit in the default partition (its partition was missing when they came) is left there:
// making it would have to move them under a lock; an operator sees them as the default partition's rows.
import type { Logger } from 'pino'
import type { Sql } from './db.js'
import { runRetention, type RetentionRun } from './retention.js'
import { readPartitionStats, type PartitionStats } from './partitionStats.js'

/** The tables partitioned by day, each with its key: what `ensurePartitions` keeps ahead. */
export const DAILY: readonly { table: string; key: string }[] = [
  { table: 'rfqs', key: 'created_day' },
  { table: 'quotes', key: 'rfq_day' },
  { table: 'agent_activity', key: 'at' },
]

const LOCK = 7318202 // beside the migrations' 7318201
const DAY_MS = 86_400_000

export const dayOf = (at: Date | number): string => new Date(at).toISOString().slice(0, 10)
export const partitionName = (table: string, day: string) => `${table}_p${day.replaceAll('-', '')}`

/** Makes the partitions of `now`'s UTC day and the `ahead` days after it that are missing; returns those it made. */
export async function ensurePartitions(
  sql: Sql,
  { now = Date.now(), ahead = 3 }: { now?: number; ahead?: number } = {},
): Promise<string[]> {
  const made: string[] = []
  await sql.begin(async tx => {
    await tx`select pg_advisory_xact_lock(${LOCK})`
    for (const { table, key } of DAILY) {
      const existing = new Set(
        (
          await tx`
        select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
        where p.relname = ${table}`
        ).map(r => r.relname as string),
      )
      for (let i = 0; i <= ahead; i++) {
        const day = dayOf(now + i * DAY_MS),
          next = dayOf(now + (i + 1) * DAY_MS),
          [from, to] = [`${day} 00:00:00+00`, `${next} 00:00:00+00`],
          name = partitionName(table, day)
        if (existing.has(name)) continue
        const [held] = await tx.unsafe(`select 1 from ${table}_default where ${key} >= $1 and ${key} < $2 limit 1`, [
          from,
          to,
        ])
        if (held) continue
        await tx.unsafe(`create table ${name} partition of ${table} for values from ('${from}') to ('${to}')`)
        made.push(name)
      }
    }
  })
  return made
}

/** What the metrics read (partitionMetrics.ts). */
export interface Upkeep {
  /** the last retention run (undefined before the first) */
  readonly lastRetention: RetentionRun | undefined
  /** partitions dropped by retention since start */
  readonly droppedTotal: number
  /** per table family, read every `statsEveryMs` (empty until the first read) */
  readonly stats: readonly PartitionStats[]
  stop(): void
}

/**
 * Every `everyMs`: partitions made ahead, then the days past retention dropped (retention.ts); every `statsEveryMs`,
 * the tables' sizes read for the metrics. A failure (the database down) is logged and waits for the next turn.
 */
export function keepPartitionsAhead(
  sql: Sql,
  {
    everyMs = 3_600_000,
    statsEveryMs = 60_000,
    retentionDays = 0,
    rfqsRetentionDays = 0,
    archiveDir,
    log,
  }: {
    everyMs?: number
    statsEveryMs?: number
    retentionDays?: number
    rfqsRetentionDays?: number
    archiveDir?: string | undefined
    log: Logger
  },
): Upkeep {
  let lastRetention: RetentionRun | undefined
  let droppedTotal = 0
  let stats: readonly PartitionStats[] = []
  const sample = async () => {
    try {
      stats = await readPartitionStats(
        sql,
        DAILY.map(d => d.table),
      )
    } catch (err) {
      log.debug({ err }, 'partition stats unread: read again at the next turn')
    }
  }
  const turn = async () => {
    try {
      await ensurePartitions(sql)
      if (retentionDays > 0 || rfqsRetentionDays > 0) {
        lastRetention = await runRetention(sql, { days: retentionDays, rfqsDays: rfqsRetentionDays, archiveDir })
        droppedTotal += lastRetention.dropped.length
        if (lastRetention.unarchived?.length) log.warn(lastRetention, 'retention: partitions kept, their export failed')
        else if (lastRetention.dropped.length || lastRetention.skipped.length) log.info(lastRetention, 'retention')
      }
    } catch (err) {
      log.warn({ err }, 'partition upkeep failed: tried again at the next turn')
    }
    await sample()
  }
  void turn()
  const timers = [setInterval(() => void turn(), everyMs), setInterval(() => void sample(), statsEveryMs)]
  for (const t of timers) t.unref()
  return {
    get lastRetention() {
      return lastRetention
    },
    get droppedTotal() {
      return droppedTotal
    },
    get stats() {
      return stats
    },
    stop: () => timers.forEach(clearInterval),
  }
}
