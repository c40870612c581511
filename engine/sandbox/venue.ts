// A whole venue on a local chain: SpotRFQ, test tokens, Uniswap V2 and V3 pools, a StableSwap pool,
// funded and approved accounts. Deterministic for a fresh anvil: the same addresses every time.
import { createPublicClient, createWalletClient, http, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import type { DeployClients } from '../devchain/deploy/clients.js'
import { deployTestToken, mintTestToken, approveToken } from '../devchain/deploy/erc20.js'
import { deployUniswapV2Factory, deployV2PoolWithLiquidity } from '../devchain/deploy/uniswapV2.js'
import {
  deployUniswapV3Factory,
  deployV3Callee,
  deployV3PoolLens,
  deployV3PoolWithPositions,
} from '../devchain/deploy/uniswapV3.js'
import { deployStableSwapPool, addStableLiquidity } from '../devchain/deploy/stableSwap.js'
import { deploySpotRfq } from '../chain/spotRfq.js'
import { ANVIL_KEYS, ROLES } from './accounts.js'

export interface TokenSpec {
  symbol: string
  name: string
  decimals: number
  usd: number
}

export const SANDBOX_TOKENS: TokenSpec[] = [
  { symbol: 'WETH', name: 'Wrapped Ether (sandbox)', decimals: 18, usd: 3000 },
  { symbol: 'USDC', name: 'USD Coin (sandbox)', decimals: 6, usd: 1 },
  { symbol: 'USDT', name: 'Tether USD (sandbox)', decimals: 6, usd: 1 },
  { symbol: 'DAI', name: 'Dai (sandbox)', decimals: 18, usd: 1 },
  { symbol: 'WBTC', name: 'Wrapped BTC (sandbox)', decimals: 8, usd: 60000 },
]

export interface Venue {
  chainId: number
  rpcUrl: string
  spotRfq: Address
  tokens: Record<string, { address: Address; decimals: number; usd: number }>
  uniswapV2: { factory: Address; pairs: Record<string, Address> }
  uniswapV3: { factory: Address; callee: Address; lens: Address; pools: Record<string, Address> }
  stable: { pools: Record<string, Address>; coins: Record<string, Address[]> }
  accounts: Record<keyof typeof ROLES, { address: Address; privateKey: Hex }>
}

export function clientsFor(rpcUrl: string, key: Hex, chainId = 31337): DeployClients {
  const chain = { ...foundry, id: chainId }
  const account = privateKeyToAccount(key)
  return {
    wallet: createWalletClient({ account, chain, transport: http(rpcUrl) }),
    public: createPublicClient({ chain, transport: http(rpcUrl) }),
  }
}

/** Raw amount of `usd` dollars of a token. */
export function usdAmount(t: { decimals: number; usd: number }, usd: number): bigint {
  return (BigInt(Math.round((usd / t.usd) * 1e6)) * 10n ** BigInt(t.decimals)) / 1_000_000n
}

/** USD value of a raw amount, to the cent. */
export function usdValue(t: { decimals: number; usd: number }, raw: bigint): number {
  return Number((raw * BigInt(Math.round(t.usd * 100))) / 10n ** BigInt(t.decimals)) / 100
}

export async function deployVenue(
  rpcUrl: string,
  { chainId = 31337, liquidityUsd = 20_000_000, log = (_: string) => {} } = {},
): Promise<Venue> {
  const c = clientsFor(rpcUrl, ANVIL_KEYS[ROLES.deployer]!, chainId)
  const me = c.wallet.account.address
  log('deploying SpotRFQ')
  const spotRfq = (await deploySpotRfq(c.wallet, c.public)).toLowerCase() as Address

  log('deploying tokens')
  const tokens: Venue['tokens'] = {}
  for (const t of SANDBOX_TOKENS) {
    const address = await deployTestToken(c, { name: t.name, symbol: t.symbol, decimals: t.decimals })
    tokens[t.symbol] = { address: address.toLowerCase() as Address, decimals: t.decimals, usd: t.usd }
    await mintTestToken(c, address, me, usdAmount(t, liquidityUsd * 10))
  }
  const T = (s: string) => tokens[s]!

  log('deploying Uniswap V2 pairs')
  const v2Factory = await deployUniswapV2Factory(c)
  const pairs: Record<string, Address> = {}
  const v2 = async (a: string, b: string, usd: number) => {
    pairs[`${a}/${b}`] = await deployV2PoolWithLiquidity(
      c,
      v2Factory,
      T(a).address,
      T(b).address,
      usdAmount(T(a), usd),
      usdAmount(T(b), usd),
    )
  }
  await v2('WETH', 'USDC', liquidityUsd / 2)
  await v2('WETH', 'DAI', liquidityUsd / 4)
  await v2('WBTC', 'WETH', liquidityUsd / 4)
  await v2('USDC', 'USDT', liquidityUsd / 8)

  log('deploying Uniswap V3 pools')
  const v3Factory = await deployUniswapV3Factory(c)
  const callee = await deployV3Callee(c)
  const lens = await deployV3PoolLens(c)
  const v3Pools: Record<string, Address> = {}
  const v3 = async (a: string, b: string, fee: number, spacing: number, usd: number) => {
    const [t0, t1] = BigInt(T(a).address) < BigInt(T(b).address) ? [T(a), T(b)] : [T(b), T(a)]
    const amount0 = usdAmount(t0, usd),
      amount1 = usdAmount(t1, usd)
    const sqrtPriceX96 = sqrt((amount1 << 192n) / amount0)
    const liquidity = sqrt(amount0 * amount1)
    const wide = Math.floor(887272 / spacing) * spacing
    const near = Math.floor(Math.log(1.2) / Math.log(1.0001) / spacing) * spacing // about ±20% around the price
    const tick = Math.floor((Math.log(Number(sqrtPriceX96) / 2 ** 96) * 2) / Math.log(1.0001))
    const centre = Math.floor(tick / spacing) * spacing
    v3Pools[`${a}/${b}/${fee}`] = await deployV3PoolWithPositions(c, {
      factory: v3Factory,
      callee,
      token0: t0.address,
      token1: t1.address,
      fee,
      sqrtPriceX96,
      fund: 0n,
      positions: [
        { tickLower: -wide, tickUpper: wide, liquidity: liquidity / 2n },
        { tickLower: centre - near, tickUpper: centre + near, liquidity: liquidity * 2n },
      ],
    })
  }
  await v3('WETH', 'USDC', 500, 10, liquidityUsd / 2)
  await v3('WETH', 'USDC', 3000, 60, liquidityUsd / 4)
  await v3('WBTC', 'USDC', 3000, 60, liquidityUsd / 4)

  log('deploying the StableSwap pool')
  const coins = ['USDC', 'USDT', 'DAI']
  const stablePool = await deployStableSwapPool(c, {
    coins: coins.map(s => T(s).address),
    decimals: coins.map(s => T(s).decimals),
    A: 200n,
    fee: 4_000_000n,
  })
  await addStableLiquidity(
    c,
    stablePool,
    coins.map(s => T(s).address),
    coins.map(s => usdAmount(T(s), liquidityUsd / 4)),
  )

  log('funding accounts')
  const accounts = Object.fromEntries(
    Object.entries(ROLES).map(([role, i]) => {
      const key = ANVIL_KEYS[i]!
      return [role, { address: privateKeyToAccount(key).address.toLowerCase() as Address, privateKey: key }]
    }),
  ) as Venue['accounts']
  for (const role of ['maker', 'taker', 'maker2'] as const) {
    const who = clientsFor(rpcUrl, accounts[role].privateKey, chainId)
    for (const t of SANDBOX_TOKENS) {
      await mintTestToken(c, T(t.symbol).address, accounts[role].address, usdAmount(t, 1_000_000))
      await approveToken(who, T(t.symbol).address, spotRfq)
    }
  }

  return {
    chainId,
    rpcUrl,
    spotRfq,
    tokens,
    uniswapV2: { factory: v2Factory, pairs },
    uniswapV3: { factory: v3Factory, callee, lens, pools: v3Pools },
    stable: { pools: { 'USDC/USDT/DAI': stablePool }, coins: { 'USDC/USDT/DAI': coins.map(s => T(s).address) } },
    accounts,
  }
}

/** Integer square root by Newton's method (a float start is off by far more than a few units at 1e50). */
function sqrt(x: bigint): bigint {
  if (x < 2n) return x
  let r = x
  let next = (r + 1n) >> 1n
  while (next < r) {
    r = next
    next = (r + x / r) >> 1n
  }
  return r
}
