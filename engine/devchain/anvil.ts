// A local chain for tests and the sandbox: the anvil binary from its npm platform package.
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { PortInUse } from '../front/uws.js'

export interface Anvil {
  rpcUrl: string
  port: number
  chainId: number
  stop(): Promise<void>
}

export interface AnvilOptions {
  chainId?: number
  /** 0 (default) picks a free port */
  port?: number
  /** extra CLI flags, e.g. ['--block-time', '1'] */
  args?: string[]
}

const require = createRequire(import.meta.url)

/** The platform binary itself: its launcher script would add a node hop per start. */
export function anvilBinary(): string {
  return require.resolve(`@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}/bin/anvil`)
}

// anvil runs under a small sh guard that holds the read end of a pipe from us: when we close it (stop)
// or die in any way (a signal, an error, kill -9), `read` returns and the guard stops anvil. No chain
// node outlives the process that started it. The guard ignores SIGINT, so Ctrl-C reaches only us and
// we stop anvil in order; anvil, a background job of a non-interactive shell, ignores it too.
// If anvil exits by itself (a taken port), the guard exits with it.
const GUARD = 'trap "" INT; exec 3<&0; "$@" </dev/null & a=$!; { read _ <&3; kill $a 2>/dev/null; } & r=$!; wait $a; s=$?; kill $r 2>/dev/null; exit $s'

export async function startAnvil({ chainId = 31337, port: wanted = 0, args = [] }: AnvilOptions = {}): Promise<Anvil> {
  const child = spawn('/bin/sh', ['-c', GUARD, 'anvil-guard', anvilBinary(), '--host', '127.0.0.1', '--port', String(wanted), '--chain-id', String(chainId), ...args],
    { stdio: ['pipe', 'pipe', 'pipe'] })
  const port = await listeningPort(child).catch(e => {
    // a taken port is the operator's to fix: one line naming it and the variable that sets it
    if (wanted && /address already in use|os error 98/i.test((e as Error).message)) throw new PortInUse('127.0.0.1', wanted, 'SANDBOX_RPC_PORT')
    throw e
  })
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    port,
    chainId,
    stop: () => stopChild(child),
  }
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = ''
    const onData = (chunk: Buffer) => {
      seen += chunk.toString()
      const m = /Listening on [^\s:]+:(\d+)/.exec(seen)
      if (m) { child.stdout!.off('data', onData); child.stdout!.resume(); resolve(Number(m[1])) }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (c: Buffer) => { seen += c.toString() })
    child.once('exit', code => reject(new Error(`anvil exited (${code}) before listening: ${seen.slice(-500)}`)))
    child.once('error', reject)
  })
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise(resolve => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.once('exit', () => { clearTimeout(force); resolve() })
    child.stdin!.end()               // the guard's `read` returns: it stops anvil and waits for it
  })
}
