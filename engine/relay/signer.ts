// Quote signer recovery on the Piscina pool: quotes submitted in the same tick travel together in
// batches of up to 64 (one quote per task is slower than the main thread), with about four batches
// per thread in flight so no thread waits for the next one.
import type { EngineContext } from '../context.js'
import type { RfqDeps } from '../../actors/rfq.js'
import type { Domain } from '../../workers/sig/types.js'
import type { VerifyQuotesBatch } from '../../workers/sig/verifyQuotes.task.js'
import { QUOTE_CELLS, quoteCells, type SignedQuote } from '../../workers/sig/signedQuoteCells.js'
import { LentBlanks } from '../../workers/values/index.js'
import { createBatcher } from '../pool/batcher.js'

export function quoteSigner(
  ctx: Pick<EngineContext, 'sigPool' | 'config'> & { metrics?: EngineContext['metrics'] },
  domain: Domain,
): RfqDeps['recoverSigner'] {
  const flow = ctx.metrics?.flow
  // a batch's cells are lent and taken back once its task has settled: by then its thread has its copy (the pool posts
  // a task when a thread is free, so it may wait in the pool's queue first); up to 4 a batch size in flight are kept
  const lent = new LentBlanks(ctx.config.RELAY_SIG_BATCH * QUOTE_CELLS, 4)
  const batcher = createBatcher<SignedQuote, string | null>(
    // as cells, not objects: what a post to the thread copies (signedQuoteCells.ts)
    items => {
      const cells = quoteCells(items, lent.take(items.length * QUOTE_CELLS))
      return ctx.sigPool
        .run<VerifyQuotesBatch, (string | null)[]>('sig/verifyQuotes', { domain, cells })
        .finally(() => lent.give(cells))
    },
    {
      maxBatch: ctx.config.RELAY_SIG_BATCH,
      concurrency: Math.max(2, ctx.sigPool.threads * ctx.config.RELAY_SIG_BATCHES_PER_THREAD),
      ...(flow ? { observe: (wait: number, _trip: number, n: number) => flow.signBatch(wait, n) } : {}),
    },
  )
  // a recovered signer is a lowercase address (workers/sig); the batcher's outcome goes straight to the RFQ's actor
  // the item is the quote's message itself (it carries its quote and signature), and hears its answer (`answered`)
  return (signed, to) => batcher.submitTo(signed, to)
}
