// A local chain for tests and the sandbox: the anvil binary from its npm platform package.
import { spawn, type ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'

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

export async function startAnvil({ chainId = 31337, port: wanted = 0, args = [] }: AnvilOptions = {}): Promise<Anvil> {
  const child = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', String(wanted), '--chain-id', String(chainId), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] })
  const port = await listeningPort(child)
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
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}
