/**
 * The controller-owned part of {@code TYJob.status} as stored: read back in every observation and
 * written as the payload of a plan's status patch. Start at {@link ControllerStatus}; its {@code
 * lifecycleFacts} separate what must be written at once from what only reports and may wait. {@link
 * PodPhase} is here because the status records the leader's phase. It imports no other lifecycle
 * package, so that both the observation and the plan can carry it.
 */
package io.tyrl.arranger.controller.lifecycle.status;
