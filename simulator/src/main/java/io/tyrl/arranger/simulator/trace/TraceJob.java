package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One job submission of a trace: a leader and one set of {@code workers} identical workers, of
 * which {@code minWorkers} must be placed with the leader before the job starts; it runs for {@code
 * duration} once its minimum is running.
 *
 * @param submitSeconds seconds after the trace's start
 * @param queueWeight the weight of the job's queue (every job of a queue must give the same)
 * @param waitTime the gang's waitTime; null = none
 * @param basicPolicy null = the scheduler's default node order
 * @param topology the job's {@code spec.topology}; {@link TopologyRequest#NONE} when it asks none
 */
public record TraceJob(
    String name,
    double submitSeconds,
    String queue,
    int queueWeight,
    int priority,
    Resource leader,
    Resource worker,
    int workers,
    int minWorkers,
    Duration duration,
    GangMode gang,
    Duration waitTime,
    BasicPolicy basicPolicy,
    TopologyRequest topology) {

  /** A job asking no topology. */
  public TraceJob(
      String name,
      double submitSeconds,
      String queue,
      int queueWeight,
      int priority,
      Resource leader,
      Resource worker,
      int workers,
      int minWorkers,
      Duration duration,
      GangMode gang,
      Duration waitTime,
      BasicPolicy basicPolicy) {
    this(
        name,
        submitSeconds,
        queue,
        queueWeight,
        priority,
        leader,
        worker,
        workers,
        minWorkers,
        duration,
        gang,
        waitTime,
        basicPolicy,
        TopologyRequest.NONE);
  }

  public TraceJob {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
    if (!(submitSeconds >= 0) || Double.isInfinite(submitSeconds)) {
      throw new IllegalArgumentException(
          "job " + name + ": submit time must be a finite number >= 0, was " + submitSeconds);
    }
    if (queue == null || queue.isBlank()) {
      throw new IllegalArgumentException("job " + name + ": queue must not be blank");
    }
    if (queueWeight < 1) {
      throw new IllegalArgumentException(
          "job " + name + ": queue weight must be >= 1, was " + queueWeight);
    }
    if (priority < 1 || priority > 10) {
      throw new IllegalArgumentException(
          "job " + name + ": priority must be within 1..10, was " + priority);
    }
    Objects.requireNonNull(leader, "job " + name + ": leader request");
    Objects.requireNonNull(worker, "job " + name + ": worker request");
    if (workers < 0) {
      throw new IllegalArgumentException("job " + name + ": workers must be >= 0, was " + workers);
    }
    if (minWorkers < 0 || minWorkers > workers) {
      throw new IllegalArgumentException(
          "job " + name + ": minWorkers must be within 0.." + workers + ", was " + minWorkers);
    }
    Objects.requireNonNull(duration, "job " + name + ": duration");
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(
          "job " + name + ": duration must be positive, was " + duration);
    }
    gang = gang == null ? GangMode.STRICT : gang;
    topology = topology == null ? TopologyRequest.NONE : topology;
    if (waitTime != null && (waitTime.isNegative() || waitTime.isZero())) {
      throw new IllegalArgumentException(
          "job " + name + ": waitTime must be positive, was " + waitTime);
    }
  }

  /** Everything the job asks for with all its workers placed. */
  public Resource fullRequest() {
    return leader.plus(worker.times(workers));
  }

  /** What the job needs to start: the leader and its minimum of workers. */
  public Resource minimumRequest() {
    return leader.plus(worker.times(minWorkers));
  }

  public Optional<Duration> waitTimeIfSet() {
    return Optional.ofNullable(waitTime);
  }

  public TraceJob withTopology(TopologyRequest request) {
    return new TraceJob(
        name,
        submitSeconds,
        queue,
        queueWeight,
        priority,
        leader,
        worker,
        workers,
        minWorkers,
        duration,
        gang,
        waitTime,
        basicPolicy,
        request);
  }

  public TraceJob withGang(GangMode mode) {
    return new TraceJob(
        name,
        submitSeconds,
        queue,
        queueWeight,
        priority,
        leader,
        worker,
        workers,
        minWorkers,
        duration,
        mode,
        waitTime,
        basicPolicy,
        topology);
  }

  public TraceJob withBasicPolicy(BasicPolicy policy) {
    return new TraceJob(
        name,
        submitSeconds,
        queue,
        queueWeight,
        priority,
        leader,
        worker,
        workers,
        minWorkers,
        duration,
        gang,
        waitTime,
        policy,
        topology);
  }
}
