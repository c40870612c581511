// The dev cluster's one database: DATABASE_URL when set (every node shares it, as in production), else an
// embedded PostgreSQL under DIR/pg, run by devPostgres.ts in a process of its own so that it stops last.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot } from '../paths.js'
import { eachLine } from '../ops/tethered.js'

export interface DevDatabase {
  url: string
  /** for the table: where it is, without the password */
  describe: string
  stop(): Promise<void>
}

export async function startDevDatabase(dir: string, env: NodeJS.ProcessEnv): Promise<DevDatabase> {
  if (env.DATABASE_URL)
    return { url: env.DATABASE_URL, describe: `DATABASE_URL ${redact(env.DATABASE_URL)}`, stop: async () => {} }
  const { NODE_TEST_CONTEXT: _, ...childEnv } = env
  const child = spawn(process.execPath, [join(repoRoot, 'dist/engine/devcluster/devPostgres.js'), '--dir', dir], {
    env: childEnv,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  child.stdin.on('error', () => {})
  const exited = new Promise<number>(r => child.once('exit', (code, signal) => r(code ?? (signal ? 128 : 1))))
  let errors = ''
  child.stderr.on('data', d => {
    errors += d
  })
  const url = await new Promise<string>((resolve, reject) => {
    eachLine(child.stdout, line => {
      const url = /^ready (\S+)$/.exec(line)?.[1]
      if (url) resolve(url)
    })
    void exited.then(code =>
      reject(new Error(errors.trim() || `cluster PostgreSQL exited (${code}) before it was ready`)),
    )
  })
  return {
    url,
    describe: `embedded PostgreSQL under ${join(dir, 'pg')} (${redact(url)})`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}

/** The URL without its password: the table is for reading, and may be pasted anywhere. */
export function redact(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return '(unparsable URL)'
  }
}
