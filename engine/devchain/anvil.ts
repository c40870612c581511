// A local chain for tests and the sandbox: the anvil binary from its npm platform package.
import type { ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { PortInUse } from '../front/uws.js'
import { spawnTethered } from '../ops/tethered.js'

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
  return require.resolve(
    `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}/bin/anvil`,
  )
}

// anvil runs under the guard (engine/ops/tethered.ts): no chain node outlives the process that started it,
// and Ctrl-C reaches only us, so we stop anvil in order.
export async function startAnvil({ chainId = 31337, port: wanted = 0, args = [] }: AnvilOptions = {}): Promise<Anvil> {
  const proc = spawnTethered('anvil-guard', anvilBinary(), [
    '--host',
    '127.0.0.1',
    '--port',
    String(wanted),
    '--chain-id',
    String(chainId),
    ...args,
  ])
  const port = await listeningPort(proc.guard).catch((e: unknown) => {
    // a taken port is the operator's to fix: one line naming it and the variable that sets it
    if (wanted && /address already in use|os error 98/i.test((e as Error).message))
      throw new PortInUse('127.0.0.1', wanted, 'SANDBOX_RPC_PORT')
    throw e
  })
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    port,
    chainId,
    stop: async () => {
      await proc.stop()
    },
  }
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = ''
    const onData = (chunk: Buffer) => {
      seen += chunk.toString()
      const m = /Listening on [^\s:]+:(\d+)/.exec(seen)
      if (m) {
        child.stdout!.off('data', onData)
        child.stdout!.resume()
        resolve(Number(m[1]))
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (c: Buffer) => {
      seen += c.toString()
    })
    child.once('exit', code => reject(new Error(`anvil exited (${code}) before listening: ${seen.slice(-500)}`)))
    child.once('error', reject)
  })
}
