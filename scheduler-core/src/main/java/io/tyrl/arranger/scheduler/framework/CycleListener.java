package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.CycleResult;

/** Timing hooks, so the service layer can feed Micrometer without the core knowing about it. */
public interface CycleListener {

  CycleListener NONE = new CycleListener() {};

  default void pluginOpened(String plugin, long nanos) {}

  default void actionExecuted(String action, long nanos) {}

  default void cycleCompleted(CycleResult result, long nanos) {}
}
