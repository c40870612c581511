// The partitioned tables on /metrics, by Prometheus' conventions: one series per table family (a fixed set: the
// tables partitions.ts keeps), base units (bytes, seconds), a timestamp as `_timestamp_seconds`, and the one count
// that only grows, the partitions retention dropped, a counter named `_total`. The values are read from the catalog
// by the partitions' upkeep (partitions.ts), at most a minute old, so a scrape never waits on the database.
import { Counter, Gauge, type Registry } from 'prom-client'
import type { PartitionStats } from './partitionStats.js'
import type { RetentionRun } from './retention.js'

export interface PartitionSource {
  readonly stats: readonly PartitionStats[]
  readonly lastRetention: RetentionRun | undefined
  /** partitions dropped by retention since this process started */
  readonly droppedTotal: number
}

export function partitionMetrics(registry: Registry, source: PartitionSource, now: () => number = Date.now): void {
  const registers = [registry]
  const perTable = (name: string, help: string, value: (s: PartitionStats) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['table'],
      registers,
      collect() {
        this.reset()
        for (const s of source.stats) {
          const v = value(s)
          if (v !== undefined) this.set({ table: s.table }, v)
        }
      },
    })
  perTable('store_partitions', 'partitions of a partitioned table (its days and its default)', s => s.partitions)
  perTable('store_rows', "rows of a partitioned table, PostgreSQL's estimate (pg_class.reltuples)", s => s.rows)
  perTable('store_bytes', 'bytes of a partitioned table: its partitions, their indexes and TOAST', s => s.bytes)
  perTable('store_oldest_partition_age_seconds', "seconds since the oldest daily partition's day began (UTC)", s =>
    s.oldestDay === undefined ? undefined : (now() - Date.parse(`${s.oldestDay}T00:00:00Z`)) / 1000,
  )
  new Gauge({
    name: 'store_retention_last_run_timestamp_seconds',
    help: 'when retention last ran to its end (Unix seconds); 0 before its first run and with retention off',
    registers,
    collect() {
      this.set(source.lastRetention ? source.lastRetention.at.getTime() / 1000 : 0)
    },
  })
  // reset then inc: a counter has no set, and the count is kept by the upkeep
  new Counter({
    name: 'store_retention_dropped_partitions_total',
    help: 'partitions retention detached and dropped since this process started',
    registers,
    collect() {
      this.reset()
      this.inc(source.droppedTotal)
    },
  })
}
