package io.tyrl.arranger.scheduler.conf;

/**
 * The configuration used when the operator gives none (kube-batch's classic two tiers with reclaim
 * between queues), and the same with preemption within a queue switched on too.
 *
 * <p>The default reclaims: borrowing idle room is only fair if what is borrowed is given back, and
 * jobs arrive one at a time on a real cluster — without reclaim, the first job on an idle cluster
 * keeps every later queue out for as long as it runs. Reclaim takes elastic surplus (workers above
 * a job's minimum) before any job's core, only from queues above their deserved share, never below
 * it, and never what a queue holds within its guarantee. It does not preempt within a queue by
 * priority: operators opt in with {@link #WITH_PREEMPTION_YAML}'s action order.
 */
public final class DefaultSchedulerConfiguration {

  private static final String FIRST_TIER =
      """
      tiers:
        - plugins:
            - name: priority
            - name: gang
            - name: conformance
      """;

  private static final String TIERS =
      FIRST_TIER
          + """
        - plugins:
            - name: drf
            - name: predicates
            - name: proportion
            - name: overcommit
            - name: nodeorder
      """;

  /**
   * Without {@code overcommit}: a job that can only start by evicting others is refused by it for
   * want of free room, and a job that was never enqueued neither reclaims nor preempts.
   */
  private static final String EVICTING_TIERS =
      FIRST_TIER
          + """
        - plugins:
            - name: drf
            - name: predicates
            - name: proportion
            - name: nodeorder
      """;

  public static final String YAML = "actions: \"enqueue, reclaim, allocate, backfill\"\n" + TIERS;

  /**
   * Reclaim and preempt before allocate: a preemptor that needs more than its victims' releasing
   * room makes room again before allocate could hand the idle room to someone else.
   */
  public static final String WITH_PREEMPTION_YAML =
      "actions: \"enqueue, reclaim, preempt, allocate, backfill\"\n" + EVICTING_TIERS;

  private DefaultSchedulerConfiguration() {}

  public static SchedulerConfiguration parse(ConfigurationVocabulary vocabulary) {
    return new SchedulerConfigurationParser(vocabulary).parse(YAML);
  }

  public static SchedulerConfiguration parseWithPreemption(ConfigurationVocabulary vocabulary) {
    return new SchedulerConfigurationParser(vocabulary).parse(WITH_PREEMPTION_YAML);
  }
}
