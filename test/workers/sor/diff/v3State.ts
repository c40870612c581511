// Reads a Uniswap V3 pool into the route finder's V3Pool snapshot, through V3PoolLens (two eth_calls per chunk
// of words instead of one per word).
import type { Address } from 'viem'
import { poolContract, uniswapV3Artifact } from '../../../../engine/devchain/deploy/artifacts.js'
import type { DeployClients } from '../../../../engine/devchain/deploy/clients.js'
import { fullWordRange } from '../../../../workers/sor/v3/tickBitmap.js'
import type { V3Pool, V3Tick } from '../../../../workers/sor/types.js'

const WORDS_PER_CALL = 1500 // keeps one eth_call well under anvil's 30M gas cap

export async function readV3Pool(
  clients: DeployClients,
  lens: Address,
  pool: Address,
  wordRange?: [number, number],
): Promise<V3Pool> {
  const pub = clients.public
  const poolAbi = uniswapV3Artifact('UniswapV3Pool').abi
  const lensAbi = poolContract('V3PoolLens').abi
  const read = (functionName: string) => pub.readContract({ address: pool, abi: poolAbi, functionName }) as Promise<any>
  const [slot0, liquidity, token0, token1, fee, tickSpacing] = await Promise.all(
    ['slot0', 'liquidity', 'token0', 'token1', 'fee', 'tickSpacing'].map(read),
  )
  const range = wordRange ?? fullWordRange(Number(tickSpacing))

  const bitmap: Record<string, bigint> = {}
  const tickIndexes: number[] = []
  for (let from = range[0]; from <= range[1]; from += WORDS_PER_CALL) {
    const to = Math.min(range[1], from + WORDS_PER_CALL - 1)
    const [positions, words] = (await pub.readContract({
      address: lens,
      abi: lensAbi,
      functionName: 'bitmapWords',
      args: [pool, from, to],
    })) as [readonly number[], readonly bigint[]]
    positions.forEach((wordPos, k) => {
      const word = words[k]!
      bitmap[String(wordPos)] = word
      for (let bit = 0; bit < 256; bit++)
        if ((word >> BigInt(bit)) & 1n) tickIndexes.push(((wordPos << 8) + bit) * Number(tickSpacing))
    })
  }
  tickIndexes.sort((a, b) => a - b)
  const nets = tickIndexes.length
    ? ((await pub.readContract({
        address: lens,
        abi: lensAbi,
        functionName: 'liquidityNets',
        args: [pool, tickIndexes],
      })) as readonly bigint[])
    : []
  const ticks: V3Tick[] = tickIndexes.map((tick, k) => ({ tick, liquidityNet: nets[k]! }))

  return {
    kind: 'v3',
    address: pool,
    token0: (token0 as string).toLowerCase() as Address,
    token1: (token1 as string).toLowerCase() as Address,
    fee: Number(fee),
    tickSpacing: Number(tickSpacing),
    sqrtPriceX96: slot0[0] as bigint,
    tick: Number(slot0[1]),
    liquidity: liquidity as bigint,
    bitmap,
    ticks,
    wordRange: range,
  }
}
