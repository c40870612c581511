// A fresh anvil with SpotRFQ and two TestTokens deployed, funded and approved: the stage for the contract tests.
import { BaseError, ContractFunctionRevertedError, createPublicClient, createWalletClient, http, parseUnits,
  type Address, type Hex, type PublicClient } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { startAnvil, type Anvil } from '../../engine/devchain/anvil.js'
import { deploySpotRfq, loadArtifact } from '../../engine/chain/spotRfq.js'
import { waitMined } from '../../engine/devchain/deploy/mined.js'

// anvil's well-known dev keys (accounts 0-3)
export const KEYS = {
  owner: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  maker: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  taker: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  stranger: '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
} as const satisfies Record<string, Hex>

export type Role = keyof typeof KEYS

export interface Stage {
  anvil: Anvil
  publicClient: PublicClient
  accounts: Record<Role, PrivateKeyAccount>
  wallet(role: Role): ReturnType<typeof walletFor>
  spotRfq: Address
  tokenIn: Address   // taker pays this (18 decimals)
  tokenOut: Address  // maker pays this (6 decimals)
  stop(): Promise<void>
}

export const SUPPLY_IN = parseUnits('1000', 18)
export const SUPPLY_OUT = parseUnits('1000000', 6)

function walletFor(rpcUrl: string, account: PrivateKeyAccount) {
  return createWalletClient({ account, chain: foundry, transport: http(rpcUrl) })
}

export async function startStage(): Promise<Stage> {
  const anvil = await startAnvil({ chainId: foundry.id })
  try {
    const publicClient = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) }) as PublicClient
    const accounts = Object.fromEntries(Object.entries(KEYS).map(([r, k]) => [r, privateKeyToAccount(k)])) as Record<Role, PrivateKeyAccount>
    const wallet = (role: Role) => walletFor(anvil.rpcUrl, accounts[role])
    const spotRfq = await deploySpotRfq(wallet('owner'), publicClient)
    const tokenIn = await deployToken(wallet('owner'), publicClient, 'Wrapped Ether', 'WETH', 18)
    const tokenOut = await deployToken(wallet('owner'), publicClient, 'USD Coin', 'USDC', 6)
    await send(publicClient, wallet('owner').writeContract({ address: tokenIn, abi: tokenAbi(), functionName: 'mint', args: [accounts.taker.address, SUPPLY_IN] }))
    await send(publicClient, wallet('owner').writeContract({ address: tokenOut, abi: tokenAbi(), functionName: 'mint', args: [accounts.maker.address, SUPPLY_OUT] }))
    for (const role of ['maker', 'taker', 'stranger'] as const) {
      for (const token of [tokenIn, tokenOut]) {
        await send(publicClient, wallet(role).writeContract({ address: token, abi: tokenAbi(), functionName: 'approve', args: [spotRfq, 2n ** 256n - 1n] }))
      }
    }
    return { anvil, publicClient, accounts, wallet, spotRfq, tokenIn, tokenOut, stop: () => anvil.stop() }
  } catch (e) {
    await anvil.stop()
    throw e
  }
}

export const spotRfqAbi = () => loadArtifact('SpotRFQ').abi
export const tokenAbi = () => loadArtifact('TestToken').abi

export async function deployToken(w: ReturnType<typeof walletFor>, pc: PublicClient, name: string, symbol: string, decimals: number): Promise<Address> {
  const { abi, bytecode } = loadArtifact('TestToken')
  const receipt = await waitMined(pc, await w.deployContract({ abi, bytecode, args: [name, symbol, decimals] }))
  return receipt.contractAddress!
}

/** Waits for a transaction and insists it succeeded. */
export async function send(pc: PublicClient, hash: Promise<Hex>) {
  const receipt = await waitMined(pc, await hash)
  if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`)
  return receipt
}

export async function balanceOf(pc: PublicClient, token: Address, who: Address): Promise<bigint> {
  return pc.readContract({ address: token, abi: tokenAbi(), functionName: 'balanceOf', args: [who] }) as Promise<bigint>
}

/** The custom error name (e.g. 'QuoteExpired') or the string reason a call reverted with; throws if it did not revert. */
export async function revertOf(call: Promise<unknown>): Promise<string> {
  try {
    await call
  } catch (e) {
    if (e instanceof BaseError) {
      const revert = e.walk(x => x instanceof ContractFunctionRevertedError)
      if (revert instanceof ContractFunctionRevertedError) return revert.data?.errorName === 'Error'
        ? String(revert.data.args?.[0]) : revert.data?.errorName ?? revert.reason ?? revert.shortMessage
    }
    throw e
  }
  throw new Error('expected a revert, but the call succeeded')
}
