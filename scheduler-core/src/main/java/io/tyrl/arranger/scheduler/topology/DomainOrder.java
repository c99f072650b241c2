package io.tyrl.arranger.scheduler.topology;

import io.tyrl.arranger.crd.reasons.TopologyWording;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which domains a gang is tried in, and in what order: only those with the free room for its demand
 * in every resource it asks, the one left fullest afterwards first (the least of its scarcest
 * resource free, then by name) — so the gang packs into the smallest domain that holds it and large
 * domains stay whole for large gangs. Free room counts what is idle or being released on ready,
 * schedulable nodes that admit some pod of the job (its node selector, affinity, tolerations) and
 * are not held for another job.
 */
public final class DomainOrder {

  private final Session session;
  private final JobState job;
  private final GangDemand demand;

  /** One pod of each distinct set of constraints the job's pods carry. */
  private final List<TaskState> shapes = new ArrayList<>();

  /** The constraints of {@link #shapes}, in the same order. */
  private final List<PlacementConstraints> shapeConstraints = new ArrayList<>();

  private final DomainRoom room;

  public DomainOrder(Session session, JobState job, GangDemand demand) {
    this.session = session;
    this.job = job;
    this.demand = demand;
    for (TaskState task : job.tasks()) {
      if (!shapeConstraints.contains(task.info().constraints())) {
        shapes.add(task);
        shapeConstraints.add(task.info().constraints());
      }
    }
    this.room = DomainRoom.of(session);
  }

  public GangDemand demand() {
    return demand;
  }

  /** The domains with the free room for the demand, fullest after the gang first. */
  public List<Domain> fitting(List<Domain> domains) {
    List<Candidate> fitting = new ArrayList<>();
    for (Domain domain : domains) {
      long[] free = free(domain);
      if (holds(free)) {
        fitting.add(new Candidate(domain, free[demand.scarcest()]));
      }
    }
    fitting.sort(
        Comparator.comparingLong(Candidate::free)
            .thenComparing(candidate -> candidate.domain().name()));
    return fitting.stream().map(Candidate::domain).toList();
  }

  private record Candidate(Domain domain, long free) {}

  /**
   * The domain with the most of the scarcest resource free among those whose nodes could hold the
   * demand if they were empty, and no node of which is held for another job: the one to keep for
   * the gang while it waits. Empty when none could ever hold it.
   */
  public Optional<Domain> toHold(List<Domain> domains) {
    Domain best = null;
    long bestFree = -1;
    for (Domain domain : domains) {
      if (!couldEverHold(domain) || heldForOther(domain)) {
        continue;
      }
      long free = free(domain)[demand.scarcest()];
      if (free > bestFree) {
        best = domain;
        bestFree = free;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * The domains whose ready, schedulable nodes could hold the demand if they were empty, the one
   * with the most of the scarcest resource free first (fewest victims likely), then by name.
   */
  public List<Domain> couldEverHold(List<Domain> domains) {
    List<Candidate> able = new ArrayList<>();
    for (Domain domain : domains) {
      if (couldEverHold(domain)) {
        able.add(new Candidate(domain, free(domain)[demand.scarcest()]));
      }
    }
    able.sort(
        Comparator.comparingLong((Candidate candidate) -> -candidate.free())
            .thenComparing(candidate -> candidate.domain().name()));
    return able.stream().map(Candidate::domain).toList();
  }

  /**
   * Why no domain of the level has the room: {@code no rack can hold the gang minimum (32
   * nvidia.com/gpu): the emptiest, r7, has 24 free}.
   */
  public String whyNoneHolds(String level, List<Domain> domains) {
    Emptiest emptiest = emptiest(domains);
    return TopologyWording.noDomainHolds(
        level, demand.describe(session), emptiest.name(), emptiest.free());
  }

  /**
   * Why a gang waits for a domain of its preferred level: none has the room now; it is waited for
   * up to {@code wait} before the gang spreads.
   */
  public String whyWaitingForPreferred(String level, List<Domain> domains, String wait) {
    Emptiest emptiest = emptiest(domains);
    return TopologyWording.waitingForPreferred(
        level, demand.describe(session), emptiest.name(), emptiest.free(), wait);
  }

  /**
   * The domain with the most of the scarcest resource free, and that amount formatted; nulls when
   * there is none.
   */
  private record Emptiest(String name, String free) {}

  private Emptiest emptiest(List<Domain> domains) {
    Domain emptiest = null;
    long most = -1;
    for (Domain domain : domains) {
      long free = free(domain)[demand.scarcest()];
      if (free > most) {
        emptiest = domain;
        most = free;
      }
    }
    return emptiest == null
        ? new Emptiest(null, null)
        : new Emptiest(emptiest.name(), demand.formatted(session, most));
  }

  /**
   * Idle or being released on the domain's ready, schedulable nodes that admit some pod of the job
   * and are not held for another job: the domain's free room less those nodes.
   */
  public long[] free(Domain domain) {
    long[] free = room.free(domain);
    DomainRoom.Excluded excluded = room.excluded(shapeConstraints, domain, this::admits);
    if (excluded.nodes().length == domain.nodes().length) {
      return new long[free.length];
    }
    List<NodeState> nodes = session.nodes();
    for (int index : excluded.nodes()) {
      subtractFreeOn(free, nodes.get(index));
    }
    for (int index : session.nodeSearch().heldNodes()) {
      if (session.nodeSearch().heldForOther(index, job)
          && contains(domain, index)
          && admits(nodes.get(index))) {
        subtractFreeOn(free, nodes.get(index));
      }
    }
    return free;
  }

  private static void subtractFreeOn(long[] free, NodeState node) {
    for (int d = 0; d < free.length; d++) {
      free[d] -= DomainRoom.freeOn(node, d);
    }
  }

  private static boolean contains(Domain domain, int nodeIndex) {
    return Arrays.binarySearch(domain.nodes(), nodeIndex) >= 0;
  }

  private boolean admits(NodeState node) {
    if (!node.info().ready() || node.info().unschedulable()) {
      return false;
    }
    for (TaskState shape : shapes) {
      if (session.nodeSearch().admits(shape, node).fits()) {
        return true;
      }
    }
    return false;
  }

  private boolean holds(long[] free) {
    long[] amounts = demand.amounts();
    for (int d = 0; d < amounts.length; d++) {
      if (d != ResourceDimensions.PODS && amounts[d] > free[d]) {
        return false;
      }
    }
    return true;
  }

  private boolean couldEverHold(Domain domain) {
    return holds(room.excluded(shapeConstraints, domain, this::admits).admittedAllocatable());
  }

  private boolean heldForOther(Domain domain) {
    for (int index : session.nodeSearch().heldNodes()) {
      if (session.nodeSearch().heldForOther(index, job) && contains(domain, index)) {
        return true;
      }
    }
    return false;
  }
}
