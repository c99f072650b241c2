package io.tyrl.arranger.controller.kube;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pods this controller created that its pod informer has not shown yet, per job — kube's
 * controller expectations. A job is not planned while some are missing: a plan made before the
 * cache shows a pod the controller just created would take the pod for one still to be created, or,
 * once the status holds it as observed, for one that was lost. The pod's own watch event brings the
 * job back. An expectation the cache never meets (the pod was deleted before the informer saw it)
 * is dropped after the time to live, and the job is planned on what the cache shows.
 */
public final class PodExpectations {

  private static final Logger log = LoggerFactory.getLogger(PodExpectations.class);

  /** How long a created pod is waited for when the service does not say. */
  public static final Duration DEFAULT_TIME_TO_LIVE = Duration.ofSeconds(30);

  /**
   * The names still expected for one job and when the wait ends. Mutable, and touched only inside
   * the map's {@code compute} for its job, which holds that job's entry locked: a job of 5,000
   * workers whose names were copied into a new set at every create cost the square of its size,
   * with the pod creators queued on the entry's lock meanwhile.
   */
  private static final class Expected {
    private final Set<String> podNames = new HashSet<>();
    private Instant deadline;

    Expected(Instant deadline) {
      this.deadline = deadline;
    }
  }

  private final Map<String, Expected> byJob = new ConcurrentHashMap<>();
  private final Duration timeToLive;
  private final Clock clock;

  public PodExpectations(Duration timeToLive, Clock clock) {
    this.timeToLive = timeToLive;
    this.clock = clock;
  }

  /** The pod was created (or found to exist already as the job's own) by this controller. */
  void created(String jobKey, String podName) {
    Instant deadline = clock.instant().plus(timeToLive);
    byJob.compute(
        jobKey,
        (key, expected) -> {
          Expected now = expected == null ? new Expected(deadline) : expected;
          now.podNames.add(podName);
          now.deadline = deadline;
          return now;
        });
  }

  /**
   * True when the cache shows every pod created for the job, or the wait for them has expired; the
   * expectation is then dropped. Checked and dropped in one step, so that a pod created meanwhile
   * is never dropped with it.
   *
   * @param cachedPodNames the names of the job's pods the cache holds now
   */
  boolean satisfied(String jobKey, Set<String> cachedPodNames) {
    boolean[] waiting = {false};
    byJob.computeIfPresent(
        jobKey,
        (key, expected) -> {
          if (cachedPodNames.containsAll(expected.podNames)) {
            return null;
          }
          if (clock.instant().isAfter(expected.deadline)) {
            log.warn(
                "TYJob {}: pods {} created by this controller not seen by the informer within {};"
                    + " planning on the cache",
                jobKey,
                missing(expected.podNames, cachedPodNames),
                timeToLive);
            return null;
          }
          waiting[0] = true;
          return expected;
        });
    return !waiting[0];
  }

  private static Set<String> missing(Set<String> expected, Set<String> cached) {
    Set<String> missing = new TreeSet<>(expected);
    missing.removeAll(cached);
    return missing;
  }

  /** Forgets a job that is gone. */
  void forget(String jobKey) {
    byJob.remove(jobKey);
  }
}
