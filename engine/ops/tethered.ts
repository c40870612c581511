// A child process tethered to us: it dies with us (anvil for tests and the sandbox, nats-server, cluster nodes).
// It runs under a small sh guard holding the read end of a pipe from us (its stdin): when we close the pipe
// (stop) or die in any way (a signal, an error, kill -9), the guard's `read` returns and it sends the child
// SIGTERM; a child that exits by itself (a taken port) takes the guard with it. The guard writes the child's
// own pid on fd 4 (so kill9 hits the child, not the shell), ignores SIGINT, and runs in a session of its own
// (detached), so a terminal's Ctrl-C reaches only the parent, which then stops its children in order.
import { spawn, type ChildProcess } from 'node:child_process'
import type { Readable } from 'node:stream'

export interface Tethered {
  /** the guard (sh): its stdout and stderr are the child's */
  guard: ChildProcess
  /** the child's own pid, once the guard has started it */
  pid: Promise<number>
  /** the child's exit status (128 + n after signal n), when the guard reports it; never rejects */
  exited: Promise<number>
  /** SIGTERM the child (the guard does it when we close its pipe), wait for it; SIGKILL it after graceMs */
  stop(graceMs?: number): Promise<number>
  /** SIGKILL the child itself (not the guard) and wait for it */
  kill9(): Promise<number>
}

// `trap "" INT`: a Ctrl-C sent to a whole group never reaches the guard. fd 3 keeps our pipe for the watcher;
// the child gets neither fd 3 nor fd 4. `wait $a` returns the child's status, which becomes the guard's.
const GUARD =
  'trap "" INT; exec 3<&0; "$@" </dev/null 3<&- 4>&- & a=$!; echo $a >&4; exec 4>&-; ' +
  '{ read _ <&3; kill $a 2>/dev/null; } & r=$!; wait $a; s=$?; kill $r 2>/dev/null; exit $s'

export interface GuardOptions {
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** the child does not keep us alive: when nothing else does, we exit and the guard stops it */
  unref?: boolean
}

export function spawnTethered(name: string, file: string, args: string[], opts: GuardOptions = {}): Tethered {
  const guard = spawn('/bin/sh', ['-c', GUARD, name, file, ...args], {
    env: opts.env ?? process.env,
    cwd: opts.cwd,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', 'ignore', 'pipe'],
  })
  if (opts.unref) {
    guard.unref()
    for (const s of guard.stdio) (s as { unref?: () => void } | null)?.unref?.()
  }
  guard.stdin!.on('error', () => {}) // closing the pipe of a guard that already left is not an error
  const pid = readPid(guard.stdio[4] as Readable)
  const exited = new Promise<number>(resolve =>
    guard.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))),
  )
  pid.catch(() => {}) // not unhandled while nobody asks: whoever awaits the pid gets the rejection
  const done = () => guard.exitCode !== null || guard.signalCode !== null
  return {
    guard,
    pid,
    exited,
    stop(graceMs = 10_000) {
      if (done()) return exited
      guard.ref() // we wait for the exit: that must keep us alive
      const force = setTimeout(() => {
        pid.then(
          p => killQuietly(p, 'SIGKILL'),
          () => guard.kill('SIGKILL'),
        )
      }, graceMs)
      guard.stdin!.end() // the guard's `read` returns: it sends SIGTERM and waits
      return exited.finally(() => clearTimeout(force))
    },
    async kill9() {
      if (done()) return exited
      guard.ref()
      killQuietly(await pid, 'SIGKILL')
      return exited
    },
  }
}

function readPid(stream: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = ''
    stream.on('data', d => {
      text += d
      const m = /^(\d+)\n/.exec(text)
      if (m) resolve(Number(m[1]))
    })
    stream.on('close', () => reject(new Error('the guard exited before starting its child')))
  })
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e
  } // ESRCH: already gone
}

/** Calls back once per complete line of a stream (a chunk may end mid-line). */
export function eachLine(stream: Readable, onLine: (line: string) => void): void {
  let partial = ''
  stream.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n')
    partial = lines.pop() ?? ''
    lines.forEach(onLine)
  })
  stream.on('end', () => {
    if (partial) onLine(partial)
  })
}
