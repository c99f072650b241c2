package io.tyrl.arranger.simulator.metrics;

/**
 * What became of one job, in seconds from the trace's start; NaN where it never happened.
 *
 * @param started when its minimum was first placed (the end of its queueing delay)
 * @param finished when it ended, having run its duration
 * @param failure the scheduler's reason when it failed the job (e.g. GangTimeout), else null
 * @param restarts how often it was evicted whole and had to start again
 * @param deadlocked true when it held part of its gang longer than the deadlock threshold
 *     <p>{@code requiredInDomain} / {@code preferredInDomain}: whether the pods placed when the job
 *     first started shared one domain of its required / preferred topology level; null when the job
 *     asked no such level, or its minimum sat on one node. {@code preferredMinimumInDomain}:
 *     whether its leader's domain of the preferred level held at least its gang minimum of workers
 *     — what the preferred level asks of placement; elastic workers above it may spill to the
 *     nearest domain with room.
 */
public record JobOutcome(
    String name,
    String queue,
    double submitted,
    double started,
    double finished,
    String failure,
    int restarts,
    boolean deadlocked,
    Boolean requiredInDomain,
    Boolean preferredInDomain,
    Boolean preferredMinimumInDomain) {

  /** The outcome of a job that asked no topology (or was not placed over several nodes). */
  public JobOutcome(
      String name,
      String queue,
      double submitted,
      double started,
      double finished,
      String failure,
      int restarts,
      boolean deadlocked) {
    this(
        name, queue, submitted, started, finished, failure, restarts, deadlocked, null, null, null);
  }

  public boolean hasStarted() {
    return !Double.isNaN(started);
  }

  public boolean hasFinished() {
    return !Double.isNaN(finished);
  }
}
