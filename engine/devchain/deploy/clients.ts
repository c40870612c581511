// What every deploy helper takes: a wallet that signs (its account pays and receives) and a reader.
import type { Abi, Account, Address, Chain, Hex, PublicClient, Transport, WalletClient } from 'viem'
import { waitMined } from './mined.js'

export interface DeployClients {
  wallet: WalletClient<Transport, Chain | undefined, Account>
  public: PublicClient
}

/** Deploys bytecode and waits for it; throws when the deployment reverts or leaves no address. */
export async function deploy(
  { wallet, public: pub }: DeployClients,
  abi: Abi,
  bytecode: Hex,
  args: readonly unknown[] = [],
): Promise<Address> {
  const hash = await wallet.deployContract({ abi, bytecode, args, account: wallet.account, chain: wallet.chain })
  const receipt = await waitMined(pub, hash)
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deployment reverted (tx ${hash})`)
  return receipt.contractAddress.toLowerCase() as Address
}

/**
 * Sends one contract call and waits for it to be mined; throws when it reverts. The gas limit is the estimate plus
 * half plus 100k, because an estimate can come out short: it runs in the current block, where the pairs' and
 * pools' first-write-per-block oracle updates (timeElapsed == 0) are skipped, and refunds under the 63/64 rule
 * shift it too; such a transaction then runs out of gas. gas: a limit of your own.
 */
export async function send(
  { wallet, public: pub }: DeployClients,
  address: Address,
  abi: Abi,
  functionName: string,
  args: readonly unknown[] = [],
  { gas }: { gas?: bigint } = {},
): Promise<Hex> {
  const limit =
    gas ??
    ((await pub.estimateContractGas({ address, abi, functionName, args, account: wallet.account })) * 3n) / 2n +
      100_000n
  const hash = await wallet.writeContract({
    address,
    abi,
    functionName,
    args,
    account: wallet.account,
    chain: wallet.chain,
    gas: limit,
  })
  const receipt = await waitMined(pub, hash)
  if (receipt.status !== 'success') {
    const tx = await pub.getTransaction({ hash })
    throw new Error(`${functionName} reverted (tx ${hash}, gas used ${receipt.gasUsed} of ${tx.gas})`)
  }
  return hash
}
