// Fetching JSON from the engine's three surfaces, and the hook every view uses to show it. An error
// answer becomes an HttpFailure carrying the engine's own text ({error}) and code, so a view can show
// "Route finder has no chain: RPC_URL is not configured" rather than "400".
import { useEffect, useRef, useState } from 'preact/hooks'

export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message)
  }
}

export async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  let res: Response
  try {
    res = await fetch(url, { headers })
  } catch {
    throw new HttpFailure(0, `Cannot reach ${new URL(url).host}: is the engine running?`)
  }
  const text = await res.text()
  let body: { error?: unknown; code?: string } | undefined
  try {
    body = text ? (JSON.parse(text) as typeof body) : undefined
  } catch {
    body = undefined
  } // not JSON: the status speaks
  if (!res.ok)
    throw new HttpFailure(
      res.status,
      typeof body?.error === 'string' ? body.error : `${res.status} ${res.statusText}`,
      body?.code,
    )
  return (body ?? text) as T
}

export async function getText(url: string): Promise<string> {
  const res = await fetch(url)
  if (!res.ok) throw new HttpFailure(res.status, `${res.status} ${res.statusText}`)
  return res.text()
}

export interface Loaded<T> {
  data: T | undefined
  error: HttpFailure | undefined
  loading: boolean
  at: number | undefined
  reload(): void
}

/**
 * Loads `load()` whenever `key` changes (null: nothing to load), and again every `everyMs` while the
 * view is shown. The last good data stays on screen while a refresh is in flight or has failed.
 */
export function useLoad<T>(key: string | null, load: () => Promise<T>, everyMs = 0): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: HttpFailure; loading: boolean; at?: number }>({
    loading: key !== null,
  })
  const [nonce, setNonce] = useState(0)
  const loader = useRef(load)
  loader.current = load
  useEffect(() => {
    if (key === null) {
      setState({ loading: false })
      return
    }
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const run = () => {
      setState(s => ({ ...s, loading: true }))
      loader
        .current()
        .then(
          data => {
            if (live) setState({ data, loading: false, at: Date.now() })
          },
          (e: unknown) => {
            if (live)
              setState(s => ({
                ...s,
                error: e instanceof HttpFailure ? e : new HttpFailure(0, String(e)),
                loading: false,
              }))
          },
        )
        .finally(() => {
          if (live && everyMs > 0) timer = setTimeout(run, everyMs)
        })
    }
    run()
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [key, nonce, everyMs])
  return { ...state, data: state.data, error: state.error, reload: () => setNonce(n => n + 1) } as Loaded<T>
}
