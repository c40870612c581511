// REST polling on the relay port, served from the LiveIndex (memory), as pollers use it:
//   ETag / If-None-Match   the same ETag while nothing changed for this viewer; a match answers 304, no body
//   cursor / ?since=       every reply carries `cursor` (opaque); `since` returns only RFQs created, or
//                          quotes accepted, after it. A cursor this process did not give reads as "from the start".
//   ?wait=<s> (<= 30)      with `since`: held until something new arrives, then answered at once; empty at
//                          the end when nothing does. Held requests cost a timer each, block nothing, are woken
//                          only by changes their viewer may see, and are freed when their client goes away.
// Cursors and ETags are sealed (engine/front/sealed.ts) and made from the viewer's position, the last change
// it may see: they do not move on what it may not see, and say nothing of how many changes there were.
// Who may see what is decided by the caller's view (the one visibility rule); nothing here decides it.
import { quotesSince, type LiveIndex, type IndexedRfq } from '../../actors/liveIndex.js'
import type { WaitScope } from '../../actors/pollWaiters.js'
import type { AcceptedQuote, RfqStatus } from '../../actors/rfqTypes.js'
import type { Reply, Req } from '../front/request.js'
import { toJson } from '../front/json.js'
import { openSeq, sealSeq, sealedEtag } from '../front/sealed.js'

export const MAX_WAIT_SECS = 30
/** below every sequence, restored RFQs' 0 included: no `since`, or a cursor this process did not give */
export const FROM_START = -1

export type PollError = { code: 'INVALID_CURSOR' | 'INVALID_WAIT'; message: string }
export interface PollParams {
  since: number
  waitMs: number
  ifNoneMatch: string | undefined
}

/** The poll parameters, or the reason they are not valid. */
export function pollParams(req: Req): PollParams | PollError {
  const rawSince = req.query.get('since'),
    rawWait = req.query.get('wait')
  let since = FROM_START
  if (rawSince !== null && rawSince !== '') {
    const c = decodeCursor(rawSince)
    if (c === null) return { code: 'INVALID_CURSOR', message: 'Invalid cursor' }
    since = c
  }
  let waitMs = 0
  if (rawWait !== null && rawWait !== '') {
    const w = Number(rawWait)
    if (!/^\d+(\.\d+)?$/.test(rawWait) || w > MAX_WAIT_SECS)
      return { code: 'INVALID_WAIT', message: `wait must be a number of seconds from 0 to ${MAX_WAIT_SECS}` }
    if (rawSince === null || rawSince === '')
      return { code: 'INVALID_WAIT', message: 'wait needs since (the cursor of your last reply)' }
    waitMs = w * 1000
  }
  return { since, waitMs, ifNoneMatch: req.headers['if-none-match'] }
}

export function encodeCursor(seq: number): string {
  return 'c' + sealSeq(seq)
}

/** The sequence a cursor carries (FROM_START for one this process did not give); null when it is not a cursor. */
export function decodeCursor(cursor: string): number | null {
  if (/^c[A-Za-z0-9_-]{22}$/.test(cursor)) return openSeq(cursor.slice(1)) ?? FROM_START
  // the cursors of earlier versions (a raw sequence inside): from the start, never a 400 after an upgrade
  if (
    /^[A-Za-z0-9_-]{1,64}$/.test(cursor) &&
    /^p1\.[0-9a-f]{8}\.\d{1,15}$/.test(Buffer.from(cursor, 'base64url').toString('utf8'))
  )
    return FROM_START
  return null
}

/** What one viewer may see of the index: its position, the items after a sequence, and what wakes its held polls. */
export interface PollView<T> {
  /** the sequence of the last change this viewer may see */
  position(): number
  /** what came after `since`; null when the viewer may no longer see it (then the caller answers as for an unknown id) */
  items(since: number): T[] | null
  scope: WaitScope
}

/**
 * Answers a poll: computes the items after `since`; when there are none and the poller asked to wait,
 * waits for a change the view may see (re-checking after each) until the deadline or the client leaves.
 * null: the view's items became invisible (its caller answers exactly as for an unknown id). The caller has
 * checked that the viewer may see what it asks for before this, so a 304 is never an answer for what it may not.
 */
export async function poll<T>(
  index: LiveIndex,
  p: PollParams,
  viewerKey: string,
  req: Req,
  view: PollView<T>,
  body: (items: T[], cursor: string) => object,
  cache?: BodyCache,
): Promise<Reply | null> {
  const deadline = Date.now() + p.waitMs
  for (;;) {
    const position = view.position() // read before the items: a change in between is seen next time
    const etag = sealedEtag(position, p.since, viewerKey)
    if (p.ifNoneMatch === etag && p.waitMs === 0) return { status: 304, headers: { etag } }
    // the same view of the same state is the same bytes: built once, then served from the cache
    const cached = cache?.get(etag)
    if (cached !== undefined && (cached.nonEmpty || p.waitMs === 0))
      return { status: 200, headers: { etag, 'cache-control': 'no-cache' }, rawJson: cached.json }
    const found = view.items(p.since)
    if (found === null) return null
    const left = deadline - Date.now()
    if (found.length || left <= 0 || req.signal?.aborted) {
      if (p.ifNoneMatch === etag) return { status: 304, headers: { etag } }
      const json = Buffer.from(toJson(body(found, encodeCursor(position)))) // encoded once, not per reply
      cache?.set(etag, { json, nonEmpty: found.length > 0 })
      return { status: 200, headers: { etag, 'cache-control': 'no-cache' }, rawJson: json }
    }
    const wait = index.changed(left, view.scope)
    const onAbort = () => wait.cancel()
    req.signal?.addEventListener('abort', onAbort, { once: true })
    await wait.done
    req.signal?.removeEventListener('abort', onAbort)
  }
}

/** GET /rfqs items: live, unexpired RFQs the viewer may see, created after `since`. */
export function rfqItems(index: LiveIndex, visible: (r: IndexedRfq) => boolean) {
  return (since: number) => index.live(since).filter(visible).map(rfqListItem)
}

/** GET /quotes items for one RFQ: its quotes accepted after `since`; null when the viewer may not see it (or it is not indexed). */
export function quoteItems(
  index: LiveIndex,
  rfqId: string,
  visible: (r: IndexedRfq) => boolean,
): (since: number) => { quote: AcceptedQuote; status: RfqStatus }[] | null {
  return since => {
    const r = index.get(rfqId)
    if (!r || !visible(r)) return null
    return quotesSince(r, since).map(quote => ({ quote, status: r.status }))
  }
}

export function rfqListItem(r: IndexedRfq) {
  const q = r.rfq
  return {
    id: q.id,
    taker: q.taker,
    tokenIn: q.tokenIn,
    tokenOut: q.tokenOut,
    kind: q.kind,
    amountIn: q.amountIn === null ? null : q.amountIn.toString(),
    amountOut: q.amountOut === null ? null : q.amountOut.toString(),
    expiry: q.expiry,
    visibility: q.visibility,
    status: r.status,
    quoteCount: r.quoteCount,
    createdAt: q.createdAt.toISOString(),
  }
}

export function quoteListItem(q: AcceptedQuote) {
  return { quote: q.quote, signature: q.signature, receivedAt: new Date(q.receivedAtMs).toISOString() }
}

/** Recent reply bodies by ETag (state sequence, since and viewer): small, newest kept. */
export class BodyCache {
  private readonly map = new Map<string, { json: Buffer; nonEmpty: boolean }>()
  constructor(private readonly max = 256) {}
  get(etag: string) {
    return this.map.get(etag)
  }
  set(etag: string, v: { json: Buffer; nonEmpty: boolean }): void {
    this.map.set(etag, v)
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!)
  }
}
