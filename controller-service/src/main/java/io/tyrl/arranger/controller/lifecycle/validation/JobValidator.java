package io.tyrl.arranger.controller.lifecycle.validation;

import io.tyrl.arranger.controller.lifecycle.CleanPodPolicy;
import io.tyrl.arranger.controller.lifecycle.JobSpecView;
import io.tyrl.arranger.controller.lifecycle.JobView;
import io.tyrl.arranger.controller.lifecycle.PodNaming;
import io.tyrl.arranger.controller.lifecycle.WorkerSetSpecView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Validation of a TYJob beyond what the CRD's structural schema can express. It reports every
 * problem at once, each naming its field, so one round trip tells the user all they must fix; and
 * it never throws, whatever the view holds.
 */
public final class JobValidator {

  private final TemplateValidator templateValidator = new TemplateValidator();

  /** All problems of {@code job}; empty if the controller can run it. */
  public List<ValidationProblem> validate(JobView job) {
    List<ValidationProblem> problems = new ArrayList<>();
    JobSpecView spec = job.spec();
    DnsLabel.problemWith(job.name()).ifPresent(problem -> problems.add(new ValidationProblem("metadata.name", problem)));
    validateNumbers(spec, problems);
    validateLeader(job, problems);
    validateWorkerSets(job, problems);
    return List.copyOf(problems);
  }

  private void validateNumbers(JobSpecView spec, List<ValidationProblem> problems) {
    if (spec.restartLimit() < 0) {
      problems.add(new ValidationProblem("spec.restartLimit", "%d must not be negative".formatted(spec.restartLimit())));
    }
    if (spec.minWorkersNum() < 0) {
      problems.add(new ValidationProblem("spec.minWorkersNum", "%d must not be negative".formatted(spec.minWorkersNum())));
    } else if (spec.minWorkersNum() > spec.totalWorkers()) {
      problems.add(new ValidationProblem("spec.minWorkersNum",
          "%d is more than the %d workers of all workerSets together".formatted(spec.minWorkersNum(), spec.totalWorkers())));
    }
    if (CleanPodPolicy.fromWireName(spec.cleanPodPolicy()).isEmpty()) {
      problems.add(new ValidationProblem("spec.cleanPodPolicy",
          "\"%s\" is not one of All, Running, None".formatted(spec.cleanPodPolicy())));
    }
  }

  private void validateLeader(JobView job, List<ValidationProblem> problems) {
    String leaderName = job.spec().leader().name();
    Optional<String> nameProblem = DnsLabel.problemWith(leaderName);
    if (nameProblem.isPresent()) {
      problems.add(new ValidationProblem("spec.leader.name", nameProblem.get()));
    } else {
      podNameProblem(PodNaming.leaderPodName(job.name(), leaderName))
          .ifPresent(problem -> problems.add(new ValidationProblem("spec.leader.name", problem)));
    }
    templateValidator.validate("spec.leader.template", job.spec().leader().template(), problems);
  }

  private void validateWorkerSets(JobView job, List<ValidationProblem> problems) {
    List<WorkerSetSpecView> workerSets = job.spec().workerSets();
    if (workerSets.isEmpty()) {
      problems.add(new ValidationProblem("spec.workerSets", "at least one WorkerSet is required"));
    }
    Map<String, Integer> firstIndexByName = new HashMap<>();
    String leaderName = job.spec().leader().name();
    for (int i = 0; i < workerSets.size(); i++) {
      String path = "spec.workerSets[" + i + "]";
      WorkerSetSpecView workerSet = workerSets.get(i);
      Optional<String> nameProblem = DnsLabel.problemWith(workerSet.name());
      if (nameProblem.isPresent()) {
        problems.add(new ValidationProblem(path + ".name", nameProblem.get()));
      } else if (firstIndexByName.putIfAbsent(workerSet.name(), i) != null) {
        problems.add(new ValidationProblem(path + ".name", "duplicate name \"%s\"".formatted(workerSet.name())));
      } else if (workerSet.name().equals(leaderName)) {
        problems.add(new ValidationProblem(path + ".name",
            "\"%s\" is also the name of spec.leader; leader and WorkerSets need distinct names".formatted(leaderName)));
      } else {
        validateWorkerPodNames(job, path, workerSet, problems);
      }
      if (workerSet.counts() < 1) {
        problems.add(new ValidationProblem(path + ".counts", "%d must be at least 1".formatted(workerSet.counts())));
      }
      templateValidator.validate(path + ".template", workerSet.template(), problems);
    }
  }

  private void validateWorkerPodNames(JobView job, String path, WorkerSetSpecView workerSet, List<ValidationProblem> problems) {
    if (workerSet.counts() < 1) {
      return;
    }
    // The highest index gives the longest name; shorter ones fit if it does.
    String longest = PodNaming.workerPodName(job.name(), workerSet.name(), workerSet.counts() - 1);
    podNameProblem(longest).ifPresent(problem -> problems.add(new ValidationProblem(path + ".name", problem)));
    leaderCollision(job, workerSet).ifPresent(index -> problems.add(new ValidationProblem("spec.leader.name",
        "pod name \"%s\" is also the name of worker %d of %s".formatted(
            PodNaming.leaderPodName(job.name(), job.spec().leader().name()), index, path))));
  }

  /**
   * The index of the worker whose pod name equals the leader's, if any. Only the leader can
   * collide: two worker names {@code <set>-<digits>} of different sets never do, because a set
   * name that is a prefix of another would leave a '-' inside the other's digits.
   */
  private Optional<Integer> leaderCollision(JobView job, WorkerSetSpecView workerSet) {
    String leaderName = job.spec().leader().name();
    String prefix = workerSet.name() + "-";
    if (!leaderName.startsWith(prefix)) {
      return Optional.empty();
    }
    String digits = leaderName.substring(prefix.length());
    boolean canonicalIndex = digits.matches("0|[1-9][0-9]{0,8}");
    if (!canonicalIndex) {
      return Optional.empty();
    }
    int index = Integer.parseInt(digits);
    return index < workerSet.counts() ? Optional.of(index) : Optional.empty();
  }

  private Optional<String> podNameProblem(String podName) {
    return DnsLabel.problemWith(podName).map(problem -> "pod name " + problem);
  }
}
