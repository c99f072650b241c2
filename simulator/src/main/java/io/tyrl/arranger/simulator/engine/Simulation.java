package io.tyrl.arranger.simulator.engine;

import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EvictionWording;
import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.conf.PluginConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.TierConfiguration;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.CyclePacing;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.framework.UsageLedger;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.plugins.GangPlugin;
import io.tyrl.arranger.simulator.metrics.AllocationPoint;
import io.tyrl.arranger.simulator.metrics.Eviction;
import io.tyrl.arranger.simulator.metrics.JobOutcome;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import io.tyrl.arranger.simulator.metrics.TreeFairShare;
import io.tyrl.arranger.simulator.trace.ClusterShape;
import io.tyrl.arranger.simulator.trace.Gpus;
import io.tyrl.arranger.simulator.trace.QueueSpec;
import io.tyrl.arranger.simulator.trace.QueueTree;
import io.tyrl.arranger.simulator.trace.Trace;
import io.tyrl.arranger.simulator.trace.TraceJob;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * Replays a trace through the scheduler's real core in simulated time. Around the core it plays
 * what the services and the cluster would do: the scheduler's cycle every {@code period} and, for
 * Arranger's configurations, soon after each change as its loop starts them ({@link CyclePacing});
 * the controller moving a job to Starting when its minimum is placed and to Running {@code
 * podStartup} later, its run then lasting the job's duration; evicted pods holding their room for
 * {@code podTermination}; a job evicted whole going back to Rescheduling and losing its progress
 * (no checkpoint); a failed job leaving.
 *
 * <p>Cycles whose outcome is known are skipped: the core is a function of its snapshot and its
 * clock, and the clock matters only through gang deadlines (waitTime, the NonStrict reservation
 * timeout). So after a cycle that changed nothing, the next one run is the first of the loop's
 * periodic cycles at or after the next event (an arrival, a job starting to run or ending, a pod
 * gone) or gang deadline — or, cycling on change, the one that event starts; a cycle that changed
 * something is followed by one a period later, as in the real loop. {@link #run(Trace,
 * ClusterShape, Variant, SimulationSettings, boolean)} with {@code everyPeriod} runs every cycle
 * instead, which tests use to show that skipping changes nothing.
 */
public final class Simulation {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

  private enum Kind {
    ARRIVE,
    RUN,
    FINISH,
    RELEASED
  }

  private record Event(double time, long sequence, Kind kind, SimJob job, int stamp, int task) {}

  private final Variant variant;
  private final SimulationSettings settings;
  private final boolean everyPeriod;
  private final boolean onChange;

  /** Seconds from a cycle to the soonest one a change may start (cycles take no simulated time). */
  private final double soonestAfterCycle;

  private boolean evictedOrFailed;
  private final Scheduler scheduler =
      new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);
  private final Duration reservationTimeout;
  private final UsageLedger usage = new UsageLedger();
  private final List<NodeInfo> nodes;
  private final QueueTree tree;
  private final List<QueueInfo> queueInfos = new ArrayList<>();
  private final List<Eviction> evictions = new ArrayList<>();
  private final List<String> queueNames = new ArrayList<>();
  private final List<Integer> queueWeights = new ArrayList<>();
  private final List<SimJob> jobs = new ArrayList<>();
  private final Map<String, SimJob> byKey = new HashMap<>();
  private final List<SimJob> active = new ArrayList<>();
  private final PriorityQueue<Event> events =
      new PriorityQueue<>(
          Comparator.comparingDouble(Event::time).thenComparingLong(Event::sequence));
  private long sequence;
  private final long capacityGpu;
  private final long capacityMilliCpu;
  private final double windowEnd;

  private long startedGpu;
  private long startedMilliCpu;
  private long reservedGpu;
  private final TreeFairShare fairShare;
  private final long[] queueHeld;
  private final long[] queueDemand;
  private final List<AllocationPoint> points = new ArrayList<>();
  private int preemptions;
  private int reclaims;
  private long cycles;

  private Simulation(
      Trace trace,
      ClusterShape cluster,
      Variant variant,
      SimulationSettings settings,
      boolean everyPeriod) {
    this.variant = variant;
    this.settings = settings;
    this.everyPeriod = everyPeriod;
    this.onChange = settings.cycleOnChange() && variant.cyclesOnChange();
    this.soonestAfterCycle =
        new CyclePacing(settings.period(), onChange, settings.minCycleInterval())
                .delayNanos(0, true)
            / 1e9;
    this.reservationTimeout = reservationTimeout(variant.configuration());
    this.nodes = cluster.nodeInfos();
    this.capacityGpu = Gpus.whole(cluster.capacity());
    this.capacityMilliCpu = cluster.capacity().milliCpu();
    this.windowEnd = trace.lastSubmitSeconds();
    this.tree = trace.queues();
    this.fairShare = new TreeFairShare(tree);
    Map<String, Integer> queueIndex = new LinkedHashMap<>();
    for (QueueSpec leaf : tree.leaves()) {
      queueIndex.put(leaf.name(), queueNames.size());
      queueNames.add(leaf.name());
      queueWeights.add(leaf.weight());
    }
    for (QueueSpec queue : variant.queues().apply(tree).queues()) {
      queueInfos.add(queueInfo(queue));
    }
    queueHeld = new long[queueNames.size()];
    queueDemand = new long[queueNames.size()];
    Map<Resource, Resource> sharedRequests = new HashMap<>();
    for (TraceJob original : trace.jobs()) {
      TraceJob job = variant.jobs().apply(original);
      SimJob simJob =
          new SimJob(job, queueIndex.get(job.queue()), at(job.submitSeconds()), sharedRequests);
      jobs.add(simJob);
      byKey.put(simJob.key, simJob);
      schedule(job.submitSeconds(), Kind.ARRIVE, simJob, 0, -1);
    }
  }

  /**
   * Whether the pods the job first started with share one domain of its required and of its
   * preferred level (left null for a level it does not ask, or a start on one node).
   */
  private void recordTopology(SimJob job) {
    java.util.Set<String> used = new java.util.HashSet<>();
    for (String node : job.nodeOf) {
      if (node != null) {
        used.add(node);
      }
    }
    if (used.size() < 2) {
      return;
    }
    job.requiredInDomain = sharesDomain(used, job.spec.topology().required());
    job.preferredInDomain = sharesDomain(used, job.spec.topology().preferred());
    job.preferredMinimumInDomain = minimumInLeadersDomain(job, job.spec.topology().preferred());
  }

  /**
   * Whether the domain of {@code level} the leader started in also holds the job's minimum of
   * workers (all of them when fewer started); null when the job asks no such level.
   */
  private Boolean minimumInLeadersDomain(SimJob job, String level) {
    if (level == null) {
      return null;
    }
    Map<String, String> domainOf = new HashMap<>();
    for (NodeInfo node : nodes) {
      domainOf.put(node.name(), node.labels().get(level));
    }
    String leaders = job.nodeOf[0] == null ? null : domainOf.get(job.nodeOf[0]);
    if (leaders == null) {
      return false;
    }
    int placed = 0;
    int inDomain = 0;
    for (int task = 1; task < job.nodeOf.length; task++) {
      if (job.nodeOf[task] != null) {
        placed++;
        inDomain += leaders.equals(domainOf.get(job.nodeOf[task])) ? 1 : 0;
      }
    }
    return inDomain >= Math.min(job.spec.minWorkers(), placed);
  }

  private Boolean sharesDomain(java.util.Set<String> used, String level) {
    if (level == null) {
      return null;
    }
    java.util.Set<String> values = new java.util.HashSet<>();
    for (NodeInfo node : nodes) {
      if (used.contains(node.name())) {
        values.add(node.labels().getOrDefault(level, ""));
      }
    }
    return values.size() == 1 && !values.contains("");
  }

  public static RunRecord run(
      Trace trace, ClusterShape cluster, Variant variant, SimulationSettings settings) {
    return run(trace, cluster, variant, settings, false);
  }

  public static RunRecord run(
      Trace trace,
      ClusterShape cluster,
      Variant variant,
      SimulationSettings settings,
      boolean everyPeriod) {
    return new Simulation(trace, cluster, variant, settings, everyPeriod).run();
  }

  private RunRecord run() {
    long startNanos = System.nanoTime();
    long startCpu = THREADS.getCurrentThreadCpuTime();
    double period = settings.periodSeconds();
    double stopAt = windowEnd + settings.drainLimit().toSeconds();
    record(0);
    double now =
        events.isEmpty()
            ? 0
            : onChange ? events.peek().time() : gridAtOrAfter(events.peek().time());
    double lastCycle = Double.NEGATIVE_INFINITY;
    while (now <= stopAt) {
      // Events before the cycle due: those the loop starts a cycle on bring it forward.
      if (onChange && !events.isEmpty() && events.peek().time() < now) {
        double change = events.peek().time();
        if (processEventsUntil(change)) {
          now = Math.min(now, cycleOnChangeAt(change, lastCycle));
        }
        continue;
      }
      processEventsUntil(now);
      if (active.isEmpty() && events.isEmpty()) {
        break;
      }
      evictedOrFailed = false;
      boolean changed = active.isEmpty() ? false : cycle(now);
      lastCycle = now;
      double next;
      if (changed || everyPeriod) {
        next = now + period;
      } else {
        double wake =
            Math.min(
                events.isEmpty() ? Double.POSITIVE_INFINITY : events.peek().time(),
                nextGangDeadline(now));
        if (Double.isInfinite(wake)) {
          break;
        }
        next = firstPeriodicAfter(wake, now);
      }
      if (onChange && evictedOrFailed) {
        next = Math.min(next, now + soonestAfterCycle);
      }
      now = next;
    }
    double end = Math.min(now, stopAt);
    for (SimJob job : jobs) {
      closePartial(job, end);
    }
    List<JobOutcome> outcomes =
        jobs.stream()
            .map(
                job ->
                    new JobOutcome(
                        job.spec.name(),
                        job.spec.queue(),
                        job.spec.submitSeconds(),
                        job.started,
                        job.finished,
                        job.failure,
                        job.restarts,
                        job.deadlocked,
                        job.requiredInDomain,
                        job.preferredInDomain,
                        job.preferredMinimumInDomain))
            .toList();
    return new RunRecord(
        variant.name(),
        tree,
        evictions,
        queueNames,
        queueWeights,
        capacityGpu,
        capacityMilliCpu,
        windowEnd,
        end,
        points,
        outcomes,
        preemptions,
        reclaims,
        cycles,
        (System.nanoTime() - startNanos) / 1_000_000,
        (THREADS.getCurrentThreadCpuTime() - startCpu) / 1_000_000);
  }

  /**
   * When the service's loop starts a cycle for a change seen at {@code change}: no sooner than the
   * pacing allows after the loop's last cycle — the last real one, or a periodic one skipped since.
   */
  private double cycleOnChangeAt(double change, double lastCycle) {
    if (Double.isInfinite(lastCycle)) {
      return change;
    }
    double last = lastPeriodicAtOrBefore(change, lastCycle);
    return last == change ? change : Math.max(change, last + soonestAfterCycle);
  }

  /**
   * The loop's cycles go on every period after the last one whether or not they change anything; a
   * skipped cycle is one of these. Stepped one period at a time, as cycling every period would, so
   * that both give the very same times.
   */
  private double lastPeriodicAtOrBefore(double time, double now) {
    double period = settings.periodSeconds();
    double cycle = now;
    while (cycle + period <= time) {
      cycle += period;
    }
    return cycle;
  }

  /** The first of the loop's periodic cycles after {@code now} at or after {@code time}. */
  private double firstPeriodicAfter(double time, double now) {
    double period = settings.periodSeconds();
    double cycle = now + period;
    while (cycle < time) {
      cycle += period;
    }
    return cycle;
  }

  /**
   * The first multiple of the period at or after {@code time}: when a periodic loop first sees it.
   */
  private double gridAtOrAfter(double time) {
    double period = settings.periodSeconds();
    return Math.ceil(time / period - 1e-9) * period;
  }

  /**
   * Applies the events up to {@code now}; true when one is a change the service's loop starts a
   * cycle on (its {@code CycleTriggers}: a job submitted or ended, a pod gone). A job starting to
   * run is not one.
   */
  private boolean processEventsUntil(double now) {
    boolean cycleOnChange = false;
    while (!events.isEmpty() && events.peek().time() <= now) {
      Event event = events.poll();
      SimJob job = event.job();
      switch (event.kind()) {
        case ARRIVE -> {
          job.phase = SimJob.Phase.WAITING;
          active.add(job);
          cycleOnChange = true;
          queueDemand[job.queue] += Gpus.whole(job.spec.fullRequest());
        }
        case RUN -> {
          if (event.stamp() != job.generation || job.stage != Stage.STARTING) {
            continue;
          }
          job.stage = Stage.RUNNING;
          job.runningSince = at(event.time());
          job.changed();
          schedule(
              event.time() + job.spec.duration().toMillis() / 1000.0,
              Kind.FINISH,
              job,
              job.generation,
              -1);
        }
        case FINISH -> {
          if (event.stamp() != job.generation) {
            continue;
          }
          job.finished = event.time();
          end(job, event.time());
          cycleOnChange = true;
        }
        case RELEASED -> {
          int task = event.task();
          if (job.phase == SimJob.Phase.ENDED
              || !job.releasing[task]
              || job.releaseStamp[task] != event.stamp()) {
            continue;
          }
          unaccount(job);
          job.releasing[task] = false;
          job.nodeOf[task] = null;
          account(job);
          job.changed();
          cycleOnChange = true;
        }
      }
      record(event.time());
    }
    return cycleOnChange;
  }

  /**
   * Runs one cycle at {@code now} and applies it; true when the next snapshot differs from this
   * one.
   */
  private boolean cycle(double now) {
    List<JobInfo> infos = new ArrayList<>(active.size());
    for (SimJob job : active) {
      infos.add(job.info());
    }
    Snapshot snapshot = new Snapshot(nodes, infos, queueInfos);
    // Past usage, as the service keeps it: what the snapshot shows held counts since the last
    // cycle run.
    snapshot =
        snapshot.withUsage(usage.advance(snapshot, at(now), variant.configuration().fairness()));
    CycleResult result = scheduler.runCycle(snapshot, variant.configuration(), at(now));
    cycles++;
    boolean changed = applyVictims(result, now);
    for (SimJob job : List.copyOf(active)) {
      JobDecision decision = result.decisions().get(job.key);
      if (decision != null && apply(job, decision, now)) {
        changed = true;
      }
    }
    for (SimJob job : active) {
      trackPartial(job, now);
    }
    record(now);
    return changed;
  }

  /** A queue of the tree as the scheduler is given it: reclaimable, open, its own job order. */
  static QueueInfo queueInfo(QueueSpec queue) {
    return new QueueInfo(
        queue.name(),
        queue.weight(),
        queue.capability(),
        true,
        null,
        queue.priority(),
        true,
        queue.parent(),
        queue.guarantee(),
        null,
        null);
  }

  private boolean applyVictims(CycleResult result, double now) {
    boolean changed = false;
    List<SimJob> withSurplus = result.victims().isEmpty() ? List.of() : takeableSurplus();
    for (Map.Entry<String, List<Victim>> entry : result.victims().entrySet()) {
      SimJob preemptor = byKey.get(entry.getKey());
      boolean surplusCouldMakeRoom =
          entry.getValue().stream().anyMatch(Victim::wholeJob)
              && surplusCouldMakeRoom(preemptor, withSurplus);
      for (Victim victim : entry.getValue()) {
        SimJob job = byKey.get(victim.jobKey());
        if (job == null || job.phase == SimJob.Phase.ENDED) {
          continue;
        }
        boolean sameQueue = preemptor != null && preemptor.queue == job.queue;
        if (sameQueue) {
          preemptions++;
        } else {
          reclaims++;
        }
        evictions.add(
            eviction(victim, job, preemptor, sameQueue, withSurplus, surplusCouldMakeRoom, now));
        unaccount(job);
        for (String pod : victim.pods()) {
          int task = job.indexOf(pod);
          if (task >= 0 && job.nodeOf[task] != null && !job.releasing[task]) {
            job.releasing[task] = true;
            job.releaseStamp[task]++;
            schedule(
                now + settings.podTermination().toMillis() / 1000.0,
                Kind.RELEASED,
                job,
                job.releaseStamp[task],
                task);
          }
        }
        evictedOrFailed = true;
        if (victim.wholeJob()) {
          job.generation++;
          if (job.isStarted()) {
            job.restarts++;
          }
          job.stage = Stage.RESCHEDULING;
          job.phase = SimJob.Phase.WAITING;
          job.runningSince = null;
        }
        account(job);
        job.changed();
        changed = true;
      }
    }
    return changed;
  }

  /**
   * Started jobs holding elastic workers above their minimum in a queue that holds more GPUs than
   * min(guarantee, fair share): surplus some eviction rule could have taken before a core. Surplus
   * of a queue within both is protected from every rule, so it could not have gone first.
   */
  private List<SimJob> takeableSurplus() {
    long[] fair = fairShare.shares(capacityGpu, queueDemand);
    int[] leafIndexes = fairShare.leafIndexes();
    List<QueueSpec> specs = tree.queues();
    return active.stream()
        .filter(SimJob::holdsSurplus)
        .filter(
            job -> {
              int treeIndex = leafIndexes[job.queue];
              long floor = Math.min(specs.get(treeIndex).guaranteeGpu(), fair[treeIndex]);
              return queueHeld[job.queue] > floor;
            })
        .toList();
  }

  /**
   * Whether, as the cycle began, some node could have held the largest pod the job the room was
   * made for still had to place (most GPUs, then most cpu), had takeable surplus workers on it (of
   * any job but that one) gone: free GPUs, cpu and memory plus what such workers hold, node by
   * node. Generous to the alternative: it asks for one pod only, and credits any of a job's workers
   * on the node up to its surplus count, so it says yes whenever surplus alone might have done; a
   * job with no pod left to place (or none known) falls back to whether takeable surplus existed at
   * all.
   */
  private boolean surplusCouldMakeRoom(SimJob preemptor, List<SimJob> withSurplus) {
    List<SimJob> others = withSurplus.stream().filter(job -> job != preemptor).toList();
    if (others.isEmpty()) {
      return false;
    }
    Resource needed = preemptor == null ? null : largestUnplaced(preemptor);
    if (needed == null) {
      return true;
    }
    SurplusRoom room = new SurplusRoom(nodes);
    for (SimJob job : active) {
      for (int task = 0; task < job.tasks(); task++) {
        if (job.nodeOf[task] != null) {
          room.held(job.nodeOf[task], job.request(task));
        }
      }
    }
    for (SimJob job : others) {
      if (job.tasks() < 2) {
        continue;
      }
      int placedWorkers = 0;
      Map<String, Integer> workersOn = new HashMap<>();
      for (int task = 1; task < job.tasks(); task++) {
        if (job.nodeOf[task] != null && !job.releasing[task]) {
          placedWorkers++;
          workersOn.merge(job.nodeOf[task], 1, Integer::sum);
        }
      }
      room.surplus(workersOn, placedWorkers - job.spec.minWorkers(), job.request(1));
    }
    return room.couldHold(needed);
  }

  /** The pod of the job left to place with the most GPUs, then the most cpu; null if none. */
  private static Resource largestUnplaced(SimJob job) {
    Resource largest = null;
    for (int task = 0; task < job.tasks(); task++) {
      if (job.nodeOf[task] == null || job.releasing[task]) {
        Resource request = job.request(task);
        if (largest == null
            || Gpus.whole(request) > Gpus.whole(largest)
            || Gpus.whole(request) == Gpus.whole(largest)
                && request.milliCpu() > largest.milliCpu()) {
          largest = request;
        }
      }
    }
    return largest;
  }

  private Eviction eviction(
      Victim victim,
      SimJob job,
      SimJob preemptor,
      boolean sameQueue,
      List<SimJob> withSurplus,
      boolean surplusCouldMakeRoom,
      double now) {
    long gpu = 0;
    for (String pod : victim.pods()) {
      int task = job.indexOf(pod);
      if (task >= 0) {
        gpu += Gpus.whole(job.request(task));
      }
    }
    boolean surplusElsewhere =
        withSurplus.stream().anyMatch(other -> other != job && other != preemptor);
    return new Eviction(
        now,
        job.spec.queue(),
        job.spec.name(),
        victim.wholeJob(),
        job.isStarted(),
        victim.pods().size(),
        gpu,
        surplusElsewhere,
        surplusElsewhere && surplusCouldMakeRoom,
        sameQueue,
        EvictionWording.isMove(victim.reason()));
  }

  private boolean apply(SimJob job, JobDecision decision, double now) {
    if (decision.state() == ScheduleState.SCHEDULED_FAILED) {
      evictedOrFailed = true;
      job.failure = decision.reasonIfAny().map(ReasonCode::statusValue).orElse("Failed");
      end(job, now);
      return true;
    }
    Map<String, String> allocations = decision.allocations();
    boolean placementsMoved = false;
    for (int task = 0; task < job.tasks(); task++) {
      String node = allocations.get(job.podName(task));
      boolean moves =
          node != null
              ? job.releasing[task] || !node.equals(job.nodeOf[task])
              : job.nodeOf[task] != null && !job.releasing[task];
      if (!moves) {
        continue;
      }
      if (!placementsMoved) {
        // The job's sums (account()) are those of its last change: taken off before its first move.
        unaccount(job);
        placementsMoved = true;
      }
      job.nodeOf[task] = node;
      job.releasing[task] = false;
    }
    boolean changed = placementsMoved;
    if (!Objects.equals(decision.waitingSince(), job.waitingSince)) {
      job.waitingSince = decision.waitingSince();
      changed = true;
    }
    if (!decision.gpuDevices().equals(job.gpuDevices)) {
      job.gpuDevices = decision.gpuDevices();
      changed = true;
    }
    boolean awaiting = decision.reason() == ReasonCode.WAITING_FOR_VICTIMS;
    if (awaiting != job.awaitingVictims) {
      job.awaitingVictims = awaiting;
      changed = true;
    }
    boolean placed =
        decision.state() == ScheduleState.SCHEDULED_PARTLY
            || decision.state() == ScheduleState.SCHEDULED_SUCCEED;
    if (placed && (job.stage == Stage.PENDING || job.stage == Stage.RESCHEDULING)) {
      if (!placementsMoved) {
        unaccount(job);
        placementsMoved = true;
      }
      job.stage = Stage.STARTING;
      job.phase = SimJob.Phase.STARTED;
      if (!job.hasStartedBefore()) {
        job.started = now;
        recordTopology(job);
      }
      job.generation++;
      schedule(now + settings.podStartup().toMillis() / 1000.0, Kind.RUN, job, job.generation, -1);
      changed = true;
    }
    if (placementsMoved) {
      account(job);
    }
    if (changed) {
      job.changed();
    }
    return changed;
  }

  /** The job ends (ran its duration, or failed): its pods are gone at once. */
  private void end(SimJob job, double now) {
    unaccount(job);
    Arrays.fill(job.nodeOf, null);
    Arrays.fill(job.releasing, false);
    job.generation++;
    job.phase = SimJob.Phase.ENDED;
    account(job);
    closePartial(job, now);
    queueDemand[job.queue] -= Gpus.whole(job.spec.fullRequest());
    active.remove(job);
  }

  /** A job holds part of its gang while it has pods placed but its minimum has not been placed. */
  private void trackPartial(SimJob job, double now) {
    boolean partial = job.phase == SimJob.Phase.WAITING && job.heldPods > 0;
    if (partial && Double.isNaN(job.partialSince)) {
      job.partialSince = now;
    } else if (!partial) {
      closePartial(job, now);
    }
  }

  private void closePartial(SimJob job, double now) {
    if (Double.isNaN(job.partialSince)) {
      return;
    }
    double threshold =
        job.spec.waitTimeIfSet().orElse(settings.deadlockAfter()).toMillis() / 1000.0;
    if (now - job.partialSince > threshold) {
      job.deadlocked = true;
    }
    job.partialSince = Double.NaN;
  }

  /** The earliest gang deadline after {@code now} of a job still waiting for its minimum. */
  private double nextGangDeadline(double now) {
    double next = Double.POSITIVE_INFINITY;
    Instant nowInstant = at(now);
    for (SimJob job : active) {
      if (job.stage == Stage.RUNNING || job.phase != SimJob.Phase.WAITING) {
        continue;
      }
      double waitStart = seconds(job.info().waitStart(nowInstant));
      Optional<Duration> waitTime = job.spec.waitTimeIfSet();
      if (waitTime.isPresent()) {
        next = earliestAfter(next, waitStart + waitTime.get().toMillis() / 1000.0, now);
      }
      if (job.spec.gang() == GangMode.NON_STRICT && reservationTimeout != null) {
        next = earliestAfter(next, waitStart + reservationTimeout.toMillis() / 1000.0, now);
      }
    }
    return next;
  }

  private static double earliestAfter(double current, double candidate, double now) {
    return candidate > now && candidate < current ? candidate : current;
  }

  private void unaccount(SimJob job) {
    queueHeld[job.queue] -= job.heldGpu;
    if (job.countedAsStarted) {
      startedGpu -= job.heldGpu;
      startedMilliCpu -= job.heldMilliCpu;
    } else {
      reservedGpu -= job.heldGpu;
    }
  }

  private void account(SimJob job) {
    job.recomputeHeld();
    job.countedAsStarted = job.phase == SimJob.Phase.STARTED;
    queueHeld[job.queue] += job.heldGpu;
    if (job.countedAsStarted) {
      startedGpu += job.heldGpu;
      startedMilliCpu += job.heldMilliCpu;
    } else {
      reservedGpu += job.heldGpu;
    }
  }

  private void record(double now) {
    AllocationPoint point =
        new AllocationPoint(
            now, startedGpu, startedMilliCpu, reservedGpu, queueHeld.clone(), queueDemand.clone());
    if (!points.isEmpty() && points.get(points.size() - 1).seconds() == now) {
      points.set(points.size() - 1, point);
    } else {
      points.add(point);
    }
  }

  private void schedule(double time, Kind kind, SimJob job, int stamp, int task) {
    events.add(new Event(time, sequence++, kind, job, stamp, task));
  }

  private static Duration reservationTimeout(SchedulerConfiguration configuration) {
    for (TierConfiguration tier : configuration.tiers()) {
      for (PluginConfiguration plugin : tier.plugins()) {
        if (plugin.name().equals(GangPlugin.NAME)) {
          return plugin.arguments().get(GangPlugin.NON_STRICT_RESERVATION_TIMEOUT);
        }
      }
    }
    return null;
  }

  static Instant at(double seconds) {
    return EPOCH.plusMillis(Math.round(seconds * 1000));
  }

  static double seconds(Instant instant) {
    return (instant.toEpochMilli() - EPOCH.toEpochMilli()) / 1000.0;
  }
}
