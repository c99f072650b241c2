package io.tyrl.arranger.testing.chaos;

import io.tyrl.arranger.testing.chaos.ClusterSnapshot.JobState;
import io.tyrl.arranger.testing.chaos.ClusterSnapshot.PodState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Accounts for every good job submitted: a job is <b>lost</b> when it vanishes from the API server
 * (it was seen and is gone, or it has not been seen {@link #NOT_SEEN_GRACE} after its create was
 * accepted: snapshots come from a watch, which may lag a little behind a create), is replaced by
 * another object of its name, or ends Failed (nothing in a run without faulty workloads should fail
 * a good job); it is <b>stuck</b> when it has not ended and nothing about it (stage, allocations,
 * its pods' phases) has changed for longer than the bound. Synchronized: a submitter and a sampler
 * use it from different threads.
 */
public final class JobLedger {

  private static final class Entry {
    final Instant submitted;
    String uid;
    String progress = "";
    Instant lastProgress;
    String stage = "";

    Entry(Instant submitted) {
      this.submitted = submitted;
      this.lastProgress = submitted;
    }
  }

  static final Duration NOT_SEEN_GRACE = Duration.ofSeconds(30);

  private final Duration stuckAfter;
  private final Map<String, Entry> jobs = new LinkedHashMap<>();
  private final Set<String> lost = new LinkedHashSet<>();
  private final Set<String> stuck = new LinkedHashSet<>();
  private int retired;

  public JobLedger(Duration stuckAfter) {
    this.stuckAfter = stuckAfter;
  }

  /** A good job whose create the API server accepted. */
  public synchronized void submitted(String namespace, String name, Instant at) {
    jobs.put(namespace + "/" + name, new Entry(at));
  }

  /**
   * @return the violations first seen in this snapshot
   */
  public synchronized List<String> observe(ClusterSnapshot snapshot) {
    Map<String, JobState> present = new HashMap<>();
    snapshot.jobs().forEach(job -> present.put(job.key(), job));
    Map<String, Map<String, Integer>> podPhasesByJob = new HashMap<>();
    for (PodState pod : snapshot.pods()) {
      if (pod.owner() != null) {
        podPhasesByJob
            .computeIfAbsent(pod.owner(), o -> new TreeMap<>())
            .merge(pod.phase() + (pod.terminating() ? "/terminating" : ""), 1, Integer::sum);
      }
    }
    List<String> found = new ArrayList<>();
    jobs.forEach(
        (key, entry) -> {
          if (entry.submitted.isAfter(snapshot.at())) {
            return;
          }
          JobState job = present.get(key);
          if (job == null) {
            if (entry.uid != null
                || Duration.between(entry.submitted, snapshot.at()).compareTo(NOT_SEEN_GRACE) > 0) {
              report(
                  lost,
                  key,
                  found,
                  "job "
                      + key
                      + (entry.uid != null
                          ? " vanished"
                          : " not seen "
                              + NOT_SEEN_GRACE.toSeconds()
                              + " s after its create was accepted"));
            }
            return;
          }
          if (entry.uid == null) {
            entry.uid = job.uid();
          } else if (!entry.uid.equals(job.uid())) {
            report(
                lost,
                key,
                found,
                "job " + key + " was replaced (uid " + entry.uid + " → " + job.uid() + ")");
            return;
          }
          entry.stage = job.stage();
          if ("Failed".equals(job.stage())) {
            report(lost, key, found, "job " + key + " ended Failed");
            return;
          }
          String progress =
              job.stage()
                  + " "
                  + new TreeMap<>(job.allocations())
                  + " "
                  + podPhasesByJob.getOrDefault(
                      job.uid(), podPhasesByJob.getOrDefault(job.name(), Map.of()));
          if (!progress.equals(entry.progress)) {
            entry.progress = progress;
            entry.lastProgress = snapshot.at();
          } else if (!job.ended()
              && Duration.between(entry.lastProgress, snapshot.at()).compareTo(stuckAfter) > 0) {
            report(
                stuck,
                key,
                found,
                "job "
                    + key
                    + " made no progress for "
                    + stuckAfter.toSeconds()
                    + " s ("
                    + progress
                    + ")");
          }
        });
    return found;
  }

  private static void report(Set<String> set, String key, List<String> found, String message) {
    if (set.add(key)) {
      found.add(message);
    }
  }

  /**
   * Called once the run is over: every good job that has not Succeeded by now counts as stuck, if
   * it is not already counted as lost.
   *
   * @return the jobs newly counted
   */
  public synchronized List<String> closeBooks() {
    List<String> found = new ArrayList<>();
    jobs.forEach(
        (key, entry) -> {
          if (!"Succeeded".equals(entry.stage) && !lost.contains(key)) {
            report(
                stuck,
                key,
                found,
                "job "
                    + key
                    + " did not finish (stage "
                    + (entry.stage.isEmpty() ? "none" : entry.stage)
                    + ")");
          }
        });
    return found;
  }

  public synchronized int submittedJobs() {
    return jobs.size() + retired;
  }

  public synchronized int succeededJobs() {
    return (int) jobs.values().stream().filter(e -> "Succeeded".equals(e.stage)).count() + retired;
  }

  /**
   * Takes the jobs seen Succeeded off the books, so that a long run may delete them (as a TTL
   * would) without their deletion counting as lost; they still count as submitted and succeeded.
   *
   * @return their keys, {@code namespace/name}
   */
  public synchronized List<String> retireSucceeded() {
    List<String> done = new ArrayList<>();
    jobs.entrySet()
        .removeIf(
            entry -> {
              boolean succeeded = "Succeeded".equals(entry.getValue().stage);
              if (succeeded) {
                done.add(entry.getKey());
              }
              return succeeded;
            });
    retired += done.size();
    return done;
  }

  /** Whether every submitted job has Succeeded or is counted as lost. */
  public synchronized boolean allAccountedFor() {
    return jobs.entrySet().stream()
        .allMatch(e -> "Succeeded".equals(e.getValue().stage) || lost.contains(e.getKey()));
  }

  public synchronized int lostJobs() {
    return lost.size();
  }

  public synchronized int stuckJobs() {
    return stuck.size();
  }
}
