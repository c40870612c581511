// The checked-in contract artifacts (contracts/artifacts/<name>.json): what production reads (the
// SpotRFQ ABI for on-chain fill checks). Rebuilding them is dev tooling: engine/devchain/buildContracts.ts.
import { join } from 'node:path'
import { repoRoot } from '../paths.js'

export interface CompileSettings {
  optimizerRuns?: number
  evmVersion?: string
  viaIR?: boolean
}

export interface ContractArtifact {
  contractName: string
  sourcePath: string
  abi: unknown[]
  bytecode: `0x${string}`
  deployedBytecode: `0x${string}`
  solcVersion: string
  settings: Required<CompileSettings>
}

/** What we build: contract name -> source path (relative to the repo root). */
export const contractSources = {
  SpotRFQ: 'contracts/SpotRFQ.sol',
  TestToken: 'contracts/test/TestToken.sol',
} as const

export type BuiltContract = keyof typeof contractSources

export function artifactPath(name: BuiltContract): string {
  return join(repoRoot, 'contracts', 'artifacts', `${name}.json`)
}
