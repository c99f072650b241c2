package io.tyrl.arranger.scheduler.api;

/**
 * The {@code basicPolicy} a job names, spelled as in the CRD ("BinPack", "LeaderFirst"). Which
 * names exist is for the CRD's enum and the node-order plugin's registry to say, so a new policy
 * needs no change here; the core itself gives meaning to two of them, kept as constants: {@link
 * #GANG} and {@link #LEADER_FIRST}.
 */
public record BasicPolicy(String name) {

  /** An admission rule, not a node order: every worker belongs to the job's minimum. */
  public static final BasicPolicy GANG = new BasicPolicy("Gang");

  /**
   * Leaders on the quietest node, workers packed; its leaders are kept off the last idle GPU nodes.
   */
  public static final BasicPolicy LEADER_FIRST = new BasicPolicy("LeaderFirst");

  public BasicPolicy {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "basicPolicy must name a policy, got " + (name == null ? "null" : "'" + name + "'"));
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
