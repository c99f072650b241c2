package io.tyrl.arranger.crd.bounds;

import io.tyrl.arranger.crd.contract.GoDurations;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The bounds of a TYJob: the one contract that the CRD's schema ({@code
 * crds/tyjobs.arranger.tyrl.io.yaml}), the controller and the scheduler enforce alike. The schema
 * refuses most of them at the API server; both services check them again because an older CRD
 * without them may be installed, and because some cannot be written in a schema at all (the sum of
 * {@code counts}, pod names built from the job name). {@code TYJobBoundsCrdTest} keeps the
 * constants and the schema equal. {@code docs/reference.md} explains each choice.
 *
 * <p>Pure Java (no Kubernetes client, no generated model, no Spring), so the controller's pure
 * lifecycle core can call it; {@code TYJobModelBounds} (shared-crd-model) reads the generated model
 * into a {@link TYJobShape} for the scheduler. The check never throws and never allocates in
 * proportion to {@code counts}: it is what must run before anything materialises one object per
 * worker.
 */
public final class TYJobBounds {

  /**
   * The most workers one job may ask for over all its WorkerSets. Every pod has an entry in the
   * job's {@code status.allocations}, and a TYJob must stay well below etcd's 1.5 MiB object limit:
   * 5000 entries of a 63-character pod name and a 63-character node name take about 660 KiB.
   */
  public static final int MAX_WORKERS_PER_JOB = 5000;

  /**
   * {@code spec.workerSets[].counts}: a schema cannot bound the sum, so one set may ask for the
   * whole job's bound.
   */
  public static final int MIN_COUNTS = 1;

  public static final int MAX_COUNTS = MAX_WORKERS_PER_JOB;

  /**
   * {@code spec.workerSets}: a learner with actors, evaluators, replay and inference servers needs
   * a handful.
   */
  public static final int MIN_WORKER_SETS = 1;

  public static final int MAX_WORKER_SETS = 32;

  /**
   * {@code spec.restartLimit}: far above any useful limit, and inside int32, which 1.20 does not
   * enforce.
   */
  public static final int MIN_RESTART_LIMIT = 0;

  public static final int MAX_RESTART_LIMIT = 10_000;

  /** {@code spec.minWorkersNum}: never more than the workers a job may have. */
  public static final int MIN_MIN_WORKERS_NUM = 0;

  public static final int MAX_MIN_WORKERS_NUM = MAX_WORKERS_PER_JOB;

  /** {@code spec.priority}: ten levels, 10 the most urgent. */
  public static final int MIN_PRIORITY = 1;

  public static final int MAX_PRIORITY = 10;

  /**
   * Pod names are host names (DNS labels, 63 characters) and the job name is the value of the
   * {@code arranger.tyrl.io/job-name} label (63 characters).
   */
  public static final int MAX_DNS_LABEL_LENGTH = 63;

  public static final int MAX_POD_NAME_LENGTH = MAX_DNS_LABEL_LENGTH;
  public static final int MAX_JOB_NAME_LENGTH = 63;

  /** The highest worker index has this many digits: {@code MAX_COUNTS - 1} = 4999. */
  public static final int MAX_WORKER_INDEX_DIGITS = Integer.toString(MAX_COUNTS - 1).length();

  /** {@code <job>-<leader>} fits 63 characters with a one-letter job name. */
  public static final int MAX_LEADER_NAME_LENGTH = MAX_POD_NAME_LENGTH - 2;

  /**
   * {@code <job>-<set>-<index>} fits 63 characters with a one-letter job name and the highest
   * index.
   */
  public static final int MAX_WORKER_SET_NAME_LENGTH =
      MAX_POD_NAME_LENGTH - 3 - MAX_WORKER_INDEX_DIGITS;

  /** {@code spec.volumes[].name}: a pod's volume names are DNS labels. */
  public static final int MAX_VOLUME_NAME_LENGTH = 63;

  /** {@code spec.queue}: Queues are cluster-scoped objects, named as DNS subdomains. */
  public static final int MAX_QUEUE_NAME_LENGTH = 253;

  /** {@code spec.gang.waitTime}: a Go duration; longer text is no sensible wait. */
  public static final int MAX_WAIT_TIME_LENGTH = 32;

  /** {@code spec.gang.group}: a name, as long as an object name may be. */
  public static final int MAX_GANG_GROUP_LENGTH = 253;

  /** RFC 1123 label, as in the CRD. */
  public static final String DNS_LABEL_PATTERN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";

  /** RFC 1123 subdomain, as in the CRD. */
  public static final String DNS_SUBDOMAIN_PATTERN =
      "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

  private static final String DNS_LABEL_FORM =
      "a DNS label: use lower-case letters, digits and '-', starting and ending with a letter or digit";
  private static final Pattern DNS_LABEL = Pattern.compile(DNS_LABEL_PATTERN);
  private static final Pattern DNS_SUBDOMAIN = Pattern.compile(DNS_SUBDOMAIN_PATTERN);
  private static final Pattern DURATION = Pattern.compile(GoDurations.PATTERN);

  /**
   * Offending text is quoted in messages up to this length, so that a megabyte of name makes no
   * megabyte of status.
   */
  private static final int MAX_QUOTED_LENGTH = 80;

  private TYJobBounds() {}

  /**
   * Every value of {@code job} outside the bounds, in field order; empty if it is within all of
   * them. Pod names are checked only when the names and counts that make them are within bounds
   * themselves, so that one mistake is reported once.
   */
  public static List<BoundsProblem> problems(TYJobShape job) {
    List<BoundsProblem> problems = new ArrayList<>();
    boolean jobNameFits = checkJobName(job.jobName(), problems);
    range(
        "spec.restartLimit",
        job.restartLimit(),
        MIN_RESTART_LIMIT,
        MAX_RESTART_LIMIT,
        "",
        problems);
    range(
        "spec.minWorkersNum",
        job.minWorkersNum(),
        MIN_MIN_WORKERS_NUM,
        MAX_MIN_WORKERS_NUM,
        "",
        problems);
    range("spec.priority", job.priority(), MIN_PRIORITY, MAX_PRIORITY, "", problems);
    checkVolumes(job.volumeNames(), problems);
    boolean leaderNameFits =
        name(
            "spec.leader.name",
            job.leaderName(),
            MAX_LEADER_NAME_LENGTH,
            DNS_LABEL,
            DNS_LABEL_FORM,
            problems);
    if (jobNameFits && leaderNameFits) {
      podName("spec.leader.name", job.jobName() + "-" + job.leaderName(), problems);
    }
    checkWorkerSets(job, jobNameFits, problems);
    if (job.queue() != null) {
      name(
          "spec.queue",
          job.queue(),
          MAX_QUEUE_NAME_LENGTH,
          DNS_SUBDOMAIN,
          "a Queue name: DNS labels joined by '.'",
          problems);
    }
    if (job.gangWaitTime() != null) {
      name(
          "spec.gang.waitTime",
          job.gangWaitTime(),
          MAX_WAIT_TIME_LENGTH,
          DURATION,
          "a duration such as 90s, 10m or 1h30m",
          problems);
    }
    if (job.gangGroup() != null && job.gangGroup().length() > MAX_GANG_GROUP_LENGTH) {
      problems.add(tooLong("spec.gang.group", job.gangGroup(), MAX_GANG_GROUP_LENGTH));
    }
    return List.copyOf(problems);
  }

  /**
   * Whether {@code job} is within every bound; the guard to pass before materialising its workers.
   */
  public static boolean isWithinBounds(TYJobShape job) {
    return problems(job).isEmpty();
  }

  private static boolean checkJobName(String jobName, List<BoundsProblem> problems) {
    if (jobName == null || jobName.isEmpty()) {
      problems.add(new BoundsProblem("metadata.name", "", "is required"));
      return false;
    }
    // The API server only asks for a DNS subdomain (253 characters, dots allowed); pod names and
    // label values need a DNS label.
    return name("metadata.name", jobName, MAX_JOB_NAME_LENGTH, DNS_LABEL, DNS_LABEL_FORM, problems);
  }

  private static void checkVolumes(List<String> volumeNames, List<BoundsProblem> problems) {
    for (int i = 0; i < volumeNames.size(); i++) {
      name(
          "spec.volumes[" + i + "].name",
          volumeNames.get(i),
          MAX_VOLUME_NAME_LENGTH,
          DNS_LABEL,
          DNS_LABEL_FORM,
          problems);
    }
  }

  private static void checkWorkerSets(
      TYJobShape job, boolean jobNameFits, List<BoundsProblem> problems) {
    List<TYJobShape.WorkerSet> workerSets = job.workerSets();
    if (workerSets.size() < MIN_WORKER_SETS) {
      problems.add(
          new BoundsProblem(
              "spec.workerSets",
              "[]",
              "at least %d WorkerSet is required".formatted(MIN_WORKER_SETS)));
    } else if (workerSets.size() > MAX_WORKER_SETS) {
      problems.add(
          new BoundsProblem(
              "spec.workerSets",
              workerSets.size() + " WorkerSets",
              "has %d WorkerSets, more than the %d a job may have"
                  .formatted(workerSets.size(), MAX_WORKER_SETS)));
    }
    long totalWorkers = 0;
    boolean everyCountsFits = true;
    // Past the bound only the first sets are looked at: a job of 100000 sets gets one problem, not
    // 100000.
    int checked = Math.min(workerSets.size(), MAX_WORKER_SETS);
    for (int i = 0; i < checked; i++) {
      String path = "spec.workerSets[" + i + "]";
      TYJobShape.WorkerSet workerSet = workerSets.get(i);
      // An absent counts is defaulted to 1 by the API server.
      long counts = workerSet.counts() == null ? 1 : workerSet.counts();
      boolean countsFits =
          range(path + ".counts", counts, MIN_COUNTS, MAX_COUNTS, " per WorkerSet", problems);
      everyCountsFits &= countsFits;
      if (countsFits) {
        totalWorkers += counts;
      }
      boolean nameFits =
          name(
              path + ".name",
              workerSet.name(),
              MAX_WORKER_SET_NAME_LENGTH,
              DNS_LABEL,
              DNS_LABEL_FORM,
              problems);
      if (jobNameFits && nameFits && countsFits) {
        // The highest index makes the longest name; the others fit if it does.
        podName(
            path + ".name", job.jobName() + "-" + workerSet.name() + "-" + (counts - 1), problems);
      }
    }
    if (!everyCountsFits) {
      return;
    }
    if (totalWorkers > MAX_WORKERS_PER_JOB) {
      problems.add(
          new BoundsProblem(
              "spec.workerSets",
              Long.toString(totalWorkers),
              "the WorkerSets ask for %d workers together, more than the %d a job may have"
                  .formatted(totalWorkers, MAX_WORKERS_PER_JOB)));
    }
    Long minWorkersNum = job.minWorkersNum();
    boolean minWorkersNumInRange =
        minWorkersNum != null
            && minWorkersNum >= MIN_MIN_WORKERS_NUM
            && minWorkersNum <= MAX_MIN_WORKERS_NUM;
    if (minWorkersNumInRange && minWorkersNum > totalWorkers) {
      problems.add(
          new BoundsProblem(
              "spec.minWorkersNum",
              minWorkersNum.toString(),
              "%d is more than the %d workers of all WorkerSets together"
                  .formatted(minWorkersNum, totalWorkers)));
    }
  }

  /** Adds a problem unless {@code min <= value <= max}; true if it is within (or absent). */
  private static boolean range(
      String field, Long value, long min, long max, String unit, List<BoundsProblem> problems) {
    if (value == null) {
      return true;
    }
    if (value < min) {
      problems.add(
          new BoundsProblem(
              field,
              value.toString(),
              "%d is less than the minimum %d%s".formatted(value, min, unit)));
      return false;
    }
    if (value > max) {
      problems.add(
          new BoundsProblem(
              field,
              value.toString(),
              "%d is more than the maximum %d%s".formatted(value, max, unit)));
      return false;
    }
    return true;
  }

  /** Adds a problem unless {@code value} is present, short enough and matches; true if it fits. */
  private static boolean name(
      String field,
      String value,
      int maxLength,
      Pattern pattern,
      String form,
      List<BoundsProblem> problems) {
    if (value == null) {
      problems.add(new BoundsProblem(field, "", "is required"));
      return false;
    }
    if (value.isEmpty()) {
      problems.add(new BoundsProblem(field, "", "must not be empty"));
      return false;
    }
    if (value.length() > maxLength) {
      problems.add(tooLong(field, value, maxLength));
      return false;
    }
    if (!pattern.matcher(value).matches()) {
      problems.add(new BoundsProblem(field, value, "%s is not %s".formatted(quoted(value), form)));
      return false;
    }
    return true;
  }

  private static void podName(String field, String podName, List<BoundsProblem> problems) {
    if (podName.length() > MAX_POD_NAME_LENGTH) {
      problems.add(
          new BoundsProblem(
              field,
              podName,
              "pod name %s is %d characters long, more than the %d allowed"
                  .formatted(quoted(podName), podName.length(), MAX_POD_NAME_LENGTH)));
    }
  }

  private static BoundsProblem tooLong(String field, String value, int maxLength) {
    return new BoundsProblem(
        field,
        value,
        "%s is %d characters long, more than the %d allowed"
            .formatted(quoted(value), value.length(), maxLength));
  }

  private static String quoted(String value) {
    return value.length() <= MAX_QUOTED_LENGTH
        ? "\"" + value + "\""
        : "\"" + value.substring(0, MAX_QUOTED_LENGTH) + "…\"";
  }
}
