package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.framework.ActionDescriptor;
import io.tyrl.arranger.scheduler.framework.Registry;

/** The actions Arranger ships, in a fresh registry each time. */
public final class BuiltInActions {

  private BuiltInActions() {}

  public static Registry<ActionDescriptor> registry() {
    return Registry.actions()
        .register(EnqueueAction.descriptor())
        .register(AllocateAction.descriptor())
        .register(BackfillAction.descriptor())
        .register(PreemptAction.descriptor())
        .register(ReclaimAction.descriptor());
  }
}
