// The engine as a separate process for benches, so the load generator does not share its thread.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'

export interface EngineProcess {
  ports: { api: number; terminal: number; relay: number }
  child: ChildProcess
  stop(): Promise<void>
}

export async function startEngineProcess(env: Record<string, string>): Promise<EngineProcess> {
  const { NODE_TEST_CONTEXT: _, ...base } = process.env
  // BENCH_CPU_PROF=<dir>: each engine writes a V8 CPU profile there when it stops (where a bench's time goes)
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
  const child = spawn(process.execPath, [...prof, join(repoRoot, 'dist/engine/main.js')], {
    env: { ...base, API_PORT: '0', TERMINAL_PORT: '0', RELAY_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.on('data', c => {
    out += c
  })
  await new Promise<void>((resolve, reject) => {
    const iv = setInterval(() => {
      if (/relay .*ws:\/\//.test(out)) {
        clearInterval(iv)
        resolve()
      }
    }, 20)
    child.once('exit', code => {
      clearInterval(iv)
      reject(new Error(`engine exited (${code}): ${out}`))
    })
  })
  const port = (name: string) => Number(new RegExp(`${name}[^\\n]*?:(\\d+)`).exec(out)![1])
  return {
    ports: { terminal: port('terminal'), api: port('api'), relay: port('relay') },
    child,
    stop: () =>
      new Promise(resolve => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
