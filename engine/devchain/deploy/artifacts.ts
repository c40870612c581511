// Bytecode and ABIs: Uniswap's published npm artifacts as they are, and our contracts/pools compiled once per process.
import { createRequire } from 'node:module'
import type { Abi, Hex } from 'viem'
import { compileSolidity, type CompiledContract } from '../solc.js'

const require = createRequire(import.meta.url)

export interface Artifact {
  abi: Abi
  bytecode: Hex
}

/** @uniswap/v2-core build/<name>.json: the bytecode is stored without its 0x. */
export function uniswapV2Artifact(name: 'UniswapV2Factory' | 'UniswapV2Pair'): Artifact {
  const json = require(`@uniswap/v2-core/build/${name}.json`) as { abi: Abi; bytecode: string }
  return { abi: json.abi, bytecode: (json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`) as Hex }
}

/** @uniswap/v3-core artifacts/contracts/<name>.sol/<name>.json (Hardhat format). */
export function uniswapV3Artifact(name: 'UniswapV3Factory' | 'UniswapV3Pool'): Artifact {
  const json = require(`@uniswap/v3-core/artifacts/contracts/${name}.sol/${name}.json`) as { abi: Abi; bytecode: Hex }
  return { abi: json.abi, bytecode: json.bytecode }
}

export type PoolContractName = 'TestERC20' | 'V3Callee' | 'V3PoolLens' | 'StableSwapPool'

const POOL_SOURCES = [
  'contracts/pools/TestERC20.sol',
  'contracts/pools/V3Callee.sol',
  'contracts/pools/V3PoolLens.sol',
  'contracts/pools/StableSwapPool.sol',
]
let compiled: Record<string, CompiledContract> | undefined

/** One of our contracts/pools contracts; the first call compiles them all (about 3 s with solc-js). */
export function poolContract(name: PoolContractName): Artifact {
  compiled ??= compileSolidity(POOL_SOURCES)
  const c = compiled[name]
  if (!c) throw new Error(`contracts/pools has no contract ${name}`)
  return { abi: c.abi as Abi, bytecode: c.bytecode }
}
