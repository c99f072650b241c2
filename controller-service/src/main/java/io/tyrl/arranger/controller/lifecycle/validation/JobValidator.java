package io.tyrl.arranger.controller.lifecycle.validation;

import io.tyrl.arranger.controller.lifecycle.observe.CleanPodPolicy;
import io.tyrl.arranger.controller.lifecycle.observe.JobSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.UnplannedSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.UnreadableField;
import io.tyrl.arranger.controller.lifecycle.observe.WorkerSetSpecView;
import io.tyrl.arranger.crd.bounds.BoundsProblem;
import io.tyrl.arranger.crd.bounds.TYJobBounds;
import io.tyrl.arranger.crd.bounds.TYJobShape;
import io.tyrl.arranger.crd.contract.PodNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Validation of a TYJob beyond what the CRD's structural schema can express. It reports every
 * problem at once, each naming its field, so one round trip tells the user all they must fix; and
 * it never throws, whatever the view holds.
 *
 * <p>The numeric bounds, name lengths and patterns are the shared {@link TYJobBounds}, the same the
 * CRD states and the scheduler checks: an older CRD without them may be installed, and some (the
 * workers of all sets together, pod names made from the job name) no schema can state.
 */
public final class JobValidator {

  private final TemplateValidator templateValidator = new TemplateValidator();

  /** All problems of {@code job}; empty if the controller can run it. */
  public List<ValidationProblem> validate(JobView job) {
    if (job.spec().unreadable().isPresent()) {
      // Nothing else of the spec is known: every other check would only report what is missing.
      UnreadableField unreadable = job.spec().unreadable().get();
      return List.of(new ValidationProblem(unreadable.field(), unreadable.reason()));
    }
    List<BoundsProblem> boundsProblems = TYJobBounds.problems(shape(job));
    List<ValidationProblem> problems = new ArrayList<>();
    boundsProblems.forEach(
        problem -> problems.add(new ValidationProblem(problem.field(), problem.message())));
    Set<String> fieldsOutOfBounds = new HashSet<>();
    boundsProblems.forEach(problem -> fieldsOutOfBounds.add(problem.field()));

    JobSpecView spec = job.spec();
    if (CleanPodPolicy.fromWireName(spec.cleanPodPolicy()).isEmpty()) {
      problems.add(
          new ValidationProblem(
              "spec.cleanPodPolicy",
              "\"%s\" is not one of All, Running, None".formatted(spec.cleanPodPolicy())));
    }
    templateValidator.validate("spec.leader.template", spec.leader().template(), problems);
    validateWorkerSets(job, fieldsOutOfBounds, problems);
    return List.copyOf(problems);
  }

  /**
   * Whether the job's counts and names are within the shared bounds: the guard that must hold
   * before anything makes one object per worker. Cheap, whatever the counts.
   */
  public boolean isWithinBounds(JobView job) {
    return job.spec().unreadable().isEmpty() && TYJobBounds.isWithinBounds(shape(job));
  }

  private static TYJobShape shape(JobView job) {
    JobSpecView spec = job.spec();
    UnplannedSpecView unplanned = spec.unplanned();
    List<TYJobShape.WorkerSet> workerSets = new ArrayList<>(spec.workerSets().size());
    spec.workerSets()
        .forEach(set -> workerSets.add(new TYJobShape.WorkerSet(set.name(), set.counts())));
    return new TYJobShape(
        job.name(),
        spec.leader().name(),
        workerSets,
        spec.restartLimit(),
        spec.minWorkersNum(),
        unplanned.priority(),
        unplanned.queue(),
        unplanned.gangWaitTime(),
        unplanned.gangGroup(),
        unplanned.volumeNames());
  }

  private void validateWorkerSets(
      JobView job, Set<String> fieldsOutOfBounds, List<ValidationProblem> problems) {
    List<WorkerSetSpecView> workerSets = job.spec().workerSets();
    Map<String, Integer> firstIndexByName = new HashMap<>();
    String leaderName = job.spec().leader().name();
    // Past the bound on WorkerSets only the first are looked at, as the bounds check does.
    int checked = Math.min(workerSets.size(), TYJobBounds.MAX_WORKER_SETS);
    for (int i = 0; i < checked; i++) {
      String path = "spec.workerSets[" + i + "]";
      WorkerSetSpecView workerSet = workerSets.get(i);
      // A name or counts out of bounds is reported by the bounds check; the checks below need both
      // sound.
      boolean nameWithinBounds = !fieldsOutOfBounds.contains(path + ".name");
      boolean countsWithinBounds = !fieldsOutOfBounds.contains(path + ".counts");
      if (nameWithinBounds) {
        if (firstIndexByName.putIfAbsent(workerSet.name(), i) != null) {
          problems.add(
              new ValidationProblem(
                  path + ".name", "duplicate name \"%s\"".formatted(workerSet.name())));
        } else if (workerSet.name().equals(leaderName)) {
          problems.add(
              new ValidationProblem(
                  path + ".name",
                  "\"%s\" is also the name of spec.leader; leader and WorkerSets need distinct names"
                      .formatted(leaderName)));
        } else if (countsWithinBounds && !fieldsOutOfBounds.contains("spec.leader.name")) {
          leaderCollision(job, workerSet)
              .ifPresent(
                  index ->
                      problems.add(
                          new ValidationProblem(
                              "spec.leader.name",
                              "pod name \"%s\" is also the name of worker %d of %s"
                                  .formatted(
                                      PodNames.leader(job.name(), leaderName), index, path))));
        }
      }
      templateValidator.validate(path + ".template", workerSet.template(), problems);
    }
  }

  /**
   * The index of the worker whose pod name equals the leader's, if any. Only the leader can
   * collide: two worker names {@code <set>-<digits>} of different sets never do, because a set name
   * that is a prefix of another would leave a '-' inside the other's digits.
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
}
