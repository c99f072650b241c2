package io.tyrl.arranger.crd.reasons;

import java.util.List;

/**
 * What a job asking for topology ({@code spec.topology}) is told, written once: the scheduler's
 * core composes its {@code status.scheduling} messages from these, and docs/what-you-see.md quotes
 * them. A level is a node-label key ({@code topology.kubernetes.io/zone}); in a sentence it is
 * named by its last segment ({@code zone}), and a domain by the label's value ({@code r7}).
 */
public final class TopologyWording {

  private TopologyWording() {}

  /** {@code topology.kubernetes.io/zone} → {@code zone}; a key without a prefix stays as it is. */
  public static String levelNoun(String level) {
    int slash = level.lastIndexOf('/');
    return slash < 0 ? level : level.substring(slash + 1);
  }

  /**
   * A job names a level the scheduler's configuration does not list ({@code spec.topology.required:
   * unknown topology level "rack"; the scheduler's levels are zone, block}).
   */
  public static String unknownLevel(String field, String level, List<String> levels) {
    return field
        + ": unknown topology level \""
        + level
        + "\"; "
        + (levels.isEmpty()
            ? "the scheduler's configuration lists no topology levels (topology.levels)"
            : "the scheduler's levels are " + String.join(", ", levels));
  }

  /** The preferred level is not narrower than the required one. */
  public static String preferredNotNarrower(String field, String preferred, String required) {
    return field
        + ": the preferred level \""
        + preferred
        + "\" must be narrower than the required level \""
        + required
        + "\"";
  }

  /**
   * No domain of the required level has the free room for the gang minimum: {@code no rack can hold
   * the gang minimum (32 nvidia.com/gpu): the emptiest, r7, has 24 free}.
   *
   * @param demand the minimum's amount of its scarcest resource, formatted ({@code 32
   *     nvidia.com/gpu})
   * @param emptiest the domain with the most of it free, or null when no node carries the level
   * @param free that domain's free amount, formatted without the resource name ({@code 24})
   */
  public static String noDomainHolds(String level, String demand, String emptiest, String free) {
    String noun = levelNoun(level);
    if (emptiest == null) {
      return "no "
          + noun
          + " can hold the gang minimum ("
          + demand
          + "): no node has label "
          + level;
    }
    return "no "
        + noun
        + " can hold the gang minimum ("
        + demand
        + "): the emptiest, "
        + emptiest
        + ", has "
        + free
        + " free";
  }

  /**
   * Some domains have the free room in total, yet none holds the minimum's pods on its nodes:
   * {@code no rack can hold the gang minimum (32 nvidia.com/gpu) on its nodes: 3 racks have the
   * room in total; in r2, the fullest of them, …}.
   */
  public static String noDomainFits(
      String level, String demand, int withRoom, String firstTried, String whyThere) {
    String noun = levelNoun(level);
    return "no "
        + noun
        + " can hold the gang minimum ("
        + demand
        + ") on its nodes: "
        + withRoom
        + " "
        + noun
        + (withRoom == 1 ? " has" : "s have")
        + " the room in total; in "
        + firstTried
        + ", the fullest of them, "
        + whyThere;
  }

  /**
   * No domain of the preferred level has room for the gang now, and the gang waits for one before
   * it spreads: {@code no rack has room for the gang minimum (32 nvidia.com/gpu) now: the emptiest,
   * r7, has 24 free; a preferred rack is waited for up to 30s after the job began waiting, then the
   * gang spreads over several}.
   */
  public static String waitingForPreferred(
      String level, String demand, String emptiest, String free, String wait) {
    String noun = levelNoun(level);
    return "no "
        + noun
        + " has room for the gang minimum ("
        + demand
        + ") now: the emptiest, "
        + emptiest
        + ", has "
        + free
        + " free; a preferred "
        + noun
        + " is waited for up to "
        + wait
        + " after the job began waiting, then the gang spreads over several";
  }

  /** What a node kept for a waiting gang says to the pods of other jobs. */
  public static String heldForGang(String level, String jobKey) {
    return "held for gang " + jobKey + "'s " + levelNoun(level);
  }
}
