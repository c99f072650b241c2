package io.tyrl.arranger.scheduler.api;

import java.util.Optional;

/**
 * Where a job's pods must, or should, sit in the cluster's topology ({@code spec.topology}): each a
 * level, that is a node-label key of the scheduler's {@link TopologyLevels}, or null.
 *
 * @param required the gang minimum goes into one domain of this level, or is not placed; every
 *     later pod stays in that domain
 * @param preferred a narrower level whose one domain the pods should share, as far as room allows
 */
public record TopologyRequest(String required, String preferred) {

  /** No topology asked: placement as without levels. */
  public static final TopologyRequest NONE = new TopologyRequest(null, null);

  public TopologyRequest {
    required = required == null || required.isBlank() ? null : required;
    preferred = preferred == null || preferred.isBlank() ? null : preferred;
  }

  public Optional<String> requiredIfSet() {
    return Optional.ofNullable(required);
  }

  public Optional<String> preferredIfSet() {
    return Optional.ofNullable(preferred);
  }

  public boolean isEmpty() {
    return required == null && preferred == null;
  }

  /**
   * A worker set's override: its own preferred level (or none, when it asks for none), under the
   * job's required one, which binds every pod of the job.
   */
  public TopologyRequest withPreferred(String newPreferred) {
    return new TopologyRequest(required, newPreferred);
  }
}
