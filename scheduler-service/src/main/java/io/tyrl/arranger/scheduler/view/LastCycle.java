package io.tyrl.arranger.scheduler.view;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.replay.CycleInput;
import io.tyrl.arranger.scheduler.replay.CycleInputJson;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The last cycle this replica ran, for the operator's view. The scheduling loop hands over what the
 * cycle already had (its snapshot and result, both immutable, and the decisions it wrote) and
 * nothing is computed on its thread but the list of recent evictions; the view is built on the
 * first read after each cycle and kept until the next one.
 */
public final class LastCycle {

  /** How many evictions the view keeps, over however many cycles chose them. */
  public static final int EVICTIONS_KEPT = 50;

  private record Inputs(
      Snapshot snapshot,
      CycleResult result,
      Map<String, JobDecision> decisions,
      List<EvictionView> evictions,
      String configurationOrigin,
      String configuration) {}

  private final Deque<EvictionView> evictions = new ArrayDeque<>();
  private volatile Inputs inputs;
  private volatile Inputs builtFrom;
  private volatile CycleView built;

  /**
   * @param decisions what was written for each job: the result's decisions and those of jobs the
   *     scheduler could not read
   */
  public void record(Snapshot snapshot, CycleResult result, Map<String, JobDecision> decisions) {
    record(snapshot, result, decisions, "unknown", "");
  }

  /**
   * @param configurationOrigin where the configuration of the cycle came from
   * @param configuration its YAML text
   */
  public void record(
      Snapshot snapshot,
      CycleResult result,
      Map<String, JobDecision> decisions,
      String configurationOrigin,
      String configuration) {
    List<EvictionView> recent;
    synchronized (evictions) {
      result
          .victims()
          .forEach(
              (preemptor, victims) -> {
                int slash = preemptor.indexOf('/');
                for (Victim victim : victims) {
                  evictions.addFirst(
                      new EvictionView(
                          result.time(),
                          preemptor.substring(0, slash),
                          preemptor.substring(slash + 1),
                          victim.namespace(),
                          victim.job(),
                          victim.pods().size(),
                          victim.wholeJob(),
                          victim.cause().statusValue(),
                          victim.reason()));
                }
              });
      while (evictions.size() > EVICTIONS_KEPT) {
        evictions.removeLast();
      }
      recent = List.copyOf(evictions);
    }
    inputs =
        new Inputs(
            snapshot, result, Map.copyOf(decisions), recent, configurationOrigin, configuration);
  }

  /**
   * What the last cycle was given and decided, for a replay ({@link CycleInputJson}); empty before
   * this replica has run one.
   */
  public Optional<CycleInput> input() {
    Inputs current = inputs;
    if (current == null) {
      return Optional.empty();
    }
    return Optional.of(
        new CycleInput(
            current.result().time(),
            current.configurationOrigin(),
            current.configuration(),
            current.snapshot(),
            current.result().decisions()));
  }

  /** The view of the last cycle; empty before this replica has run one. */
  public Optional<CycleView> view() {
    Inputs current = inputs;
    if (current == null) {
      return Optional.empty();
    }
    if (builtFrom != current) {
      synchronized (this) {
        if (builtFrom != current) {
          built = build(current);
          builtFrom = current;
        }
      }
    }
    return Optional.of(built);
  }

  private static CycleView build(Inputs in) {
    Map<String, JobInfo> jobs = new HashMap<>();
    in.snapshot().jobs().forEach(job -> jobs.put(job.key(), job));
    return new CycleView(
        in.result().time(), queues(in), waiting(in, jobs), nodes(in, jobs), in.evictions());
  }

  private static List<QueueView> queues(Inputs in) {
    Resource cluster = Resource.EMPTY;
    for (NodeInfo node : in.snapshot().nodes()) {
      cluster = cluster.plus(node.allocatable());
    }
    Map<String, QueueSummary> summaries = in.result().queues();
    List<String> order = new ArrayList<>(in.result().order().queues());
    // Queues the order does not name (a result without one) follow by name.
    new TreeMap<>(summaries).keySet().stream().filter(q -> !order.contains(q)).forEach(order::add);
    Map<String, Integer> depths = new HashMap<>();
    List<QueueView> views = new ArrayList<>();
    for (String name : order) {
      QueueSummary summary = summaries.get(name);
      if (summary == null) {
        continue;
      }
      int depth = summary.parent() == null ? 0 : depths.getOrDefault(summary.parent(), -1) + 1;
      depths.put(name, depth);
      views.add(
          new QueueView(
              name,
              summary.parent(),
              depth,
              summary.overused(),
              summary.pendingJobs(),
              summary.inqueueJobs(),
              summary.runningJobs(),
              summary.treeProblem(),
              ResourceBar.of(cluster, summary.guarantee(), summary.deserved(), summary.allocated()),
              QueueView.usage(in.snapshot().usageOf(name).queue().total())));
    }
    return views;
  }

  /**
   * Waiting jobs are those the status gives a reason, ordered as the cycle's order has them; jobs
   * the order does not list (their queue does not exist, or the scheduler could not read them)
   * follow in their queue by key, those it could not read with no queue.
   */
  private static List<WaitingJob> waiting(Inputs in, Map<String, JobInfo> jobs) {
    Map<String, List<String>> byQueue = new LinkedHashMap<>();
    Set<String> ordered = new HashSet<>();
    for (String queue : in.result().order().queues()) {
      for (String key : in.result().order().jobsOf(queue)) {
        byQueue.computeIfAbsent(queue, q -> new ArrayList<>()).add(key);
        ordered.add(key);
      }
    }
    new TreeMap<>(in.decisions())
        .keySet()
        .forEach(
            key -> {
              if (!ordered.contains(key)) {
                // A job the scheduler could not read has no queue it knows of.
                JobInfo job = jobs.get(key);
                byQueue
                    .computeIfAbsent(job == null ? null : job.queue(), q -> new ArrayList<>())
                    .add(key);
              }
            });
    List<WaitingJob> waiting = new ArrayList<>();
    byQueue.forEach(
        (queue, keys) -> {
          int position = 0;
          for (String key : keys) {
            JobDecision decision = in.decisions().get(key);
            if (decision == null || decision.reason() == null) {
              continue;
            }
            JobInfo job = jobs.get(key);
            int slash = key.indexOf('/');
            waiting.add(
                new WaitingJob(
                    key.substring(0, slash),
                    key.substring(slash + 1),
                    queue,
                    ++position,
                    job == null || job.stage() == null ? null : job.stage().wireName(),
                    decision.state().wireName(),
                    decision.reason().statusValue(),
                    decision.message(),
                    decision.waitingSince() != null
                        ? decision.waitingSince()
                        : job == null ? null : job.creationTime()));
          }
        });
    return waiting;
  }

  /**
   * A node's allocation is what the snapshot counted outside its jobs plus the requests of the
   * jobs' pods the cycle left placed on it.
   */
  private static List<NodeView> nodes(Inputs in, Map<String, JobInfo> jobs) {
    Map<String, Resource> allocated = new HashMap<>();
    Map<String, Map<String, Integer>> podsByNode = new HashMap<>();
    in.decisions()
        .forEach(
            (key, decision) -> {
              JobInfo job = jobs.get(key);
              if (job == null) {
                return;
              }
              for (TaskInfo task : job.tasks()) {
                String node = decision.allocations().get(task.podName());
                if (node != null) {
                  allocated.merge(node, task.request(), Resource::plus);
                  podsByNode
                      .computeIfAbsent(node, n -> new TreeMap<>())
                      .merge(key, 1, Integer::sum);
                }
              }
            });
    List<NodeView> views = new ArrayList<>();
    in.snapshot().nodes().stream()
        .sorted(java.util.Comparator.comparing(NodeInfo::name))
        .forEach(
            node -> {
              List<NodeView.JobOnNode> onNode = new ArrayList<>();
              long pods = node.podCount();
              for (Map.Entry<String, Integer> job :
                  podsByNode.getOrDefault(node.name(), Map.of()).entrySet()) {
                String key = job.getKey();
                int slash = key.indexOf('/');
                onNode.add(
                    new NodeView.JobOnNode(
                        key.substring(0, slash), key.substring(slash + 1), job.getValue()));
                pods += job.getValue();
              }
              // Requests name no pods; each pod counts one against the node's allocatable pods.
              Resource used =
                  node.used()
                      .plus(allocated.getOrDefault(node.name(), Resource.EMPTY))
                      .plus(Resource.ofCanonical(Map.of(Resource.PODS, pods)));
              views.add(
                  new NodeView(
                      node.name(),
                      node.ready(),
                      node.unschedulable(),
                      ResourceBar.of(node.allocatable(), Resource.EMPTY, node.allocatable(), used),
                      onNode));
            });
    return views;
  }
}
