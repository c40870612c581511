// A small DEX world on anvil for the route finder's tests: tokens AAA (18 decimals), BBB (6), MID (18)
// and ISO (18), all worth one unit each; Uniswap V2 pairs AAA/BBB, AAA/MID, MID/BBB, ISO/MID; Uniswap V3
// pools AAA/BBB (0.30%, three positions) and AAA/MID (0.05%); a StableSwapPool AAA/BBB; a Multicall3Lite; and
// the token list an engine on this chain loads (TOKENS_FILE): LST, a token of its own in no pool, and WETH and USDC
// at their mainnet addresses, as on a fork (ERC-20 code of 18 and 6 decimals set there), so the pool scan still
// finds and registers AAA, BBB, MID and ISO itself, LONE stays unknown, and WETH/USDC RFQs resolve as by default.
// Every contract is the real one (Uniswap's npm artifacts, our contracts/pools), deployed through
// engine/chain/deploy.
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { startAnvil, type Anvil } from '../../engine/devchain/anvil.js'
import { deploy, type DeployClients } from '../../engine/devchain/deploy/clients.js'
import { deployTestToken, mintTestToken } from '../../engine/devchain/deploy/erc20.js'
import { deployUniswapV2Factory, deployV2PoolWithLiquidity } from '../../engine/devchain/deploy/uniswapV2.js'
import {
  deployUniswapV3Factory,
  deployV3Callee,
  deployV3PoolWithPositions,
} from '../../engine/devchain/deploy/uniswapV3.js'
import { addStableLiquidity, deployStableSwapPool } from '../../engine/devchain/deploy/stableSwap.js'
import { compileSolidity } from '../../engine/devchain/solc.js'
import { writeTokenList } from '../../engine/tokens/writeList.js'
import { getSqrtRatioAtTick } from '../../workers/sor/v3/tickMath.js'

// anvil's well-known first dev account (test mnemonic): a local-chain key, not a secret
const ANVIL_KEY_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
export const E18 = 10n ** 18n
const MAINNET_WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  MAINNET_USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
export const E6 = 10n ** 6n

export interface World {
  anvil: Anvil
  clients: DeployClients
  me: Address
  tokens: { AAA: Address; BBB: Address; MID: Address; ISO: Address; LONE: Address }
  v2Factory: Address
  v3Factory: Address
  callee: Address
  multicall: Address
  pools: { v2AB: Address; v2AM: Address; v2MB: Address; v2IM: Address; v3AB: Address; v3AM: Address; stableAB: Address }
  protocolsFile: string
  /** the token list for TOKENS_FILE: LST, WETH and USDC */
  tokensFile: string
  listed: Address
  dir: string
  stop(): Promise<void>
}

export async function deployWorld(): Promise<World> {
  const anvil = await startAnvil({ chainId: foundry.id, args: ['--gas-limit', '1000000000'] })
  const transport = http(anvil.rpcUrl)
  const account = privateKeyToAccount(ANVIL_KEY_0)
  const clients: DeployClients = {
    wallet: createWalletClient({ account, chain: foundry, transport, pollingInterval: 20 }),
    public: createPublicClient({ chain: foundry, transport, pollingInterval: 20 }),
  }
  const me = account.address.toLowerCase() as Address
  try {
    const token = (symbol: string, decimals: number) => deployTestToken(clients, { name: symbol, symbol, decimals })
    const AAA = await token('AAA', 18),
      BBB = await token('BBB', 6),
      MID = await token('MID', 18),
      ISO = await token('ISO', 18),
      LONE = await token('LONE', 18)
    const listed = await token('LST', 12)

    const v2Factory = await deployUniswapV2Factory(clients)
    const v2AB = await deployV2PoolWithLiquidity(clients, v2Factory, AAA, BBB, 1_000n * E18, 1_000n * E6)
    const v2AM = await deployV2PoolWithLiquidity(clients, v2Factory, AAA, MID, 800n * E18, 800n * E18)
    const v2MB = await deployV2PoolWithLiquidity(clients, v2Factory, MID, BBB, 600n * E18, 600n * E6)
    const v2IM = await deployV2PoolWithLiquidity(clients, v2Factory, ISO, MID, 500n * E18, 500n * E18)

    const v3Factory = await deployUniswapV3Factory(clients)
    const callee = await deployV3Callee(clients)
    const v3AB = await v3PoolAtPrice(clients, v3Factory, callee, AAA, BBB, 18, 6, 3000, 60, [
      [-1200, 1200, 4n],
      [-6000, 120, 2n],
      [-60, 9000, 1n],
    ])
    const v3AM = await v3PoolAtPrice(clients, v3Factory, callee, AAA, MID, 18, 18, 500, 10, [
      [-500, 500, 1n],
      [-2000, 40, 1n],
    ])

    const stableAB = await deployStableSwapPool(clients, {
      coins: [AAA, BBB],
      decimals: [18, 6],
      A: 200n,
      fee: 4_000_000n,
    })
    await mintTestToken(clients, AAA, me, 10_000n * E18)
    await mintTestToken(clients, BBB, me, 10_000n * E6)
    await addStableLiquidity(clients, stableAB, [AAA, BBB], [700n * E18, 650n * E6])

    const m = compileSolidity(['contracts/pools/Multicall3Lite.sol']).Multicall3Lite!
    const multicall = await deploy(clients, m.abi as any, m.bytecode)

    const dir = mkdtempSync(join(tmpdir(), 'sor-test-'))
    const protocolsFile = join(dir, 'protocols.json')
    writeFileSync(
      protocolsFile,
      JSON.stringify(
        {
          protocols: [
            { slug: 'uniswap-v2', name: 'Uniswap V2', poolType: 'v2', factoryAddress: v2Factory },
            { slug: 'uniswap-v3', name: 'Uniswap V3', poolType: 'v3', factoryAddress: v3Factory },
            {
              slug: 'stableswap',
              name: 'StableSwap',
              poolType: 'stable',
              factoryAddress: '0x0000000000000000000000000000000000000000',
              pools: [stableAB],
            },
          ],
        },
        null,
        2,
      ),
    )
    for (const [at, like] of [
      [MAINNET_WETH, AAA],
      [MAINNET_USDC, BBB],
    ] as const) {
      await clients.public.request({
        method: 'anvil_setCode' as never,
        params: [at, await clients.public.getCode({ address: like })] as never,
      })
    }
    const tokensFile = join(dir, 'tokens.tokenlist.json')
    writeTokenList(tokensFile, {
      name: 'SOR test world',
      chainId: foundry.id,
      tokens: [
        { address: listed, symbol: 'LST', name: 'Listed', decimals: 12 },
        { address: MAINNET_WETH, symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 },
        { address: MAINNET_USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6 },
      ],
    })

    return {
      anvil,
      clients,
      me,
      tokens: { AAA, BBB, MID, ISO, LONE },
      v2Factory,
      v3Factory,
      callee,
      multicall,
      pools: { v2AB, v2AM, v2MB, v2IM, v3AB, v3AM, stableAB },
      protocolsFile,
      tokensFile,
      listed,
      dir,
      async stop() {
        await anvil.stop()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  } catch (e) {
    await anvil.stop()
    throw e
  }
}

/**
 * A V3 pool where one whole token0 is worth one whole token1: the tick nearest that raw price (a multiple of the
 * spacing), positions given as [lower, upper, liquidity scale] in ticks relative to it.
 */
async function v3PoolAtPrice(
  clients: DeployClients,
  factory: Address,
  callee: Address,
  a: Address,
  b: Address,
  decA: number,
  decB: number,
  fee: number,
  spacing: number,
  positions: [number, number, bigint][],
): Promise<Address> {
  const [token0, token1, dec0, dec1] = a < b ? [a, b, decA, decB] : [b, a, decB, decA]
  const rawPrice = 10 ** (dec1 - dec0) // token1 raw units per token0 raw unit
  const center = Math.round(Math.log(rawPrice) / Math.log(1.0001) / spacing) * spacing
  // liquidity that puts ~100 whole tokens per unit of scale in a 1200-tick range around this price
  const unit = BigInt(Math.round((100 * Math.sqrt(10 ** dec0 * 10 ** dec1)) / 0.06))
  return deployV3PoolWithPositions(clients, {
    factory,
    callee,
    token0,
    token1,
    fee,
    sqrtPriceX96: getSqrtRatioAtTick(center + spacing / 2),
    positions: positions.map(([lo, hi, scale]) => ({
      tickLower: center + lo,
      tickUpper: center + hi,
      liquidity: unit * scale,
    })),
  })
}
