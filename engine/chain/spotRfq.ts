// The SpotRFQ quote contract: its checked-in artifact and a deploy helper for tests and the sandbox.
import { readFileSync } from 'node:fs'
import type { Abi, Account, Address, Chain, Hex, PublicClient, Transport, WalletClient } from 'viem'
import { artifactPath, type BuiltContract, type ContractArtifact } from './artifacts.js'

export const DEFAULT_SPOT_RFQ_NAME = 'SpotRFQ'

const cache = new Map<BuiltContract, LoadedArtifact>()

/** A checked-in artifact (contracts/artifacts/<name>.json), read once. */
export function loadArtifact(name: BuiltContract): LoadedArtifact {
  let a = cache.get(name)
  if (!a) cache.set(name, (a = JSON.parse(readFileSync(artifactPath(name), 'utf8')) as LoadedArtifact))
  return a
}

export type LoadedArtifact = Omit<ContractArtifact, 'abi' | 'bytecode'> & { abi: Abi; bytecode: Hex }

export const spotRfqArtifact = () => loadArtifact('SpotRFQ')

export interface DeployOptions {
  /** who may pause; defaults to the deploying account */
  owner?: Address
}

/** Deploys SpotRFQ from the wallet client's account and returns its address once mined. */
export async function deploySpotRfq(
  walletClient: WalletClient<Transport, Chain | undefined, Account>,
  publicClient: PublicClient,
  name: string = DEFAULT_SPOT_RFQ_NAME, // the EIP-712 domain name; the version is always `1`
  { owner }: DeployOptions = {},
): Promise<Address> {
  const { abi, bytecode } = spotRfqArtifact()
  const hash = await walletClient.deployContract({
    abi,
    bytecode,
    args: [name, owner ?? walletClient.account.address],
    account: walletClient.account,
    chain: walletClient.chain,
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`SpotRFQ deployment failed in ${hash}`)
  return receipt.contractAddress
}
