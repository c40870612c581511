// The partitioned tables on /metrics, by Prometheus' conventions (engine/metrics.ts): one series per table family (a
// fixed set: the tables partitions.ts keeps), base units (bytes, seconds), a timestamp as `_timestamp_seconds`, and
// the one count that only grows, the partitions retention dropped, a counter named `_total`. The values are read from
// the catalog by the partitions' upkeep (partitions.ts), at most a minute old, so a scrape never waits on the database.
import type { Metrics } from '../metrics.js'
import type { PartitionStats } from './partitionStats.js'
import type { RetentionRun } from './retention.js'

export interface PartitionSource {
  readonly stats: readonly PartitionStats[]
  readonly lastRetention: RetentionRun | undefined
  /** partitions dropped by retention since this process started */
  readonly droppedTotal: number
}

export function partitionMetrics(
  metrics: Pick<Metrics, 'gauge' | 'gaugeBy' | 'counter'>,
  source: PartitionSource,
  now: () => number = Date.now,
): void {
  const perTable = (name: string, help: string, value: (s: PartitionStats) => number | undefined) =>
    metrics.gaugeBy(name, help, 'table', () =>
      source.stats.flatMap(s => {
        const v = value(s)
        return v === undefined ? [] : [[s.table, v] as const]
      }),
    )
  perTable('store_partitions', 'partitions of a partitioned table (its days and its default)', s => s.partitions)
  perTable('store_rows', "rows of a partitioned table, PostgreSQL's estimate (pg_class.reltuples)", s => s.rows)
  perTable('store_bytes', 'bytes of a partitioned table: its partitions, their indexes and TOAST', s => s.bytes)
  perTable('store_oldest_partition_age_seconds', "seconds since the oldest daily partition's day began (UTC)", s =>
    s.oldestDay === undefined ? undefined : (now() - Date.parse(`${s.oldestDay}T00:00:00Z`)) / 1000,
  )
  metrics.gauge(
    'store_retention_last_run_timestamp_seconds',
    'when retention last ran to its end (Unix seconds); 0 before its first run and with retention off',
    () => (source.lastRetention ? source.lastRetention.at.getTime() / 1000 : 0),
  )
  metrics.counter(
    'store_retention_dropped_partitions_total',
    'partitions retention detached and dropped since this process started',
    () => source.droppedTotal,
  )
}
