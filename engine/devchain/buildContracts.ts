// Rebuilds the checked-in contract artifacts: node dist/engine/devchain/buildContracts.js
// Artifacts are checked in so the relay and tests deploy without a 2 s compile; a test
// (test/contracts/artifacts.test.ts) proves a fresh compile still equals them.
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { compileSolidity, type CompileOptions } from './solc.js'
import { parseCli } from '../ops/cli.js'
import { artifactPath, contractSources, type BuiltContract, type ContractArtifact } from '../chain/artifacts.js'
export { artifactPath, contractSources, type BuiltContract, type ContractArtifact }

export const compileSettings: Required<CompileOptions> = { optimizerRuns: 200, evmVersion: 'cancun', viaIR: false }

/** Compiles every source in one solc run (same inputs as the checked-in artifacts) and returns the artifacts. */
export function buildArtifacts(): Record<BuiltContract, ContractArtifact> {
  const compiled = compileSolidity(Object.values(contractSources), compileSettings)
  const solcVersion: string = createRequire(import.meta.url)('solc').version()
  const out = {} as Record<BuiltContract, ContractArtifact>
  for (const [contractName, sourcePath] of Object.entries(contractSources) as [BuiltContract, string][]) {
    const c = compiled[contractName]
    if (!c) throw new Error(`solc produced no ${contractName}`)
    out[contractName] = {
      contractName,
      sourcePath,
      abi: c.abi,
      bytecode: c.bytecode,
      deployedBytecode: c.deployedBytecode,
      solcVersion,
      settings: compileSettings,
    }
  }
  return out
}

function main(): void {
  for (const [name, artifact] of Object.entries(buildArtifacts()) as [BuiltContract, ContractArtifact][]) {
    writeFileSync(artifactPath(name), JSON.stringify(artifact, null, 2) + '\n')
    console.log(`wrote ${artifactPath(name)} (${(artifact.deployedBytecode.length - 2) / 2} bytes deployed)`)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  parseCli(
    'buildContracts.js',
    `Usage: node dist/engine/devchain/buildContracts.js

Compiles contracts/ with solc-js (${compileSettings.evmVersion}, ${compileSettings.optimizerRuns} optimizer runs) and rewrites the checked-in
artifacts under contracts/artifacts/. Takes no options; test/contracts/artifacts.test.ts proves a fresh compile
still equals them.`,
    {},
  )
  main()
}
