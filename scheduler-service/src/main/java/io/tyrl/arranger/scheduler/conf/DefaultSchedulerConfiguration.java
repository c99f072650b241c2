package io.tyrl.arranger.scheduler.conf;

/**
 * The configuration used when the operator gives none (kube-batch's classic two tiers), and the same
 * with preemption and reclaim switched on.
 *
 * <p>The default does not evict: preempt and reclaim delete running training pods, which is only safe
 * once the service layer deletes the victims a cycle names ({@code CycleResult.victims()}) and reports
 * their pods as releasing. Until then a preemptor would wait for victims that never go. Operators opt
 * in with {@link #WITH_PREEMPTION_YAML}'s action order.
 */
public final class DefaultSchedulerConfiguration {

  private static final String TIERS = """
      tiers:
        - plugins:
            - name: priority
            - name: gang
            - name: conformance
        - plugins:
            - name: drf
            - name: predicates
            - name: proportion
            - name: overcommit
            - name: nodeorder
      """;

  public static final String YAML = "actions: \"enqueue, allocate, backfill\"\n" + TIERS;

  /**
   * Reclaim and preempt before allocate: a preemptor still waiting for its victims pipelines onto
   * their releasing room again before allocate could hand that room to someone else.
   */
  public static final String WITH_PREEMPTION_YAML = "actions: \"enqueue, reclaim, preempt, allocate, backfill\"\n" + TIERS;

  private DefaultSchedulerConfiguration() {}

  public static SchedulerConfiguration parse(ConfigurationVocabulary vocabulary) {
    return new SchedulerConfigurationParser(vocabulary).parse(YAML);
  }

  public static SchedulerConfiguration parseWithPreemption(ConfigurationVocabulary vocabulary) {
    return new SchedulerConfigurationParser(vocabulary).parse(WITH_PREEMPTION_YAML);
  }
}
