package io.tyrl.arranger.scheduler.app;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The scheduler service's settings.
 *
 * @param period pause between two cycles when nothing new is seen
 * @param cycleOnChange start a cycle soon after a change that may let a job be placed (a job
 *     submitted, room freed, a node or Queue changed) instead of waiting for the period
 * @param minCycleInterval the least pause after a cycle before one started by a change; a cycle
 *     also waits at least as long as the last one lasted, so that changes keep the scheduler busy
 *     half the time at most
 * @param configuration scheduler configuration (actions, tiers, plugin arguments) as YAML; the
 *     built-in default when empty (and no location is given). The ConfigMap, when present,
 *     overrides it.
 * @param configurationLocation a Spring resource holding that YAML instead, e.g. {@code
 *     classpath:scheduler-configurations/fair-share.yaml} (the policy profiles set it: the files of
 *     config/scheduler/ are packaged there) or {@code file:/etc/arranger/scheduler.yaml}; not
 *     together with {@code configuration}
 * @param statusWriters how many TYJob status patches are sent at once
 * @param statusWriteBacklog how many TYJob status writes may be in flight (handed over by cycles,
 *     not yet answered); a changed job found when that many are is left for a later cycle
 * @param resync informer resync period
 * @param assumeTtl how long a written decision stands in for the informer's copy of a job before
 *     the informer has shown the write; forgotten after that (kube-scheduler's assumed-pod TTL)
 * @param eventRepeatInterval a job that keeps waiting for the same reason has it recorded as an
 *     Event again this often (counted on one Event by the recorder), not every cycle
 * @param usageWriteInterval a queue's past usage is written to its status at most this often (and
 *     only when it moved): what a failover can lose of it at most
 */
@ConfigurationProperties("arranger.scheduler")
public record SchedulerProperties(
    @DefaultValue("1s") Duration period,
    @DefaultValue("true") boolean cycleOnChange,
    @DefaultValue("100ms") Duration minCycleInterval,
    String configuration,
    String configurationLocation,
    @DefaultValue ConfigMapSource configMap,
    @DefaultValue("32") int statusWriters,
    @DefaultValue("2048") int statusWriteBacklog,
    @DefaultValue("10m") Duration resync,
    @DefaultValue("30s") Duration assumeTtl,
    @DefaultValue("5m") Duration eventRepeatInterval,
    @DefaultValue("30s") Duration usageWriteInterval) {

  public SchedulerProperties {
    if (period.compareTo(Duration.ofMillis(10)) < 0) {
      throw new IllegalArgumentException(
          "arranger.scheduler.period must be at least 10ms, got " + period);
    }
    if (minCycleInterval.compareTo(Duration.ofMillis(10)) < 0) {
      throw new IllegalArgumentException(
          "arranger.scheduler.min-cycle-interval must be at least 10ms, got " + minCycleInterval);
    }
    if (assumeTtl.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "arranger.scheduler.assume-ttl must be at least 1s, got " + assumeTtl);
    }
    if (eventRepeatInterval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "arranger.scheduler.event-repeat-interval must be at least 1s, got "
              + eventRepeatInterval);
    }
    if (usageWriteInterval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "arranger.scheduler.usage-write-interval must be at least 1s, got " + usageWriteInterval);
    }
    if (configuration != null
        && !configuration.isBlank()
        && configurationLocation != null
        && !configurationLocation.isBlank()) {
      throw new IllegalArgumentException(
          "arranger.scheduler.configuration and arranger.scheduler.configuration-location"
              + " are both set (location "
              + configurationLocation
              + "); set one");
    }
    if (statusWriteBacklog < 1) {
      throw new IllegalArgumentException(
          "arranger.scheduler.status-write-backlog must be at least 1, got " + statusWriteBacklog);
    }
    if (statusWriters < 1 || statusWriters > 256) {
      throw new IllegalArgumentException(
          "arranger.scheduler.status-writers must be within 1..256, got " + statusWriters);
    }
  }

  /** The ConfigMap the scheduler follows for its configuration. */
  public record ConfigMapSource(
      @DefaultValue("true") boolean enabled,
      @DefaultValue("default") String namespace,
      @DefaultValue("arranger-scheduler-config") String name,
      @DefaultValue("scheduler.yaml") String key) {}
}
