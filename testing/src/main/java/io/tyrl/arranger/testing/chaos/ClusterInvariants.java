package io.tyrl.arranger.testing.chaos;

import io.tyrl.arranger.testing.chaos.CapacityCheck.Overcommit;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The promises a chaos run checks, over the whole run: no node over-committed, no pod allocated
 * twice, no pod created twice, no good job lost or stuck. Fed with snapshots by a sampler and with
 * pod events by a watch; keeps a message for every violation found.
 *
 * <p>A node counts as over-committed only when two consecutive snapshots show it so: a snapshot is
 * assembled from separate reads of pods and TYJobs, which are not one consistent cut, so a job's
 * fresh allocation can meet a pod list that still holds the pods whose room it took. Any real
 * over-commit lasts (pods run for seconds), a torn read does not.
 */
public final class ClusterInvariants {

  private final PlacementHistory placements = new PlacementHistory();
  private final PodHistory pods = new PodHistory();
  private final JobLedger jobs;
  private final Set<String> overcommittedNodes = new LinkedHashSet<>();
  private final List<String> violations = new CopyOnWriteArrayList<>();
  private Set<String> overLastTime = Set.of();
  private int samples;

  public ClusterInvariants(Duration stuckAfter) {
    this.jobs = new JobLedger(stuckAfter);
  }

  public void submitted(String namespace, String name, Instant at) {
    jobs.submitted(namespace, name, at);
  }

  public synchronized void observe(ClusterSnapshot snapshot) {
    samples++;
    List<Overcommit> over = CapacityCheck.overcommitted(snapshot);
    Set<String> overNow = new HashSet<>();
    for (Overcommit overcommit : over) {
      overNow.add(overcommit.node());
      if (overLastTime.contains(overcommit.node()) && overcommittedNodes.add(overcommit.node())) {
        violations.add(snapshot.at() + " " + overcommit);
      }
    }
    overLastTime = overNow;
    placements.observe(snapshot).forEach(v -> violations.add(snapshot.at() + " " + v));
    jobs.observe(snapshot).forEach(v -> violations.add(snapshot.at() + " " + v));
  }

  public void podSeen(PodState pod) {
    String violation = pods.seen(pod);
    if (violation != null) {
      violations.add(Instant.now() + " " + violation);
    }
  }

  public void podGone(PodState pod) {
    pods.gone(pod);
  }

  /**
   * Ends the books: every good job not Succeeded by now counts as stuck (see {@link
   * JobLedger#closeBooks()}).
   */
  public void closeBooks() {
    jobs.closeBooks().forEach(v -> violations.add(Instant.now() + " " + v));
  }

  public synchronized int samples() {
    return samples;
  }

  public JobLedger jobs() {
    return jobs;
  }

  public synchronized int overcommittedNodes() {
    return overcommittedNodes.size();
  }

  public synchronized int doubleAllocations() {
    return placements.doubleAllocations();
  }

  public int duplicatePods() {
    return pods.duplicatePods();
  }

  public int lostJobs() {
    return jobs.lostJobs();
  }

  public int stuckJobs() {
    return jobs.stuckJobs();
  }

  public List<String> violations() {
    return new ArrayList<>(violations);
  }
}
