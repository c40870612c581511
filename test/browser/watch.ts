// What a console page must never do, recorded for assertions: a request to any host but this machine
// (aborted as well as recorded, so nothing leaves even if the assertion is late), a console error, an
// uncaught exception. WebSockets are checked by their URL as they open. Behind the proxy the allowed hosts
// are the public names instead (test/browser/proxy.test.ts).
import type { BrowserContext, Page } from 'playwright-core'

export interface Watch {
  offsite: string[]
  errors: string[]
  /** every URL the page asked for, in order */
  requests: string[]
}

const LOCAL = new Set(['127.0.0.1', 'localhost', '[::1]'])

export async function watchContext(context: BrowserContext, allowed: ReadonlySet<string> = LOCAL): Promise<Watch> {
  const w: Watch = { offsite: [], errors: [], requests: [] }
  await context.route('**/*', route => {
    const url = route.request().url()
    w.requests.push(url)
    if (url.startsWith('data:') || allowed.has(new URL(url).hostname)) return route.continue()
    w.offsite.push(url)
    return route.abort('blockedbyclient')
  })
  return w
}

export function watchPage(page: Page, w: Watch, allowed: ReadonlySet<string> = LOCAL): void {
  page.on('console', m => {
    if (m.type() === 'error') w.errors.push(`${m.text()} (${m.location().url})`)
  })
  page.on('pageerror', e => w.errors.push(`uncaught: ${e.message}`))
  page.on('websocket', ws => {
    w.requests.push(ws.url())
    if (!allowed.has(new URL(ws.url()).hostname)) w.offsite.push(ws.url())
  })
}
