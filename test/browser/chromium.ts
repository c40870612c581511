// A real Chromium for the console's browser suite: Debian's `chromium`, found through CHROME_PATH, then
// PATH, then /usr/bin/chromium, driven by playwright-core (which never downloads a browser). Missing, the
// suite fails with one line saying what to install: `make test` installs it where it can
// (engine/ops/test-servers.sh), so a run that reaches here without it must not pass quietly.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'

export const MISSING = 'Chromium is missing: apt-get install chromium (or set CHROME_PATH)'

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHROME_PATH && existsSync(env.CHROME_PATH)) return env.CHROME_PATH
  for (const dir of (env.PATH ?? '').split(':').filter(Boolean)) {
    const p = join(dir, 'chromium')
    if (existsSync(p)) return p
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  throw new Error(MISSING)
}

/** `args`: more flags, e.g. `--host-resolver-rules=...` to give loopback addresses public names */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  })
}
