// Deribit's public JSON-RPC over HTTP GET: {base}/public/<method>?<params>, answered with
// {jsonrpc, result} or {jsonrpc, error: {code, message}}. Every failure becomes one DeribitError
// naming the method, so the poller can log it, count it and back off.
export class DeribitError extends Error {
  override name = 'DeribitError'
  constructor(
    readonly method: string,
    message: string,
    readonly code: number | null = null,
    readonly httpStatus: number | null = null,
  ) {
    super(`${method}: ${message}`)
  }
}

export interface DeribitClient {
  call<T>(method: string, params: Record<string, string | number | boolean | undefined>): Promise<T>
}

export function deribitClient({ baseUrl, timeoutMs }: { baseUrl: string; timeoutMs: number }): DeribitClient {
  const base = baseUrl.replace(/\/+$/, '')
  return {
    async call<T>(method: string, params: Record<string, string | number | boolean | undefined>): Promise<T> {
      const q = new URLSearchParams()
      for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v))
      let res: Response
      try {
        res = await fetch(`${base}/${method}?${q.toString()}`, {
          signal: AbortSignal.timeout(timeoutMs),
          headers: { accept: 'application/json' },
        })
      } catch (e) {
        throw new DeribitError(method, `request failed: ${(e as Error).message}`)
      }
      let body: { result?: T; error?: { code?: number; message?: string } }
      try {
        body = (await res.json()) as typeof body
      } catch {
        throw new DeribitError(method, `HTTP ${res.status} with a body that is not JSON`, null, res.status)
      }
      if (body?.error)
        throw new DeribitError(
          method,
          `error ${body.error.code ?? '?'}: ${body.error.message ?? 'no message'}`,
          body.error.code ?? null,
          res.status,
        )
      if (!res.ok) throw new DeribitError(method, `HTTP ${res.status}`, null, res.status)
      if (body?.result === undefined) throw new DeribitError(method, 'answer has no result', null, res.status)
      return body.result
    },
  }
}
