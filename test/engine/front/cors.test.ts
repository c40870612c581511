// CORS_ORIGIN as `*`, one origin, or a list: with a list the request's own origin is echoed when listed, and
// no origin is named otherwise (a browser refuses the read); `*` and a single origin answer as they always did.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { allowedOrigin } from '../../../engine/front/cors.js'

test('`*` and a single origin are written as they are, whoever asks', () => {
  assert.equal(allowedOrigin('*', 'https://x.example'), '*')
  assert.equal(allowedOrigin('https://app.example.com', 'https://x.example'), 'https://app.example.com')
  assert.equal(allowedOrigin('https://app.example.com', undefined), 'https://app.example.com')
})

test('a list echoes a listed origin, and names none for an unlisted or absent one', () => {
  const list = 'https://api.example.com, https://app.example.com/'
  assert.equal(allowedOrigin(list, 'https://api.example.com'), 'https://api.example.com')
  assert.equal(allowedOrigin(list, 'https://app.example.com'), 'https://app.example.com')
  assert.equal(allowedOrigin(list, 'https://evil.example.com'), null)
  assert.equal(allowedOrigin(list, 'https://api.example.com.evil.example'), null)
  assert.equal(allowedOrigin(list, undefined), null)
  assert.equal(allowedOrigin(list, 'null'), null)
})
