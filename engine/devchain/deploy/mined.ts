// Waiting for a dev-chain transaction to be mined, robust to anvil's automine missing a ready transaction.
import { WaitForTransactionReceiptTimeoutError, type Hex, type PublicClient, type TransactionReceipt } from 'viem'

/** how long one wait lasts before the chain is nudged; anvil mines a transaction within milliseconds when it works */
const NUDGE_AFTER_MS = 5_000
const NUDGES = 6

/**
 * The transaction's receipt. Under load anvil's automine can leave a ready transaction in its pool with no block
 * coming (foundry-rs/foundry#10122): viem then waits out its 180 s and the whole suite's setup fails. After each
 * NUDGE_AFTER_MS without a receipt we ask anvil to mine a block (`evm_mine`, which takes what its pool holds);
 * when that does not help either, the error says what the pool holds (a nonce gap leaves a transaction queued).
 * Dev chains only: a real chain has no `evm_mine`.
 */
export async function waitMined(pub: PublicClient, hash: Hex, pollingInterval = 20): Promise<TransactionReceipt> {
  for (let nudge = 0; ; nudge++) {
    try {
      return await pub.waitForTransactionReceipt({ hash, pollingInterval, timeout: NUDGE_AFTER_MS })
    } catch (e) {
      if (!(e instanceof WaitForTransactionReceiptTimeoutError)) throw e
      if (nudge === NUDGES) {
        const pool = await pub.request({ method: 'txpool_status' as never }).catch(() => 'unknown')
        throw new Error(`tx ${hash} not mined after ${NUDGES} nudges; anvil's pool: ${JSON.stringify(pool)}`)
      }
      await pub.request({ method: 'evm_mine' as never })
    }
  }
}
