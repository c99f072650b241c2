package io.tyrl.arranger.scheduler.topology;

import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.framework.NodeFence;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Session;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The session's nodes grouped by every topology level, built once per session ({@link #of}): the
 * domains of a level, the domain a node is in, a domain partitioned by a narrower level, and the
 * fence that keeps a pod nearest to a node of its job.
 */
public final class Domains {

  private final TopologyLevels levels;
  private final List<NodeState> nodes;
  private final Map<String, List<Domain>> byLevel = new HashMap<>();
  private final Map<String, Domain[]> byNode = new HashMap<>();
  private final Map<NearestKey, NodeFence> nearest = new HashMap<>();

  private record NearestKey(int anchor, String preferred, String required) {}

  private Domains(Session session) {
    this.levels = session.topologyLevels();
    this.nodes = session.nodes();
    for (String level : levels.keys()) {
      Map<String, List<Integer>> members = new TreeMap<>();
      for (NodeState node : nodes) {
        String value = node.info().labels().get(level);
        if (value != null) {
          members.computeIfAbsent(value, v -> new ArrayList<>()).add(node.index());
        }
      }
      List<Domain> domains = new ArrayList<>(members.size());
      Domain[] ofNode = new Domain[nodes.size()];
      members.forEach(
          (value, indices) -> {
            Domain domain =
                new Domain(level, value, indices.stream().mapToInt(Integer::intValue).toArray());
            domains.add(domain);
            for (int index : domain.nodes()) {
              ofNode[index] = domain;
            }
          });
      byLevel.put(level, List.copyOf(domains));
      byNode.put(level, ofNode);
    }
  }

  /** The session's domains, built the first time they are asked for. */
  public static Domains of(Session session) {
    return session.extension(Domains.class, Domains::new);
  }

  public TopologyLevels levels() {
    return levels;
  }

  /** Every domain of the level, by name; empty for a level that is not configured. */
  public List<Domain> all(String level) {
    return byLevel.getOrDefault(level, List.of());
  }

  /** The domain of the level the node is in; empty when the node lacks the level's label. */
  public Optional<Domain> containing(String level, NodeState node) {
    Domain[] ofNode = byNode.get(level);
    return ofNode == null ? Optional.empty() : Optional.ofNullable(ofNode[node.index()]);
  }

  /**
   * The nodes of {@code outer} grouped by the narrower level's label, by name. A part that is a
   * whole domain of that level (levels nest, as racks in a block) is that domain itself, so what is
   * kept per domain ({@link DomainRoom}) serves it.
   */
  public List<Domain> partition(Domain outer, String level) {
    Domain[] ofNode = byNode.get(level);
    if (ofNode == null) {
      return List.of();
    }
    Map<Domain, List<Integer>> members = new TreeMap<>(Comparator.comparing(Domain::name));
    for (int index : outer.nodes()) {
      Domain inner = ofNode[index];
      if (inner != null) {
        members.computeIfAbsent(inner, v -> new ArrayList<>()).add(index);
      }
    }
    List<Domain> parts = new ArrayList<>(members.size());
    members.forEach(
        (inner, indices) ->
            parts.add(
                indices.size() == inner.nodes().length
                    ? inner
                    : new Domain(
                        level,
                        inner.name(),
                        indices.stream().mapToInt(Integer::intValue).toArray())));
    return parts;
  }

  /**
   * Where a pod of a job placed around {@code anchor} (its leader's node) goes: first the anchor's
   * domain of the {@code preferred} level, then each wider level's domain around the anchor in
   * turn, up to the anchor's domain of the {@code required} level, which is the last the pod may
   * use; without a required level, anywhere after. Either level may be null. Null when nothing
   * keeps the pod anywhere in particular (no level, or the anchor lacks them all).
   */
  public NodeFence nearest(NodeState anchor, String preferred, String required) {
    return nearest.computeIfAbsent(
        new NearestKey(anchor.index(), preferred, required),
        key -> buildNearest(anchor, preferred, required));
  }

  private NodeFence buildNearest(NodeState anchor, String preferred, String required) {
    int requiredDepth = required == null ? -1 : levels.depth(required);
    Optional<Domain> requiredDomain =
        required == null ? Optional.empty() : containing(required, anchor);
    if (required != null && requiredDomain.isEmpty()) {
      // Placed before its node carried the level (or the label was removed): nothing to keep to.
      return null;
    }
    List<int[]> groups = new ArrayList<>();
    BitSet taken = new BitSet(nodes.size());
    if (preferred != null) {
      for (int depth = levels.depth(preferred); depth > requiredDepth; depth--) {
        containing(levels.keys().get(depth), anchor)
            .ifPresent(domain -> addUntaken(groups, taken, domain.nodes(), requiredDomain));
      }
    }
    requiredDomain.ifPresent(domain -> addUntaken(groups, taken, domain.nodes(), requiredDomain));
    if (groups.isEmpty()) {
      return null;
    }
    return new NodeFence(groups, required == null);
  }

  private static void addUntaken(
      List<int[]> groups, BitSet taken, int[] domain, Optional<Domain> within) {
    BitSet allowed = null;
    if (within.isPresent()) {
      allowed = new BitSet();
      for (int index : within.get().nodes()) {
        allowed.set(index);
      }
    }
    int[] fresh = new int[domain.length];
    int count = 0;
    for (int index : domain) {
      if (!taken.get(index) && (allowed == null || allowed.get(index))) {
        taken.set(index);
        fresh[count++] = index;
      }
    }
    if (count > 0) {
      groups.add(Arrays.copyOf(fresh, count));
    }
  }
}
