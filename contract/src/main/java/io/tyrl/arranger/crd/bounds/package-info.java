/**
 * The bounds of a TYJob in plain Java, checked by both services: what the CRD's schema states, and
 * what no schema can (the workers of all sets together, pod names made from the job name).
 *
 * <p>Start at {@code TYJobBounds}.
 */
package io.tyrl.arranger.crd.bounds;
