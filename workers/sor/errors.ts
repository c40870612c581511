// Errors of the route finder's math. A failed require() of a mirrored contract becomes one of these, at the same
// spot, so a quote that throws is a swap that would revert (pool.ts turns it into 0n).
export class SorMathError extends Error {
  override name = 'SorMathError'
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    Error.captureStackTrace?.(this, SorMathError)
  }
}

export const Errors = {
  /** The Solidity `require(condition)` (or its revert reason) that fails in the contract at this point. */
  require: (fn: string, condition: string) => new SorMathError('REQUIRE', `${fn}: require(${condition}) failed`),
  /** Checked arithmetic of Solidity >= 0.8 / Vyper: the EVM would revert with a panic. */
  overflow: (fn: string) => new SorMathError('OVERFLOW', `${fn}: arithmetic overflow or underflow`),
  divisionByZero: (fn: string) => new SorMathError('DIVISION_BY_ZERO', `${fn}: division by zero`),
  notConverged: (fn: string) => new SorMathError('NOT_CONVERGED', `${fn}: did not converge in 255 iterations`),
  missingTick: (tick: number) =>
    new SorMathError('MISSING_TICK', `tick ${tick} is set in the bitmap but absent from ticks`),
}
