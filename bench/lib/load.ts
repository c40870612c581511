// A loopback HTTP load loop: `concurrency` keep-alive connections issuing requests back to back
// for `durationMs`, recording each latency. Bounded in time and count, loopback only.
import http from 'node:http'

export interface LoadResult {
  requests: number
  errors: number
  rps: number
  p50Ms: number
  p99Ms: number
}

export async function load(
  url: string,
  {
    concurrency = 32,
    durationMs = 3000,
    maxRequests = 2_000_000,
    method = 'GET',
    body,
  }: { concurrency?: number; durationMs?: number; maxRequests?: number; method?: string; body?: string } = {},
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
  const u = new URL(url)
  const latencies: number[] = []
  let errors = 0
  let sent = 0
  const started = performance.now()
  const deadline = started + durationMs
  const one = () =>
    new Promise<void>(resolve => {
      const t0 = performance.now()
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname + u.search,
          method,
          agent,
          headers: body ? { 'content-type': 'application/json' } : {},
        },
        res => {
          res.resume()
          res.on('end', () => {
            if (res.statusCode! >= 400) errors++
            latencies.push(performance.now() - t0)
            resolve()
          })
        },
      )
      req.on('error', () => {
        errors++
        resolve()
      })
      req.end(body)
    })
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline && sent < maxRequests) {
        sent++
        await one()
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const pct = (p: number) =>
    latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]! : NaN
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50Ms: pct(0.5), p99Ms: pct(0.99) }
}

export function percentiles(samples: number[]): { p50: number; p99: number; mean: number } {
  const s = [...samples].sort((a, b) => a - b)
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN
  return { p50: at(0.5), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / (s.length || 1) }
}
