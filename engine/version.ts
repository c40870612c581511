// The one version: package.json's. OpenAPI `info.version`, the API's and relay's /health, and the
// CHANGELOG (a test holds them equal) all say this.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from './paths.js'

export const VERSION: string = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version
