/**
 * The one Event recorder both services use: occurrences correlated as client-go does, written
 * asynchronously from a bounded queue, fenced by leadership, retried with backoff and a bound.
 *
 * <p>Start at {@code EventRecorder}; the counting rules are in {@code EventCorrelator}.
 */
package io.tyrl.arranger.kube.events;
