package io.tyrl.arranger.scheduler.app;

import io.tyrl.arranger.scheduler.conf.ActionConfiguration;
import io.tyrl.arranger.scheduler.kube.SchedulerConfigurationSource;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/schedulerconfiguration}: the configuration in force (where it came from, since
 * when, its actions) and the last text refused with the parser's message. Its own endpoint rather
 * than health details, which the services show only to authorized callers: an operator fixing a
 * ConfigMap needs the refusal, and it holds nothing secret.
 */
@Endpoint(id = "schedulerconfiguration")
public final class SchedulerConfigurationEndpoint {

  private final SchedulerConfigurationSource source;

  SchedulerConfigurationEndpoint(SchedulerConfigurationSource source) {
    this.source = source;
  }

  @ReadOperation
  public Map<String, Object> configuration() {
    SchedulerConfigurationSource.Applied applied = source.applied();
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("origin", applied.origin());
    state.put("since", applied.since().toString());
    state.put(
        "actions",
        applied.configuration().actions().stream().map(ActionConfiguration::name).toList());
    source
        .lastRefusal()
        .ifPresent(
            refusal -> {
              state.put("refused", refusal.origin() + ": " + refusal.message());
              state.put("refusedAt", refusal.at().toString());
            });
    return state;
  }
}
