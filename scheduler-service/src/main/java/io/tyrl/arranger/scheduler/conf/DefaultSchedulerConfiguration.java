package io.tyrl.arranger.scheduler.conf;

/** The configuration used when the operator gives none (kube-batch's classic two tiers). */
public final class DefaultSchedulerConfiguration {

  public static final String YAML = """
      actions: "enqueue, allocate, backfill"
      tiers:
        - plugins:
            - name: priority
            - name: gang
            - name: conformance
        - plugins:
            - name: drf
            - name: predicates
            - name: proportion
            - name: nodeorder
      """;

  private DefaultSchedulerConfiguration() {}

  public static SchedulerConfiguration parse(ConfigurationVocabulary vocabulary) {
    return new SchedulerConfigurationParser(vocabulary).parse(YAML);
  }
}
