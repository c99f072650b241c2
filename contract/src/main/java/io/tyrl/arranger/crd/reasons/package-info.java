/**
 * The reasons a TYJob's status and its Events carry, in one list for both services.
 *
 * <p>Start at {@code SchedulingReasons}; {@code docs/what-you-see.md} explains each.
 */
package io.tyrl.arranger.crd.reasons;
