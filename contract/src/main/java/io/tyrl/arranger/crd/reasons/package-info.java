/**
 * The reasons a TYJob's status and its Events carry, in one list for both services, and those of a
 * Queue's conditions and Events ({@code QueueReasons}).
 *
 * <p>Start at {@code SchedulingReasons}; {@code docs/what-you-see.md} explains each.
 */
package io.tyrl.arranger.crd.reasons;
