import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(import.meta.url)
/** The repository root, whether running from dist/engine or engine/ itself. */
export const repoRoot = resolve(dirname(here), here.includes('/dist/') ? '../..' : '..')
