package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.ExistingPod;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.PodAffinity;
import io.tyrl.arranger.scheduler.api.PodAffinityTerm;
import io.tyrl.arranger.scheduler.api.TopologySpreadConstraint;
import io.tyrl.arranger.scheduler.api.WeightedPodAffinityTerm;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.PlacementListener;
import io.tyrl.arranger.scheduler.framework.PredicateResult;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where pods are, by their namespace and labels, counted per topology domain (a value of a node
 * label such as {@code topology.kubernetes.io/zone}; {@code kubernetes.io/hostname} makes each node
 * its own domain) — the pods outside the snapshot's jobs, the tasks placed before this cycle, and
 * those placed during it (it listens to the session). On it rest kube-scheduler's InterPodAffinity
 * and PodTopologySpread semantics:
 *
 * <ul>
 *   <li>required pod affinity: the node's domain holds a pod matching every term; a term no pod in
 *       the cluster matches is met by a pod that matches it itself (the first pod of a group that
 *       wants to be together may go anywhere, the rest follow it);
 *   <li>required pod anti-affinity: the node's domain holds no pod matching any term; and,
 *       symmetrically, no pod already there has a required anti-affinity term matching this pod;
 *   <li>topology spread, DoNotSchedule: placing the pod leaves its domain at most {@code maxSkew}
 *       above the emptiest eligible domain (the domains of nodes passing the pod's node selector
 *       and required node affinity); a node without the topology label is not eligible;
 *   <li>scores: preferred affinity adds, preferred anti-affinity subtracts the weights of the terms
 *       with a matching pod in the node's domain, as a share of all the pod's preferred weights
 *       ({@code −100..100}); ScheduleAnyway spread gives {@code 100 × maxSkew / (maxSkew +
 *       excess)}, where excess is how many more matching pods the node's domain holds than the
 *       emptiest eligible domain (100 in the emptiest), averaged over the pod's soft constraints.
 * </ul>
 *
 * Counters are built lazily, per distinct term, the first time a pod asks, then kept current.
 */
final class PodNeighbourhood implements PlacementListener {

  static final PredicateResult AFFINITY_UNMET =
      PredicateResult.rejected("node(s) didn't match pod affinity rules");
  static final PredicateResult ANTI_AFFINITY_UNMET =
      PredicateResult.rejected("node(s) didn't match pod anti-affinity rules");
  static final PredicateResult EXISTING_ANTI_AFFINITY =
      PredicateResult.rejected("node(s) didn't satisfy existing pods anti-affinity rules");
  static final PredicateResult SPREAD_UNMET =
      PredicateResult.rejected("node(s) didn't match pod topology spread constraints");
  static final PredicateResult SPREAD_LABEL_MISSING =
      PredicateResult.rejected(
          "node(s) didn't match pod topology spread constraints (missing required label)");

  /** One pod as the counters see it. */
  private record Neighbour(
      String namespace, Map<String, String> labels, List<PodAffinityTerm> requiredAnti) {}

  /** A term as carried by a pod of {@code ownerNamespace} (which an empty namespace list means). */
  private record TermKey(PodAffinityTerm term, String ownerNamespace) {}

  /** Matching pods per domain value of the term's topology key. */
  private static final class DomainCounts {
    final Map<String, Integer> byDomain = new HashMap<>();
    int total;
    int version;

    int get(String domain) {
      Integer count = byDomain.get(domain);
      return count == null ? 0 : count;
    }

    void add(String domain, int delta) {
      byDomain.merge(domain, delta, Integer::sum);
      total += delta;
      version++;
    }
  }

  private record SpreadKey(PlacementConstraints constraints, String topologyKey) {}

  private record CachedMinimum(int version, int minimum) {}

  private final Session session;
  private final List<List<Neighbour>> neighboursByNode = new ArrayList<>();
  private final Map<TermKey, DomainCounts> matching = new HashMap<>();

  /** Required anti-affinity terms of placed pods, with how many carry each per domain. */
  private final Map<TermKey, DomainCounts> antiAffinityOwners = new HashMap<>();

  private final Map<SpreadKey, Set<String>> eligibleDomains = new HashMap<>();
  private final Map<Object, CachedMinimum> minimums = new HashMap<>();

  PodNeighbourhood(Session session) {
    this.session = session;
    for (NodeState node : session.nodes()) {
      List<Neighbour> neighbours = new ArrayList<>();
      for (ExistingPod pod : node.info().existingPods()) {
        Neighbour neighbour =
            new Neighbour(pod.namespace(), pod.labels(), pod.requiredAntiAffinity());
        neighbours.add(neighbour);
        countOwner(neighbour, node, 1);
      }
      neighboursByNode.add(neighbours);
    }
  }

  /**
   * True when some task asks anything of its neighbours, or some pod keeps others away: only then
   * is this built.
   */
  static boolean needed(Session session) {
    if (session.taskConstraints().stream()
        .anyMatch(constraints -> !constraints.podAffinity().isEmpty())) {
      return true;
    }
    for (NodeState node : session.nodes()) {
      for (ExistingPod pod : node.info().existingPods()) {
        if (!pod.requiredAntiAffinity().isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  // ---- predicate ----

  PredicateResult check(TaskState task, NodeState node) {
    String namespace = task.job().info().namespace();
    Map<String, String> labels = task.info().labels();
    if (!antiAffinityOwners.isEmpty()) {
      for (Map.Entry<TermKey, DomainCounts> owners : antiAffinityOwners.entrySet()) {
        TermKey key = owners.getKey();
        String domain = node.info().labels().get(key.term().topologyKey());
        if (domain != null
            && owners.getValue().get(domain) > 0
            && key.term().matches(namespace, labels, key.ownerNamespace())) {
          return EXISTING_ANTI_AFFINITY;
        }
      }
    }
    PodAffinity affinity = task.info().constraints().podAffinity();
    if (affinity.isEmpty()) {
      return PredicateResult.FITS;
    }
    for (PodAffinityTerm term : affinity.required()) {
      String domain = node.info().labels().get(term.topologyKey());
      DomainCounts counts = counts(term, namespace);
      boolean partnerThere = domain != null && counts.get(domain) > 0;
      boolean firstOfItsGroup = counts.total == 0 && term.matches(namespace, labels, namespace);
      if (!partnerThere && !firstOfItsGroup) {
        return AFFINITY_UNMET;
      }
    }
    for (PodAffinityTerm term : affinity.requiredAnti()) {
      String domain = node.info().labels().get(term.topologyKey());
      if (domain != null && counts(term, namespace).get(domain) > 0) {
        return ANTI_AFFINITY_UNMET;
      }
    }
    for (TopologySpreadConstraint constraint : affinity.spread()) {
      if (!constraint.doNotSchedule()) {
        continue;
      }
      String domain = node.info().labels().get(constraint.topologyKey());
      if (domain == null) {
        return SPREAD_LABEL_MISSING;
      }
      if (skewAfter(task, constraint, domain) > constraint.maxSkew()) {
        return SPREAD_UNMET;
      }
    }
    return PredicateResult.FITS;
  }

  // ---- scores ----

  /**
   * Preferred pod affinity minus preferred anti-affinity, as a share of the pod's preferred
   * weights, in −100..100.
   */
  double affinityScore(TaskState task, NodeState node) {
    PodAffinity affinity = task.info().constraints().podAffinity();
    if (affinity.preferred().isEmpty() && affinity.preferredAnti().isEmpty()) {
      return 0;
    }
    String namespace = task.job().info().namespace();
    long total = 0;
    long matched = 0;
    for (WeightedPodAffinityTerm preferred : affinity.preferred()) {
      total += preferred.weight();
      if (hasMatchInDomain(preferred.term(), namespace, node)) {
        matched += preferred.weight();
      }
    }
    for (WeightedPodAffinityTerm avoided : affinity.preferredAnti()) {
      total += avoided.weight();
      if (hasMatchInDomain(avoided.term(), namespace, node)) {
        matched -= avoided.weight();
      }
    }
    return 100.0 * matched / total;
  }

  /**
   * ScheduleAnyway spread: {@code 100 × maxSkew / (maxSkew + excess over the emptiest domain)},
   * averaged over the soft constraints; 0 without any.
   */
  double spreadScore(TaskState task, NodeState node) {
    List<TopologySpreadConstraint> spread = task.info().constraints().podAffinity().spread();
    double sum = 0;
    int soft = 0;
    for (TopologySpreadConstraint constraint : spread) {
      if (constraint.doNotSchedule()) {
        continue;
      }
      soft++;
      String domain = node.info().labels().get(constraint.topologyKey());
      if (domain != null) {
        int self = constraint.selector().matches(task.info().labels()) ? 1 : 0;
        int excess = Math.max(0, skewAfter(task, constraint, domain) - self);
        sum += 100.0 * constraint.maxSkew() / (constraint.maxSkew() + excess);
      }
    }
    return soft == 0 ? 0 : sum / soft;
  }

  private boolean hasMatchInDomain(PodAffinityTerm term, String namespace, NodeState node) {
    String domain = node.info().labels().get(term.topologyKey());
    return domain != null && counts(term, namespace).get(domain) > 0;
  }

  /** Matching pods in {@code domain} once this pod is there, minus the emptiest eligible domain. */
  private int skewAfter(TaskState task, TopologySpreadConstraint constraint, String domain) {
    String namespace = task.job().info().namespace();
    PodAffinityTerm asTerm =
        new PodAffinityTerm(
            constraint.selector(), Set.of(namespace), false, constraint.topologyKey());
    DomainCounts counts = counts(asTerm, namespace);
    int self = constraint.selector().matches(task.info().labels()) ? 1 : 0;
    return counts.get(domain) + self - minimum(counts, asTerm, task.info().constraints());
  }

  private int minimum(DomainCounts counts, PodAffinityTerm term, PlacementConstraints constraints) {
    SpreadKey spreadKey = new SpreadKey(constraints, term.topologyKey());
    Set<String> domains = eligibleDomains.computeIfAbsent(spreadKey, this::domainsOfEligibleNodes);
    Object cacheKey = List.of(spreadKey, term);
    CachedMinimum cached = minimums.get(cacheKey);
    if (cached != null && cached.version() == counts.version) {
      return cached.minimum();
    }
    int minimum = Integer.MAX_VALUE;
    for (String domain : domains) {
      minimum = Math.min(minimum, counts.get(domain));
    }
    minimum = minimum == Integer.MAX_VALUE ? 0 : minimum;
    minimums.put(cacheKey, new CachedMinimum(counts.version, minimum));
    return minimum;
  }

  /**
   * The topology values of nodes that pass the pod's node selector and required node affinity
   * (taints aside, as kube's default).
   */
  private Set<String> domainsOfEligibleNodes(SpreadKey key) {
    Set<String> domains = new HashSet<>();
    for (NodeState node : session.nodes()) {
      String domain = node.info().labels().get(key.topologyKey());
      if (domain != null && PredicatesPlugin.matchesNodeSelection(key.constraints(), node)) {
        domains.add(domain);
      }
    }
    return domains;
  }

  // ---- counters ----

  private DomainCounts counts(PodAffinityTerm term, String ownerNamespace) {
    TermKey key = new TermKey(term, ownerNamespace);
    DomainCounts counts = matching.get(key);
    if (counts != null) {
      return counts;
    }
    counts = new DomainCounts();
    for (NodeState node : session.nodes()) {
      String domain = node.info().labels().get(term.topologyKey());
      if (domain == null) {
        continue;
      }
      for (Neighbour neighbour : neighboursByNode.get(node.index())) {
        if (term.matches(neighbour.namespace(), neighbour.labels(), ownerNamespace)) {
          counts.add(domain, 1);
        }
      }
    }
    matching.put(key, counts);
    return counts;
  }

  @Override
  public void placed(TaskState task, NodeState node) {
    Neighbour neighbour =
        new Neighbour(
            task.job().info().namespace(),
            task.info().labels(),
            task.info().constraints().podAffinity().requiredAnti());
    neighboursByNode.get(node.index()).add(neighbour);
    count(neighbour, node, 1);
  }

  @Override
  public void removed(TaskState task, NodeState node) {
    List<Neighbour> neighbours = neighboursByNode.get(node.index());
    Neighbour neighbour =
        new Neighbour(
            task.job().info().namespace(),
            task.info().labels(),
            task.info().constraints().podAffinity().requiredAnti());
    neighbours.remove(neighbour);
    count(neighbour, node, -1);
  }

  private void count(Neighbour neighbour, NodeState node, int delta) {
    for (Map.Entry<TermKey, DomainCounts> entry : matching.entrySet()) {
      PodAffinityTerm term = entry.getKey().term();
      String domain = node.info().labels().get(term.topologyKey());
      if (domain != null
          && term.matches(
              neighbour.namespace(), neighbour.labels(), entry.getKey().ownerNamespace())) {
        entry.getValue().add(domain, delta);
      }
    }
    countOwner(neighbour, node, delta);
  }

  private void countOwner(Neighbour neighbour, NodeState node, int delta) {
    for (PodAffinityTerm term : neighbour.requiredAnti()) {
      String domain = node.info().labels().get(term.topologyKey());
      if (domain != null) {
        antiAffinityOwners
            .computeIfAbsent(new TermKey(term, neighbour.namespace()), k -> new DomainCounts())
            .add(domain, delta);
      }
    }
  }
}
