// One engine node of `make cluster`: `node dist/engine/main.js` under the guard (it dies with the dev cluster,
// however that dies), each of its log lines printed with its NODE_ID in front. Its start-up banner is read,
// not printed: the dev cluster prints one table for all nodes instead of three banners.
import { join } from 'node:path'
import { repoRoot } from '../paths.js'
import { spawnTethered, eachLine } from '../ops/tethered.js'

export interface DevNode {
  id: string
  pid: number
  urls: { api: string; terminal: string; relay: string }
  /** the node's exit status, whenever it exits */
  exited: Promise<number>
  /** SIGTERM, then wait (the engine drains first; SIGKILL only past graceMs) */
  stop(graceMs?: number): Promise<number>
}

const START_TIMEOUT_MS = 120_000

/** Starts a node and resolves once its banner says it is up; rejects with its last words if it exits first. */
export async function startDevNode(
  id: string,
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<DevNode> {
  const proc = spawnTethered(`${id}-guard`, process.execPath, [join(repoRoot, 'dist/engine/main.js')], { env })
  const banner: string[] = []
  const lastWords: string[] = []
  let inBanner = false
  let up = false
  const onLine = (line: string, stream: 'out' | 'err') => {
    if (stream === 'out' && /^terminal \(options data\)\s/.test(line)) inBanner = true
    if (inBanner) {
      banner.push(line)
      if (/^RFQ engine \S+ is up\.$/.test(line)) up = true
      if (/^\s+curl -s /.test(line)) inBanner = false // the banner's last line
      return
    }
    if (!line.trim()) return
    if (stream === 'err' && lastWords.push(line) > 4) lastWords.shift()
    print(`${id} | ${line}`)
  }
  eachLine(proc.guard.stdout!, l => onLine(l, 'out'))
  eachLine(proc.guard.stderr!, l => onLine(l, 'err'))

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${id} did not start within ${START_TIMEOUT_MS / 1000} s`)),
      START_TIMEOUT_MS,
    )
    const poll = setInterval(() => {
      if (up) {
        clearInterval(poll)
        clearTimeout(timer)
        resolve()
      }
    }, 20)
    void proc.exited.then(code => {
      clearInterval(poll)
      clearTimeout(timer)
      reject(
        new Error(`${id} exited (${code}) before it was up${lastWords.length ? `: ${lastWords.join(' | ')}` : ''}`),
      )
    })
  }).catch(async (e: unknown) => {
    await proc.stop()
    throw e
  })

  const text = banner.join('\n')
  // the surfaces' URLs from the banner's own lines (engine/banner.ts), as test/faults/process.ts reads them
  const url = (surface: string) => new RegExp(`^${surface} \\([^)]*\\)\\s*(\\S+)`, 'm').exec(text)?.[1] ?? '?'
  return {
    id,
    pid: await proc.pid,
    exited: proc.exited,
    urls: { api: url('api'), terminal: url('terminal'), relay: url('relay') },
    stop: (graceMs = 20_000) => proc.stop(graceMs),
  }
}
