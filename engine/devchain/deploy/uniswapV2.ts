// Uniswap V2 from its published artifacts: the factory, and pairs seeded with liquidity the way the router does it
// (tokens transferred to the pair, then pair.mint).
import type { Address } from 'viem'
import { uniswapV2Artifact, poolContract } from './artifacts.js'
import { deploy, send, type DeployClients } from './clients.js'

export async function deployUniswapV2Factory(
  clients: DeployClients,
  feeToSetter: Address = clients.wallet.account.address,
): Promise<Address> {
  const { abi, bytecode } = uniswapV2Artifact('UniswapV2Factory')
  return deploy(clients, abi, bytecode, [feeToSetter])
}

export async function createV2Pair(
  clients: DeployClients,
  factory: Address,
  tokenA: Address,
  tokenB: Address,
): Promise<Address> {
  const { abi } = uniswapV2Artifact('UniswapV2Factory')
  await send(clients, factory, abi, 'createPair', [tokenA, tokenB])
  const pair = (await clients.public.readContract({
    address: factory,
    abi,
    functionName: 'getPair',
    args: [tokenA, tokenB],
  })) as Address
  return pair.toLowerCase() as Address
}

/**
 * Adds liquidity to a pair from TestERC20s: mints amountA/amountB straight into the pair, then pair.mint(to).
 * The first deposit must have sqrt(amountA * amountB) > 1000 (the pair's MINIMUM_LIQUIDITY).
 */
export async function addV2Liquidity(
  clients: DeployClients,
  pair: Address,
  tokenA: Address,
  tokenB: Address,
  amountA: bigint,
  amountB: bigint,
  to: Address = clients.wallet.account.address,
): Promise<void> {
  const erc20 = poolContract('TestERC20').abi
  await send(clients, tokenA, erc20, 'mint', [pair, amountA])
  await send(clients, tokenB, erc20, 'mint', [pair, amountB])
  await send(clients, pair, uniswapV2Artifact('UniswapV2Pair').abi, 'mint', [to])
}

/** A factory's new pair for two TestERC20s, seeded with liquidity: the one-call setup for tests and the sandbox. */
export async function deployV2PoolWithLiquidity(
  clients: DeployClients,
  factory: Address,
  tokenA: Address,
  tokenB: Address,
  amountA: bigint,
  amountB: bigint,
): Promise<Address> {
  const pair = await createV2Pair(clients, factory, tokenA, tokenB)
  await addV2Liquidity(clients, pair, tokenA, tokenB, amountA, amountB)
  return pair
}

export async function readV2Reserves(
  clients: DeployClients,
  pair: Address,
): Promise<{ reserve0: bigint; reserve1: bigint }> {
  const [reserve0, reserve1] = (await clients.public.readContract({
    address: pair,
    abi: uniswapV2Artifact('UniswapV2Pair').abi,
    functionName: 'getReserves',
  })) as [bigint, bigint, number]
  return { reserve0, reserve1 }
}
