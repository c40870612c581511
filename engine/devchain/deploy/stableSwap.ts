// Our StableSwapPool (contracts/pools/StableSwapPool.sol): deployed over existing ERC20s and seeded by add_liquidity.
import type { Address } from 'viem'
import { poolContract } from './artifacts.js'
import { deploy, send, type DeployClients } from './clients.js'
import { approveToken } from './erc20.js'

/** Curve's rate for a coin of this many decimals: its balance * rate / 1e18 is an 18-decimal amount. */
export const stableRate = (decimals: number): bigint => 10n ** BigInt(36 - decimals)

/** A is the plain amplification (the contract stores A * 100); fee in 1e10 units (4_000_000 = 0.04%). */
export async function deployStableSwapPool(
  clients: DeployClients,
  { coins, decimals, A, fee }: { coins: readonly Address[]; decimals: readonly number[]; A: bigint; fee: bigint },
): Promise<Address> {
  const { abi, bytecode } = poolContract('StableSwapPool')
  return deploy(clients, abi, bytecode, [coins, decimals.map(stableRate), A, fee])
}

/** add_liquidity from the wallet's balances (approves the pool for each coin first). */
export async function addStableLiquidity(
  clients: DeployClients,
  pool: Address,
  coins: readonly Address[],
  amounts: readonly bigint[],
): Promise<void> {
  for (const coin of coins) await approveToken(clients, coin, pool)
  await send(clients, pool, poolContract('StableSwapPool').abi, 'add_liquidity', [amounts, 0n])
}
