// Value checks of the fills, benchmark and league inputs: the values module's (one grammar for every surface).
export { isAddress, parseU256 } from '../../workers/values/index.js'
