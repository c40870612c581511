// How a CLI command fails: one line, `error CODE: what happened; what to do next`, exit 1. The stack
// only with DEBUG=1. An unexpected error is shown the same way (code UNEXPECTED), never as a trace.
export class CliFailure extends Error {
  override name = 'CliFailure'
  constructor(
    readonly code: string,
    readonly what: string,
    readonly next: string,
  ) {
    super(`${what}; ${next}`)
  }
  get line(): string {
    return `error ${this.code}: ${this.what}; ${this.next}`
  }
}

/** An HTTP reply that was not 2xx, from the engine's `{error, code?}` envelope. */
export class ApiRefusal extends Error {
  override name = 'ApiRefusal'
  constructor(
    readonly status: number,
    readonly body: { error?: string; code?: string } | null,
    readonly url: string,
  ) {
    super(`${status} ${body?.error ?? ''}`.trim())
  }
}

export function failureLine(e: unknown): string {
  if (e instanceof CliFailure) return e.line
  if (e instanceof ApiRefusal)
    return `error ${e.body?.code ?? `HTTP_${e.status}`}: ${e.status} ${e.body?.error ?? 'no body'} (${e.url})`
  const cause = (e as { cause?: { code?: string } })?.cause?.code
  if (cause === 'ECONNREFUSED' || cause === 'ECONNRESET')
    return `error ENGINE_UNREACHABLE: ${(e as Error).message} (${cause}); is the sandbox (or the engine at --api) running?`
  return `error UNEXPECTED: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}; rerun with DEBUG=1 for the stack`
}
