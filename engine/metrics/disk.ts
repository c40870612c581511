// The data directory's filesystem (the embedded PostgreSQL lives there), for the disk-filling alert
// (deploy/prometheus/rules.yml DiskFilling): read at scrape time, one statfs call. A directory that cannot be read
// (not made yet) leaves the series out rather than reporting an empty disk.
import { statfsSync } from 'node:fs'
import { Gauge, type Registry } from 'prom-client'

export function diskGauges(registry: Registry, dataDir: string): void {
  const gauge = (name: string, help: string, of: (s: { bavail: number; blocks: number; bsize: number }) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        try {
          this.set(of(statfsSync(dataDir)))
        } catch {
          this.remove()
        }
      },
    })
  gauge(
    'engine_data_dir_available_bytes',
    "bytes free to this process on DATA_DIR's filesystem",
    s => s.bavail * s.bsize,
  )
  gauge('engine_data_dir_size_bytes', "the size of DATA_DIR's filesystem", s => s.blocks * s.bsize)
}
