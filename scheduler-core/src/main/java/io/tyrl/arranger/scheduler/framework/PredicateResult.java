package io.tyrl.arranger.scheduler.framework;

/**
 * The verdict of a predicate on one node. A rejection carries the reason shown in "why pending"
 * messages, and whether it is a transient node condition (NotReady, cordoned) that must not make a
 * job count as never fitting. Plugins keep their rejections in constants or per-session arrays, so
 * that a verdict costs no allocation on the hot path.
 */
public final class PredicateResult {

  public static final PredicateResult FITS = new PredicateResult(null, false);

  private final String reason;
  private final boolean transientCondition;

  private PredicateResult(String reason, boolean transientCondition) {
    this.reason = reason;
    this.transientCondition = transientCondition;
  }

  /**
   * A rejection that will stay while the node and the pod stay as they are (selector, taint, size).
   */
  public static PredicateResult rejected(String reason) {
    return new PredicateResult(requireReason(reason), false);
  }

  /**
   * A rejection caused by a node condition that usually clears by itself (NotReady, unschedulable).
   */
  public static PredicateResult rejectedTransiently(String reason) {
    return new PredicateResult(requireReason(reason), true);
  }

  private static String requireReason(String reason) {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("a rejection needs a reason");
    }
    return reason;
  }

  public boolean fits() {
    return reason == null;
  }

  public String reason() {
    return reason;
  }

  public boolean isTransient() {
    return transientCondition;
  }

  @Override
  public String toString() {
    return fits() ? "fits" : reason;
  }
}
