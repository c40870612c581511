// The engine as a real process for fault tests: its stdout (the listen lines), its stderr (the
// one-line refusals), its exit code, and signals (SIGTERM, SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'

export interface EngineProc {
  child: ChildProcess
  ports: { api: number; terminal: number; relay: number }
  api: string
  relay: string
  relayWs: string
  stdout(): string
  stderr(): string
  exited: Promise<number>
  term(): Promise<number>
  kill9(): Promise<number>
}

/**
 * Starts `node dist/engine/main.js`; resolves once it listens, rejects with its stderr if it exits first. Free ports
 * and, unless the test names one, a data directory of its own: never the checkout's `.data`, whose lock a
 * `make run` in the same checkout holds.
 */
export function spawnEngine(env: Record<string, string>): Promise<EngineProc> {
  const { NODE_TEST_CONTEXT: _, ...base } = process.env
  const child = spawn(process.execPath, [join(repoRoot, 'dist/engine/main.js')], {
    env: {
      ...base,
      API_PORT: '0',
      TERMINAL_PORT: '0',
      RELAY_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      POOL_THREADS: '1',
      DATA_DIR: ownDataDir(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = '',
    err = ''
  child.stdout.on('data', c => {
    out += c
  })
  child.stderr.on('data', c => {
    err += c
  })
  const exited = new Promise<number>(r => child.once('exit', (code, sig) => r(code ?? (sig ? 128 : 1))))
  return new Promise((resolve, reject) => {
    const iv = setInterval(() => {
      // the banner's end: the signal handlers are installed by then (a log line may name a surface earlier)
      if (!/^RFQ engine \S+ is up\.$/m.test(out)) return
      clearInterval(iv)
      // the ports from the banner's own lines, never from a log line that happens to name a surface
      const port = (name: string) => Number(new RegExp(`^${name} \\([^)]*\\)\\s+\\S+?:(\\d+)`, 'm').exec(out)![1])
      const ports = { terminal: port('terminal'), api: port('api'), relay: port('relay') }
      resolve({
        child,
        ports,
        api: `http://127.0.0.1:${ports.api}`,
        relay: `http://127.0.0.1:${ports.relay}`,
        relayWs: `ws://127.0.0.1:${ports.relay}`,
        stdout: () => out,
        stderr: () => err,
        exited,
        term: () => {
          child.kill('SIGTERM')
          return exited
        },
        kill9: () => {
          child.kill('SIGKILL')
          return exited
        },
      })
    }, 20)
    void exited.then(code => {
      clearInterval(iv)
      reject(Object.assign(new Error(`engine exited ${code} before listening: ${err.trim()}`), { code, stderr: err }))
    })
  })
}

/** Runs the engine expecting it to refuse to start: its exit code and stderr. */
export async function refusedStart(env: Record<string, string>): Promise<{ code: number; stderr: string; ms: number }> {
  const t0 = Date.now()
  try {
    const p = await spawnEngine(env)
    await p.term()
    throw new Error('the engine started')
  } catch (e) {
    const { code, stderr } = e as { code?: number; stderr?: string }
    if (code === undefined) throw e
    return { code, stderr: stderr ?? '', ms: Date.now() - t0 }
  }
}

const made: string[] = []
process.once('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true })
})
function ownDataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'engine-data-'))
  made.push(d)
  return d
}
