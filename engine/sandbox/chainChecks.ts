// Before the CLI sends a fill: would the chain take it? Each check that fails is a CliFailure that names
// the shortfall in token units ("maker balance 0.5 USDC < 3000 USDC quoted"), never the token contract's
// "arithmetic underflow". What the checks cannot foresee, a simulation decodes from the revert itself.
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  erc20Abi,
  formatUnits,
  http,
  type Address,
} from 'viem'
import { foundry } from 'viem/chains'
import { spotRfqArtifact } from '../chain/spotRfq.js'
import { CliFailure } from './cliFailure.js'
import { onChainQuote, type RelayQuote } from './relayQuote.js'

export interface TokenInfo {
  address: string
  decimals: number
  symbol: string
}

/** What each SpotRFQ revert means to the person filling (the spec's reasons). */
const REVERTS: Record<string, [code: string, meaning: string]> = {
  QuoteExpired: ['QUOTE_EXPIRED', "the quote's deadline passed on chain; ask for a new price with `cli.js rfq`"],
  QuoteAlreadyUsed: [
    'QUOTE_USED',
    'this quote was already filled or cancelled on chain; ask for a new price with `cli.js rfq`',
  ],
  InvalidSignature: ['QUOTE_SIGNATURE', "the quote's signature does not recover to its maker; ask for a new price"],
  NonceTooLow: ['QUOTE_NONCE', 'the maker raised its on-chain nonce past this quote; ask for a new price'],
  TakerMismatch: ['TAKER_MISMATCH', 'the quote is bound to another taker than the sandbox taker'],
  ZeroAmount: ['ZERO_AMOUNT', 'the quote has a zero amount'],
  InvalidTokenPair: ['TOKEN_PAIR', "the quote's token pair is invalid"],
  Paused: ['PAUSED', 'SpotRFQ is paused by its owner'],
}

export async function preflight(
  rpcUrl: string,
  chainId: number,
  spotRfq: Address,
  taker: Address,
  q: RelayQuote,
  tokens: TokenInfo[],
): Promise<void> {
  const client = createPublicClient({ chain: { ...foundry, id: chainId }, transport: http(rpcUrl) })
  const unit = (address: string) =>
    tokens.find(t => t.address.toLowerCase() === address.toLowerCase()) ?? { symbol: address, decimals: 0 }
  const show = (amount: bigint, address: string) =>
    `${formatUnits(amount, unit(address).decimals)} ${unit(address).symbol}`
  const block = await client.getBlock()
  if (BigInt(q.quote.deadline) < block.timestamp) {
    throw new CliFailure(
      'QUOTE_EXPIRED',
      `the quote's deadline ${new Date(q.quote.deadline * 1000).toISOString()} is past on chain`,
      'ask for a new price with `cli.js rfq`',
    )
  }
  const holdings = [
    {
      who: 'maker',
      owner: q.quote.maker,
      token: q.quote.tokenOut,
      need: BigInt(q.quote.amountOut),
      what: 'quoted',
      fix: 'the maker must fund its wallet',
    },
    {
      who: 'taker',
      owner: taker,
      token: q.quote.tokenIn,
      need: BigInt(q.quote.amountIn),
      what: 'to pay',
      fix: "fund the taker's wallet",
    },
  ]
  for (const h of holdings) {
    const [balance, allowance] = await Promise.all([
      client.readContract({ address: h.token, abi: erc20Abi, functionName: 'balanceOf', args: [h.owner] }),
      client.readContract({ address: h.token, abi: erc20Abi, functionName: 'allowance', args: [h.owner, spotRfq] }),
    ])
    if (balance < h.need)
      throw new CliFailure(
        `${h.who.toUpperCase()}_BALANCE`,
        `${h.who} balance ${show(balance, h.token)} < ${show(h.need, h.token)} ${h.what}`,
        `${h.fix}; nothing was sent`,
      )
    if (allowance < h.need)
      throw new CliFailure(
        `${h.who.toUpperCase()}_ALLOWANCE`,
        `${h.who} allowance to SpotRFQ ${show(allowance, h.token)} < ${show(h.need, h.token)} ${h.what}`,
        `the ${h.who} must approve SpotRFQ ${spotRfq}; nothing was sent`,
      )
  }
  try {
    const { abi } = spotRfqArtifact()
    await client.simulateContract({
      address: spotRfq,
      abi,
      functionName: 'fill',
      args: [onChainQuote(q), q.signature],
      account: taker,
    })
  } catch (e) {
    throw revertFailure(e)
  }
}

/** A revert as one line: the contract's custom error or reason string, with what to do about it. */
export function revertFailure(e: unknown): CliFailure {
  const reverted = e instanceof BaseError ? e.walk(x => x instanceof ContractFunctionRevertedError) : null
  if (reverted instanceof ContractFunctionRevertedError) {
    const name = reverted.data?.errorName ?? reverted.reason ?? 'unknown'
    const known = REVERTS[name]
    if (known) return new CliFailure(known[0], `the chain refuses the fill: ${name}()`, known[1])
    return new CliFailure('CHAIN_REVERT', `the chain refuses the fill: ${reverted.reason ?? name}`, 'nothing was sent')
  }
  return new CliFailure(
    'CHAIN_UNREACHABLE',
    `the chain did not answer: ${e instanceof BaseError ? e.shortMessage : (e as Error).message}`,
    'is the sandbox running?',
  )
}
