import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isPlainObject } from '../../../workers/values/index.js'

test('a plain object is what JSON.parse makes of {...}: not null, not an array, not a scalar', () => {
  assert.deepEqual(
    ['{}', '{"a":1}', '[]', 'null', '1', '"x"', 'true'].map(j => isPlainObject(JSON.parse(j))),
    [true, true, false, false, false, false, false],
  )
  assert.equal(isPlainObject(undefined), false)
})
