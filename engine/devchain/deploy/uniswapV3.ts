// Uniswap V3 from its published artifacts: the factory, pools created and initialised through it, and positions
// minted through our V3Callee (the pool pulls tokens in a callback, so an EOA cannot mint or swap by itself).
import type { Address } from 'viem'
import { poolContract, uniswapV3Artifact } from './artifacts.js'
import { deploy, send, type DeployClients } from './clients.js'
import { approveToken, mintTestToken } from './erc20.js'

export async function deployUniswapV3Factory(clients: DeployClients): Promise<Address> {
  const { abi, bytecode } = uniswapV3Artifact('UniswapV3Factory')
  return deploy(clients, abi, bytecode)
}

/** The factory starts with 500/10, 3000/60, 10000/200; this adds another tier (e.g. 100/1). */
export async function enableV3FeeAmount(
  clients: DeployClients,
  factory: Address,
  fee: number,
  tickSpacing: number,
): Promise<void> {
  await send(clients, factory, uniswapV3Artifact('UniswapV3Factory').abi, 'enableFeeAmount', [fee, tickSpacing])
}

export async function createV3Pool(
  clients: DeployClients,
  factory: Address,
  tokenA: Address,
  tokenB: Address,
  fee: number,
  sqrtPriceX96: bigint,
): Promise<Address> {
  const { abi } = uniswapV3Artifact('UniswapV3Factory')
  await send(clients, factory, abi, 'createPool', [tokenA, tokenB, fee])
  const pool = (
    (await clients.public.readContract({
      address: factory,
      abi,
      functionName: 'getPool',
      args: [tokenA, tokenB, fee],
    })) as Address
  ).toLowerCase() as Address
  await send(clients, pool, uniswapV3Artifact('UniswapV3Pool').abi, 'initialize', [sqrtPriceX96])
  return pool
}

export async function deployV3Callee(clients: DeployClients): Promise<Address> {
  const { abi, bytecode } = poolContract('V3Callee')
  return deploy(clients, abi, bytecode)
}

export async function deployV3PoolLens(clients: DeployClients): Promise<Address> {
  const { abi, bytecode } = poolContract('V3PoolLens')
  return deploy(clients, abi, bytecode)
}

/** Lets the callee pull the wallet's tokens for mints and swaps (once per token). */
export async function approveV3Callee(
  clients: DeployClients,
  callee: Address,
  tokens: readonly Address[],
): Promise<void> {
  for (const token of tokens) await approveToken(clients, token, callee)
}

/** Mints a position of `liquidity` in [tickLower, tickUpper) paid from the wallet through the (approved) callee. */
export async function mintV3Position(
  clients: DeployClients,
  callee: Address,
  pool: Address,
  tickLower: number,
  tickUpper: number,
  liquidity: bigint,
  recipient: Address = clients.wallet.account.address,
): Promise<void> {
  await send(clients, callee, poolContract('V3Callee').abi, 'mint', [pool, recipient, tickLower, tickUpper, liquidity])
}

export interface V3PositionSpec {
  tickLower: number
  tickUpper: number
  liquidity: bigint
}

/**
 * A factory's new pool for two TestERC20s at sqrtPriceX96 with the given positions, funded by minting `fund` of
 * each token to the wallet and approving the callee: the one-call setup for tests and the sandbox.
 */
export async function deployV3PoolWithPositions(
  clients: DeployClients,
  {
    factory,
    callee,
    token0,
    token1,
    fee,
    sqrtPriceX96,
    positions,
    fund = 1n << 200n,
  }: {
    factory: Address
    callee: Address
    token0: Address
    token1: Address
    fee: number
    sqrtPriceX96: bigint
    positions: readonly V3PositionSpec[]
    fund?: bigint
  },
): Promise<Address> {
  const me = clients.wallet.account.address
  for (const token of [token0, token1]) {
    await mintTestToken(clients, token, me, fund)
    await approveToken(clients, token, callee)
  }
  const pool = await createV3Pool(clients, factory, token0, token1, fee, sqrtPriceX96)
  for (const p of positions) await mintV3Position(clients, callee, pool, p.tickLower, p.tickUpper, p.liquidity)
  return pool
}
