// The Piscina entry for route search: one plain, structured-cloneable argument in (bigints clone
// fine), the result out. No I/O and no module state, so it runs the same inline or on the pool.
import { findRoute, type FindRouteInput, type RouteResult } from './findRoute.js'

export default (input: FindRouteInput): RouteResult => findRoute(input)
