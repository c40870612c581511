// Solidity compiled in-process by solc-js (bundled compiler: works offline). Imports resolve
// from the project's own folders first, then node_modules (OpenZeppelin and friends).
import { readFileSync, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { repoRoot } from '../paths.js'

const require = createRequire(import.meta.url)

export { repoRoot }

/** A contract in solc's standard-JSON output, as much as outputSelection asks for */
interface SolcContract {
  abi: unknown[]
  evm: { bytecode: { object: string }; deployedBytecode: { object: string } }
}

export interface CompiledContract {
  abi: unknown[]
  bytecode: `0x${string}`
  deployedBytecode: `0x${string}`
}

export interface CompileOptions {
  optimizerRuns?: number
  evmVersion?: string
  viaIR?: boolean
}

/** Compiles the given source files (paths relative to the repo root) and returns every contract by name. */
export function compileSolidity(
  files: string[],
  { optimizerRuns = 200, evmVersion = 'cancun', viaIR = false }: CompileOptions = {},
): Record<string, CompiledContract> {
  const solc = require('solc')
  const sources: Record<string, { content: string }> = {}
  for (const f of files) sources[f] = { content: readFileSync(join(repoRoot, f), 'utf8') }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: optimizerRuns },
      evmVersion,
      viaIR,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length)
    throw new Error('solc: ' + errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'))
  const out: Record<string, CompiledContract> = {}
  for (const file of Object.keys(output.contracts ?? {})) {
    for (const [name, c] of Object.entries<SolcContract>(output.contracts[file])) {
      out[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      }
    }
  }
  return out
}

function findImport(path: string): { contents: string } | { error: string } {
  const local = join(repoRoot, path)
  if (existsSync(local)) return { contents: readFileSync(local, 'utf8') }
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') }
  } catch {
    return { error: `not found: ${path}` }
  }
}
