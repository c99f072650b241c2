/**
 * Metrics shared by both services: REST-client latency and work-queue depth and latency, with
 * common buckets.
 *
 * <p>Start at {@code RestClientMetrics}.
 */
package io.tyrl.arranger.kube.metrics;
