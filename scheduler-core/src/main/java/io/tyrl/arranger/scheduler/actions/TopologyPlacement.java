package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.crd.reasons.TopologyWording;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeFence;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import io.tyrl.arranger.scheduler.framework.TaskState;
import io.tyrl.arranger.scheduler.topology.Domain;
import io.tyrl.arranger.scheduler.topology.DomainOrder;
import io.tyrl.arranger.scheduler.topology.Domains;
import io.tyrl.arranger.scheduler.topology.GangDemand;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Places a job that asks for topology ({@code spec.topology}):
 *
 * <ul>
 *   <li>its gang minimum goes into one domain of the required level, or nowhere: the domains with
 *       the free room are tried in {@link DomainOrder}'s order (the one left fullest first), each
 *       from a savepoint of the one statement, and the first that makes the job ready is kept;
 *   <li>inside that domain (or the cluster, without a required level) the pods sharing the job's
 *       preferred level are tried in one domain of it, in the same order; when none holds them, a
 *       job placing its first pods waits for one while it has waited less than {@code
 *       topology.preferredWait} (holding the domain likeliest to drain, as below), and is then
 *       placed domain by domain, the emptiest first, so that its pods span as few as room allows;
 *   <li>a job holding pods already (a NonStrict reservation, a lost pod) stays in the domain of its
 *       leader, or of another pod when the leader is gone; a job placed again from nothing (its
 *       leader lost, every pod deleted) tries the domains its leader was last in first;
 *   <li>elastic pods stay in the leader's required domain, and look in the leader's preferred
 *       domain first, then in each wider domain around it ({@link Domains#nearest});
 *   <li>a job whose minimum no domain takes holds the domain it is likeliest to fit for the rest of
 *       the cycle ({@link DomainOrder#toHold}): later jobs do not place pods there, so small jobs
 *       cannot keep fragmenting every domain while it waits.
 * </ul>
 */
final class TopologyPlacement {

  /** Domains tried for one gang at most, so that a cycle with many waiting gangs stays cheap. */
  static final int MAX_DOMAINS_TRIED = 16;

  private final Session session;
  private final JobPlacer placer;
  private final Domains domains;

  TopologyPlacement(Session session, JobPlacer placer) {
    this.session = session;
    this.placer = placer;
    this.domains = Domains.of(session);
  }

  static boolean applies(Session session, JobState job) {
    return job.info().asksTopology() && !session.topologyLevels().keys().isEmpty();
  }

  JobPlacer.Outcome placeMinimum(JobState job, Statement statement) {
    String required = job.info().topology().required();
    NodeState anchor = anchor(job);
    preferredToHold = null;
    if (required == null) {
      return holdingForPreferred(job, placeIn(job, statement, null, anchor == null));
    }
    if (anchor != null) {
      return placeIn(job, statement, domains.containing(required, anchor).orElse(null), false);
    }
    DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
    List<Domain> all = domains.all(required);
    List<Domain> fitting = order.fitting(all);
    if (fitting.isEmpty()) {
      hold(job, order, all, required);
      return new JobPlacer.NoDomain(order.whyNoneHolds(required, all));
    }
    List<Domain> tried = homeFirst(job, fitting, required);
    JobPlacer.Outcome first = null;
    JobPlacer.Outcome inFullest = null;
    for (Domain domain : tried.subList(0, Math.min(MAX_DOMAINS_TRIED, tried.size()))) {
      Statement.Savepoint savepoint = statement.savepoint();
      JobPlacer.Outcome outcome = placeIn(job, statement, domain, true);
      if (placer.isReady(job) || outcome instanceof JobPlacer.NeverFits) {
        return outcome;
      }
      first = first == null ? outcome : first;
      inFullest = domain == fitting.get(0) ? outcome : inFullest;
      statement.rollbackTo(savepoint);
    }
    if (first instanceof JobPlacer.NoDomain waitingForPreferred) {
      // Room for the minimum in a required domain, none yet in one preferred domain inside it.
      return holdingForPreferred(job, waitingForPreferred);
    }
    if (session.tiers().mayKeepPartialPlacements(job)) {
      // A NonStrict reservation builds up in the domain likeliest to hold it.
      return placeIn(job, statement, tried.get(0), false);
    }
    hold(job, order, all, required);
    return new JobPlacer.NoDomain(
        TopologyWording.noDomainFits(
            required,
            order.demand().describe(session),
            fitting.size(),
            fitting.get(0).name(),
            inFullest.explanation().replaceFirst("^; ", "")));
  }

  /**
   * Runs a preempt or reclaim attempt for a job with a required level inside one domain at a time,
   * so that its victims all sit in the domain its minimum will then fill: the domain of the pods it
   * holds, else, among the domains whose nodes could hold its minimum when empty, the one with the
   * most free first, until an attempt finds room (or needs no eviction). A job without a required
   * level is tried once, anywhere.
   */
  VictimSelector.Outcome inOneDomain(
      JobState job, java.util.function.Supplier<VictimSelector.Outcome> attempt) {
    String required = job.info().topology().required();
    if (required == null) {
      return attempt.get();
    }
    List<Domain> tried;
    NodeState anchor = anchor(job);
    if (anchor != null) {
      Optional<Domain> own = domains.containing(required, anchor);
      if (own.isEmpty()) {
        return attempt.get();
      }
      tried = List.of(own.get());
    } else {
      DomainOrder order =
          new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
      tried = homeFirst(job, order.couldEverHold(domains.all(required)), required);
    }
    for (Domain domain : tried.subList(0, Math.min(MAX_DOMAINS_TRIED, tried.size()))) {
      NodeFence fence = NodeFence.of(domain.nodes());
      VictimSelector.Outcome outcome =
          session.nodeSearch().within(task -> task.job() == job ? fence : null, attempt);
      if (outcome != VictimSelector.Outcome.NO_ROOM) {
        return outcome;
      }
    }
    return VictimSelector.Outcome.NO_ROOM;
  }

  /**
   * The fence of an elastic pod of a placed job: nearest its leader (or another of its pods), never
   * outside the required domain.
   */
  NodeFence elasticFence(JobState job, TaskState task) {
    NodeState anchor = anchor(job);
    if (anchor == null) {
      return null;
    }
    TopologyRequest topology = job.info().topologyFor(task.info());
    return domains.nearest(anchor, topology.preferred(), topology.required());
  }

  /**
   * The minimum inside {@code domain} (null: anywhere), the preferred level packed within it.
   *
   * @param mayWait when no domain of the preferred level has the room, a job placing its first pods
   *     waits for one while it has waited less than {@link TopologyLevels#preferredWait}: the
   *     outcome is then a {@link JobPlacer.NoDomain} saying so, nothing is placed, and the domain
   *     to hold for it is left in {@link #preferredToHold}
   */
  private JobPlacer.Outcome placeIn(
      JobState job, Statement statement, Domain domain, boolean mayWait) {
    NodeFence inDomain = domain == null ? null : NodeFence.of(domain.nodes());
    String preferred = job.info().topology().preferred();
    Map<String, NodeFence> spread = new HashMap<>();
    Function<TaskState, NodeFence> loose =
        task -> {
          String own = job.info().topologyFor(task.info()).preferred();
          if (own == null) {
            return inDomain;
          }
          return spread.computeIfAbsent(own, level -> emptiestFirst(job, domain, level));
        };
    if (preferred != null) {
      List<Domain> parts =
          domain == null ? domains.all(preferred) : domains.partition(domain, preferred);
      DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, tightDemand(job)));
      List<Domain> fitting = homeFirst(job, order.fitting(parts), preferred);
      for (Domain part : fitting.subList(0, Math.min(MAX_DOMAINS_TRIED, fitting.size()))) {
        NodeFence inPart = NodeFence.of(part.nodes());
        Statement.Savepoint savepoint = statement.savepoint();
        JobPlacer.Outcome outcome =
            session
                .nodeSearch()
                .within(
                    task -> isTight(job, task, preferred) ? inPart : loose.apply(task),
                    () -> placer.placeMinimumHere(job, statement));
        if (placer.isReady(job)) {
          return outcome;
        }
        statement.rollbackTo(savepoint);
      }
      if (mayWait && waitsForPreferred(job) && !order.couldEverHold(parts).isEmpty()) {
        // The first required domain tried gives the reason, so it names the domain held too.
        if (preferredToHold == null) {
          preferredToHold = new PreferredHold(order, parts, preferred);
        }
        return new JobPlacer.NoDomain(
            order.whyWaitingForPreferred(
                preferred, parts, session.topologyLevels().preferredWaitText()));
      }
    }
    return session.nodeSearch().within(loose, () -> placer.placeMinimumHere(job, statement));
  }

  /**
   * The domain of the preferred level a waiting gang holds, once it is known to wait: set by {@link
   * #placeIn} when it chose to wait, taken by {@link #holdingForPreferred}.
   */
  private record PreferredHold(DomainOrder order, List<Domain> parts, String level) {}

  private PreferredHold preferredToHold;

  /**
   * {@code outcome}, after holding the preferred domain the job waits for when it waits for one.
   */
  private JobPlacer.Outcome holdingForPreferred(JobState job, JobPlacer.Outcome outcome) {
    if (outcome instanceof JobPlacer.NoDomain && preferredToHold != null) {
      hold(job, preferredToHold.order(), preferredToHold.parts(), preferredToHold.level());
    }
    preferredToHold = null;
    return outcome;
  }

  /** True while the job has waited less than the configured wait for a preferred domain. */
  private boolean waitsForPreferred(JobState job) {
    Duration wait = session.topologyLevels().preferredWait();
    Instant now = session.now();
    return !wait.isZero() && Duration.between(job.info().waitStart(now), now).compareTo(wait) < 0;
  }

  private static boolean isTight(JobState job, TaskState task, String preferred) {
    return preferred.equals(job.info().topologyFor(task.info()).preferred());
  }

  /**
   * What the pods sharing the job's preferred level need: the job's minimum when every pod shares
   * it, else the leader's request plus its sharing workers' among the first of the minimum.
   */
  private static long[] tightDemand(JobState job) {
    String preferred = job.info().topology().preferred();
    boolean allShare = true;
    for (TaskState task : job.tasks()) {
      allShare &= isTight(job, task, preferred);
    }
    if (allShare) {
      return job.minimumRequest();
    }
    long[] demand = new long[job.leader().request().length];
    int workers = job.minimumWorkers();
    for (TaskState task : job.tasks()) {
      if (task.isLeader() || workers-- > 0) {
        if (isTight(job, task, preferred)) {
          long[] request = task.request();
          for (int d = 0; d < demand.length; d++) {
            demand[d] += request[d];
          }
        }
      }
    }
    return demand;
  }

  /**
   * A soft fence for pods preferring {@code level}: its domains inside {@code domain} with the most
   * free first, then the rest of {@code domain} (or any node, without one).
   */
  private NodeFence emptiestFirst(JobState job, Domain domain, String level) {
    List<Domain> parts = domain == null ? domains.all(level) : domains.partition(domain, level);
    DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
    int scarcest = order.demand().scarcest();
    List<Domain> sorted = new ArrayList<>(parts);
    Map<Domain, Long> free = new HashMap<>();
    for (Domain part : parts) {
      free.put(part, order.free(part)[scarcest]);
    }
    sorted.sort(Comparator.comparing((Domain part) -> -free.get(part)).thenComparing(Domain::name));
    List<int[]> groups = new ArrayList<>();
    for (Domain part : sorted) {
      groups.add(part.nodes());
    }
    if (domain != null) {
      groups.add(domain.nodes());
    }
    return new NodeFence(groups, domain == null);
  }

  /** The queues one of whose gangs holds a domain in this cycle. */
  private static final class Holders {
    final java.util.Set<Object> queues = new java.util.HashSet<>();
  }

  /**
   * Holds the domain the job is likeliest to fit, unless another gang of its queue holds one
   * already in this cycle: the first waiting gang of each queue in service order holds, so that
   * many waiting gangs cannot keep the whole cluster idle.
   */
  private void hold(JobState job, DomainOrder order, List<Domain> all, String level) {
    Holders holders = session.extension(Holders.class, s -> new Holders());
    Object queue = job.queue() == null ? job.info().queue() : job.queue();
    if (holders.queues.contains(queue)) {
      return;
    }
    Optional<Domain> held = order.toHold(all);
    if (held.isPresent()) {
      holders.queues.add(queue);
      session
          .nodeSearch()
          .hold(held.get().nodes(), job, TopologyWording.heldForGang(level, job.key()));
    }
  }

  /**
   * {@code domains} with the job's recorded domain of {@code level} first, when it is among them: a
   * job placed again from nothing (its leader lost) goes back where its leader was when that domain
   * has the room, before the domain order's choice.
   */
  private static List<Domain> homeFirst(JobState job, List<Domain> domains, String level) {
    String home = job.info().topologyDomains().get(level);
    if (home == null) {
      return domains;
    }
    for (int i = 0; i < domains.size(); i++) {
      if (domains.get(i).name().equals(home)) {
        List<Domain> reordered = new ArrayList<>(domains.size());
        reordered.add(domains.get(i));
        reordered.addAll(domains.subList(0, i));
        reordered.addAll(domains.subList(i + 1, domains.size()));
        return reordered;
      }
    }
    return domains;
  }

  /** The node of the job's leader, else of its first placed pod; null when nothing is placed. */
  private static NodeState anchor(JobState job) {
    if (job.leader().status().isPlaced()) {
      return job.leader().node();
    }
    for (TaskState task : job.tasks()) {
      if (task.status().isPlaced()) {
        return task.node();
      }
    }
    return null;
  }
}
