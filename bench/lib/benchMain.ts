// A bench's entry: its work, then exit 0; a failure (no database, nats-server missing) is one line that names the
// bench and what to do, never a stack trace.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', '28P01', '3D000'])

export function runBench(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      const line = e instanceof Error ? e.message.split('\n')[0] : String(e)
      const code = (e as { code?: unknown } | null)?.code
      const hint = UNREACHABLE.has(String(code))
        ? ' (the bench needs PostgreSQL: unset DATABASE_URL for an embedded one, or set it to a server it can reach)'
        : ''
      process.stderr.write(`${name}: ${line}${hint}\n`)
      process.exit(1)
    },
  )
}
