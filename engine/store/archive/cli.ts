// `make archive ARGS="..."` (node dist/engine/store/archive/cli.js): list the archives (quotes, rfqs) in ARCHIVE_DIR, export a
// day's partition now, or restore an archive into its side table (archive_<partition>) for analysis. It reaches the
// database the engine uses: DATABASE_URL, else the embedded server under DATA_DIR (the engine stopped: one process
// holds that directory). A refusal is one line on stderr, exit 1; a usage error exit 2.
import { join } from 'node:path'
import { ConfigError, loadConfig } from '../../config.js'
import { createLogger } from '../../log.js'
import { parseCli } from '../../ops/cli.js'
import { openDatabase } from '../open.js'
import { archiveDirProblem } from '../../ops/archiveDir.js'
import { exportPartition } from './export.js'
import { listArchives, manifestName, PARTITION } from './manifest.js'
import { restoreArchive } from './restore.js'

const USAGE = `Usage: node dist/engine/store/archive/cli.js COMMAND   (or: make archive ARGS="COMMAND")

Commands:
  list                      the archives in the archive directory, oldest day first
  export quotes_pYYYYMMDD   write that day's quote partition to an archive now (the partition stays; rfqs_p…, agent_activity_p… alike)
  restore quotes_pYYYYMMDD  load that day's archive into the table archive_quotes_pYYYYMMDD, in one transaction
                            (a corrupt archive is refused, naming the file and the line; nothing stays loaded)

Options:
  --dir DIR     the archive directory (default: ARCHIVE_DIR)
  --replace     restore over an existing archive_quotes_pYYYYMMDD table
`

async function main(): Promise<void> {
  const { values, positionals } = parseCli(
    'archive',
    USAGE,
    { dir: { type: 'string' }, replace: { type: 'boolean' } },
    { positionals: true },
  )
  const [command, partition, ...extra] = positionals
  const wantsPartition = command === 'export' || command === 'restore'
  if (!['list', 'export', 'restore'].includes(command ?? '') || extra.length || wantsPartition !== !!partition) {
    usageError(command ? `unknown or incomplete command: ${positionals.join(' ')}` : 'a command is needed')
  }
  if (partition && !PARTITION.test(partition))
    usageError(`${partition} is not a day's partition (quotes_, rfqs_ or agent_activity_pYYYYMMDD)`)
  const config = loadConfig()
  const dir = values.dir ?? config.ARCHIVE_DIR
  if (!dir) throw new ConfigError('ARCHIVE_DIR is unset: set it, or pass --dir DIR')
  const problem = await archiveDirProblem(dir)
  if (problem) throw new ConfigError(values.dir ? problem.replace('ARCHIVE_DIR', '--dir') : problem)

  if (command === 'list') {
    const rows = listArchives(dir).map(m => [m.partition, m.day, m.rows, m.bytes, m.schemaVersion, m.createdAt])
    const header = ['partition', 'day', 'rows', 'bytes', 'schema', 'written']
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => String(r[i]).length)))
    for (const r of [header, ...rows])
      process.stdout.write(
        r
          .map((v, i) => String(v).padEnd(widths[i]!))
          .join('  ')
          .trimEnd() + '\n',
      )
    return
  }
  const log = createLogger('warn', 'archive')
  const db = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, log, max: 2 })
  try {
    if (command === 'export') {
      const m = await exportPartition(db.sql, partition!, dir)
      process.stdout.write(`${partition}: ${m.rows} rows written to ${join(dir, m.file)}\n`)
    } else {
      const r = await restoreArchive(db.sql, join(dir, manifestName(partition!)), { replace: !!values.replace })
      process.stdout.write(`${partition}: ${r.rows} rows loaded into ${r.table}\n`)
    }
  } finally {
    await db.close()
  }
}

function usageError(why: string): never {
  process.stderr.write(`archive: ${why} (see archive --help)\n`)
  process.exit(2)
}

main().catch((e: unknown) => {
  const err = e as Error & { code?: string }
  process.stderr.write(`${err.message.split('\n').join('; ')}\n`)
  process.exit(e instanceof ConfigError ? 2 : 1)
})
