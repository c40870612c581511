// Test tokens: our mintable TestERC20 (contracts/pools/TestERC20.sol).
import { MAX_UINT256 } from '../../../workers/values/index.js'
import type { Address } from 'viem'
import { poolContract } from './artifacts.js'
import { deploy, send, type DeployClients } from './clients.js'

export interface TestTokenOptions {
  name?: string
  symbol?: string
  decimals?: number
}

export async function deployTestToken(
  clients: DeployClients,
  { name = 'Test Token', symbol = 'TST', decimals = 18 }: TestTokenOptions = {},
): Promise<Address> {
  const { abi, bytecode } = poolContract('TestERC20')
  return deploy(clients, abi, bytecode, [name, symbol, decimals])
}

/** Mints amount of a TestERC20 to `to` (anyone may mint). */
export async function mintTestToken(
  clients: DeployClients,
  token: Address,
  to: Address,
  amount: bigint,
): Promise<void> {
  await send(clients, token, poolContract('TestERC20').abi, 'mint', [to, amount])
}

export async function approveToken(
  clients: DeployClients,
  token: Address,
  spender: Address,
  amount: bigint = MAX_UINT256,
): Promise<void> {
  await send(clients, token, poolContract('TestERC20').abi, 'approve', [spender, amount])
}

/** Two fresh TestERC20s ordered as Uniswap orders a pair: token0 < token1. */
export async function deployTokenPair(
  clients: DeployClients,
  decimals: [number, number] = [18, 18],
): Promise<[Address, Address]> {
  const a = await deployTestToken(clients, { name: 'Token A', symbol: 'TKA', decimals: decimals[0] })
  const b = await deployTestToken(clients, { name: 'Token B', symbol: 'TKB', decimals: decimals[1] })
  return a < b ? [a, b] : [b, a]
}
