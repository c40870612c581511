// One anvil per differential test file, with viem clients on its first funded account.
import { createPublicClient, createWalletClient, http, type Address } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { startAnvil, type Anvil } from '../../../../engine/devchain/anvil.js'
import type { DeployClients } from '../../../../engine/devchain/deploy/clients.js'

// anvil's well-known first dev account (test mnemonic): a local-chain key, not a secret
const ANVIL_KEY_0 = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'

export interface TestChain {
  anvil: Anvil
  clients: DeployClients
  me: Address
}

export async function startTestChain(): Promise<TestChain> {
  // a high block gas limit: a swap to the price limit across thousands of empty words costs more than 30M gas
  const anvil = await startAnvil({ chainId: foundry.id, args: ['--gas-limit', '1000000000'] })
  const transport = http(anvil.rpcUrl)
  const account = privateKeyToAccount(ANVIL_KEY_0)
  const wallet = createWalletClient({ account, chain: foundry, transport, pollingInterval: 20 })
  const pub = createPublicClient({ chain: foundry, transport, pollingInterval: 20 })
  return { anvil, clients: { wallet, public: pub }, me: account.address.toLowerCase() as Address }
}
