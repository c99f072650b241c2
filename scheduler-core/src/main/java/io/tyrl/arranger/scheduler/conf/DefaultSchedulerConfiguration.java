package io.tyrl.arranger.scheduler.conf;

/**
 * The configuration used when the operator gives none (kube-batch's classic two tiers), and the
 * same with preemption and reclaim switched on.
 *
 * <p>The default does not evict: preempt and reclaim delete running training pods, as Volcano's
 * default does not. Operators opt in with {@link #WITH_PREEMPTION_YAML}'s action order.
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

  public static final String YAML = "actions: \"enqueue, allocate, backfill\"\n" + TIERS;

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
